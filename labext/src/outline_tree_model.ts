/**
 * The OPML tree view's state, pure: the outline's rows (`GET outline?path=`,
 * fetched again on the server's `document` events for the file and when the
 * view says the file changed), the pending suggestions on it (from the
 * panel's suggestions model, live on suggestion events), the rows folded,
 * the search, the focused row, and Accept / Reject through the same model
 * the panel decides with (outline_tree_source.ts). The requester and the
 * suggestions are injected;
 * no DOM.
 */
import type { IOutline, ISuggestion } from './api_types';
import { normalizePath } from './documents';
import type { IServerEvent, ServerEvents } from './events';
import { errorText, ModelBase } from './model_base';
import { buildTree, ITree, ITreeNode } from './outline_tree_rows';
import type { ITreeSuggestions } from './outline_tree_source';
import { IVisibleRow, treeKey, visibleRows } from './outline_tree_visible';
import type { Request } from './request';

export type TreeStatus = 'loading' | 'ready' | 'error';

export const EMPTY_TREE: ITree = {
  nodes: new Map(),
  top: [],
  unplaced: [],
  aliases: new Map()
};

export class OutlineTreeModel extends ModelBase {
  constructor(
    path: string,
    request: Request,
    suggestions: ITreeSuggestions,
    events?: ServerEvents
  ) {
    super();
    this._path = normalizePath(path);
    this._request = request;
    this._suggestions = suggestions;
    this._unsubscribe.push(suggestions.onChange(() => this._rebuild()));
    if (events) {
      this._unsubscribe.push(
        events.subscribe(['document'], event => this.handleEvent(event))
      );
    }
  }

  get path(): string {
    return this._path;
  }
  get status(): TreeStatus {
    return this._status;
  }
  /** Why the outline could not be read (status `error`), or why a decision failed. */
  get error(): string | null {
    return this._fetchError ?? this._notice;
  }
  get outline(): IOutline | null {
    return this._outline;
  }
  get tree(): ITree {
    return this._tree;
  }
  /** The rows shown, in order. */
  get rows(): IVisibleRow[] {
    return this._rows;
  }
  get query(): string {
    return this._query;
  }
  /** The key of the row the keyboard acts on, or null. */
  get focused(): string | null {
    return this._focused;
  }

  /** The file was renamed. */
  setPath(path: string): Promise<void> {
    this._path = normalizePath(path);
    return this.refresh();
  }

  /** Fetch the rows again; calls while one runs coalesce into one more. */
  refresh(): Promise<void> {
    if (this._running) {
      this._again = true;
      return this._running;
    }
    const run = (async () => {
      do {
        this._again = false;
        try {
          const outline = await this._request<IOutline>(
            `outline?path=${encodeURIComponent(this._path)}`
          );
          this._outline = outline;
          this._status = 'ready';
          this._fetchError = null;
        } catch (error) {
          this._status = 'error';
          this._fetchError = errorText(error);
        }
        this._rebuild();
      } while (this._again && !this._disposed);
    })();
    this._running = run.finally(() => {
      this._running = null;
    });
    return this._running;
  }

  /** An agent's change to this file: read it again unless it shows already. */
  handleEvent(event: IServerEvent): void {
    if (
      event.type === 'document' &&
      normalizePath(event.data?.path) === this._path &&
      event.data?.revision !== this._outline?.revision
    ) {
      void this.refresh();
    }
  }

  setQuery(query: string): void {
    if (query !== this._query) {
      this._query = query;
      this._layout();
    }
  }

  /** Fold or unfold a row. */
  setExpanded(key: string, expanded: boolean): void {
    const had = this._collapsed.has(key);
    if (expanded === had) {
      if (expanded) {
        this._collapsed.delete(key);
      } else {
        this._collapsed.add(key);
      }
      this._layout();
    }
  }

  toggle(key: string): void {
    this.setExpanded(key, this._collapsed.has(key));
  }

  focus(key: string | null): void {
    if (key !== this._focused) {
      this._focused = key;
      this.emit();
    }
  }

  /** Act on a key pressed in the tree; true when it is one of the tree's. */
  handleKey(key: string): boolean {
    const action = treeKey(this._rows, this._focused, key);
    if (action === null) {
      return false;
    }
    if ('focus' in action) {
      this.focus(action.focus);
    } else if ('expand' in action) {
      this.setExpanded(action.expand, true);
    } else {
      this.setExpanded(action.collapse, false);
    }
    return true;
  }

  /** The suggestions shown at the focused row, in the order shown. */
  focusedNode(): ITreeNode | null {
    return this._focused === null
      ? null
      : (this._tree.nodes.get(this._focused) ?? null);
  }

  isBusy(suggestionId: string): boolean {
    return this._suggestions.isBusy(suggestionId);
  }

  /** Accept or reject one suggestion; the rows are read again after. */
  async decide(
    suggestionId: string,
    action: 'accept' | 'reject'
  ): Promise<void> {
    try {
      const result = await (action === 'accept'
        ? this._suggestions.accept(suggestionId)
        : this._suggestions.reject(suggestionId));
      const conflict = (result as ISuggestion | null)?.status === 'conflict';
      this._notice =
        result === null
          ? `The suggestion could not be ${action}ed.`
          : conflict
            ? `Not applied: ${(result as ISuggestion).reason ?? 'the outline changed since it was suggested.'}`
            : null;
    } catch (error) {
      this._notice = errorText(error);
    }
    await this.refresh();
  }

  dispose(): void {
    this._disposed = true;
    for (const stop of this._unsubscribe) {
      stop();
    }
    this.removeListeners();
  }

  private _rebuild(): void {
    const rows = this._outline?.rows ?? [];
    this._tree =
      this._outline === null
        ? EMPTY_TREE
        : buildTree(rows, this._suggestions.pending(this._path));
    this._layout();
  }

  private _layout(): void {
    const before = this._rows.findIndex(r => r.node.key === this._focused);
    this._rows = visibleRows(this._tree, this._collapsed, this._query);
    if (
      this._focused !== null &&
      !this._rows.some(r => r.node.key === this._focused)
    ) {
      // The focused row went (folded, filtered, deleted): the one now in its place.
      const at = Math.min(Math.max(before, 0), this._rows.length - 1);
      this._focused = at >= 0 ? this._rows[at].node.key : null;
    }
    this.emit();
  }

  private _path: string;
  private _request: Request;
  private _suggestions: ITreeSuggestions;
  private _unsubscribe: (() => void)[] = [];
  private _status: TreeStatus = 'loading';
  private _fetchError: string | null = null;
  /** Why the last decision failed (until the next one). */
  private _notice: string | null = null;
  private _outline: IOutline | null = null;
  private _tree: ITree = EMPTY_TREE;
  private _rows: IVisibleRow[] = [];
  private _collapsed = new Set<string>();
  private _query = '';
  private _focused: string | null = null;
  private _running: Promise<void> | null = null;
  private _again = false;
  private _disposed = false;
}
