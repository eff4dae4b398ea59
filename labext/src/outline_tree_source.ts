/**
 * Where the OPML tree view's pending suggestions come from: the panel's
 * suggestions model (suggestions.ts), live on the server's suggestion
 * events, deciding through the same REST calls as the panel.
 */
import type { ISuggestion } from './api_types';
import type { IPendingSuggestion } from './outline_tree_rows';

export type { IPendingSuggestion };

/** The pending suggestions as the tree reads and decides them. */
export interface ITreeSuggestions {
  /** The pending suggestions on the file at `path`. */
  pending(path: string): IPendingSuggestion[];
  onChange(listener: () => void): () => void;
  accept(id: string): Promise<unknown>;
  reject(id: string): Promise<unknown>;
  isBusy(id: string): boolean;
}

/** What the tree reads of the panel's suggestions model (suggestions.ts). */
export interface IPanelSuggestions {
  readonly groups: readonly { path: string; suggestions: ISuggestion[] }[];
  readonly conflicts: readonly { suggestion: ISuggestion }[];
  onChange(listener: () => void): () => void;
  accept(id: string): Promise<unknown>;
  reject(id: string): Promise<unknown>;
  isBusy(id: string): boolean;
}

/**
 * The panel's model as the tree's source: a file's placeable suggestions,
 * and its pending ones whose text changed since (shown, marked stale).
 */
export function treeSuggestions(model: IPanelSuggestions): ITreeSuggestions {
  return {
    pending: path => [
      ...(model.groups.find(g => g.path === path)?.suggestions ?? []).map(
        suggestion => ({ suggestion, stale: false })
      ),
      ...model.conflicts
        .filter(
          c => c.suggestion.path === path && c.suggestion.status === 'pending'
        )
        .map(c => ({ suggestion: c.suggestion, stale: true }))
    ],
    onChange: listener => model.onChange(listener),
    accept: id => model.accept(id),
    reject: id => model.reject(id),
    isBusy: id => model.isBusy(id)
  };
}
