/**
 * The pending-suggestions model: fetches `GET suggestions?status=pending`,
 * groups the pending ones by document, runs the accept/reject actions and
 * keeps what the review list renders (busy, conflicts, errors) and its
 * keyboard selection (see selection.ts). The requester is injected; no
 * JupyterLab or DOM imports.
 */
import type {
  IAcceptAllResult,
  IRejectAllResult,
  ISuggestion,
  ISuggestionDetail,
  ISuggestionList
} from './api_types';
import { ListModel } from './model_base';
import type { Request } from './request';
import {
  displayOrder,
  followSelection,
  IReviewKey,
  moveSelection,
  reviewKeyAction,
  SelectionMove
} from './selection';

// One suggestion as the REST API answers it, with its unified diff (`GET
// suggestions/{id}`), the list, and what accept-all and reject-all answer.
export type {
  IAcceptAllResult,
  IRejectAllResult,
  ISuggestion,
  ISuggestionDetail,
  ISuggestionList
};

/** A document and its pending suggestions, in document order. */
export interface IDocumentGroup {
  path: string;
  suggestions: ISuggestion[];
}

/** A suggestion that could not be applied, kept visible so the person sees why. */
export interface IConflict {
  suggestion: ISuggestion;
  reason: string;
}

/** Group suggestions by document: documents by path, suggestions by offset. */
export function groupByPath(suggestions: ISuggestion[]): IDocumentGroup[] {
  const groups = new Map<string, ISuggestion[]>();
  for (const suggestion of suggestions) {
    const list = groups.get(suggestion.path) ?? [];
    list.push(suggestion);
    groups.set(suggestion.path, list);
  }
  return [...groups.keys()].sort().map(path => ({
    path,
    suggestions: groups
      .get(path)!
      .slice()
      .sort((a, b) => a.start - b.start || a.created - b.created)
  }));
}

/** "line 3" or "lines 3–5". */
export function lineRange(suggestion: ISuggestion): string {
  const { lineStart, lineEnd } = suggestion;
  return lineEnd > lineStart
    ? `lines ${lineStart}–${lineEnd}`
    : `line ${lineStart}`;
}

/** The text shown for a conflict. */
export function conflictReason(suggestion: ISuggestion): string {
  return (
    suggestion.reason ||
    'The original text changed since this was suggested; nothing was applied.'
  );
}

/**
 * The review model; the panel redraws from `groups`, `conflicts`, `busy`,
 * `error` and `selected` on every change. A document-wide action is busy
 * under the key `path:<path>`.
 */
export class SuggestionsModel extends ListModel {
  constructor(request: Request) {
    super();
    this._request = request;
  }

  /** The pending suggestions, grouped by document. */
  get groups(): IDocumentGroup[] {
    return this._groups;
  }

  /** The number of pending suggestions on all documents. */
  get pendingCount(): number {
    return this._groups.reduce((n, g) => n + g.suggestions.length, 0);
  }

  /** Suggestions whose accept ended in a conflict, by id. */
  get conflicts(): IConflict[] {
    return [...this._conflicts.values()];
  }

  /** The suggestion the keyboard acts on (across documents), or null. */
  get selected(): string | null {
    return this._selected;
  }

  /** Whether a request for this suggestion (or its whole document) is in flight. */
  isBusy(id: string): boolean {
    if (this.busy.has(id)) {
      return true;
    }
    const path = this._find(id)?.path;
    return path !== undefined && this.busy.has(`path:${path}`);
  }

  /** Select a listed suggestion (null clears the selection). */
  select(id: string | null): void {
    const next = id !== null && this._find(id) ? id : null;
    if (next !== this._selected) {
      this._selected = next;
      this.emit();
    }
  }

  /** Select the first suggestion when none is (the list got the focus). */
  selectFirstIfNone(): void {
    if (this._selected === null) {
      this.select(displayOrder(this._groups)[0] ?? null);
    }
  }

  /** Move the selection through every document's suggestions (selection.ts). */
  moveSelection(move: SelectionMove): void {
    const next = moveSelection(
      displayOrder(this._groups),
      this._selected,
      move
    );
    if (next !== null) {
      this.select(next);
    }
  }

  /**
   * Act on a key pressed in the review list; true when it is a review key
   * (the caller then keeps it from the browser and JupyterLab), even when it
   * does nothing because the selected suggestion has a request in flight.
   */
  handleKey(input: IReviewKey): boolean {
    const action = reviewKeyAction(input);
    if (action === null) {
      return false;
    }
    if (action === 'accept') {
      void this.acceptSelected();
    } else if (action === 'reject') {
      void this.rejectSelected();
    } else {
      this.moveSelection(action);
    }
    return true;
  }

  /** Accept the selected suggestion unless a request for it is in flight. */
  acceptSelected(): Promise<ISuggestion | null> {
    return this._decideSelected(id => this.accept(id));
  }

  /** Reject the selected suggestion unless a request for it is in flight. */
  rejectSelected(): Promise<ISuggestion | null> {
    return this._decideSelected(id => this.reject(id));
  }

  /** Fetch a suggestion's unified diff (null when its base text is gone). */
  async diff(id: string): Promise<string | null> {
    const detail = await this._request<ISuggestionDetail>(
      `suggestions/${encodeURIComponent(id)}`
    );
    return detail.diff;
  }

  /** Accept one suggestion; a `conflict` answer is kept in `conflicts`. */
  accept(id: string): Promise<ISuggestion | null> {
    return this.act(id, async () => {
      const result = await this._request<ISuggestion>(
        `suggestions/${encodeURIComponent(id)}/accept`,
        { method: 'POST' }
      );
      this._noteConflicts(result.status === 'conflict' ? [result] : []);
      this._noteDecided([result]);
      return result;
    });
  }

  /** Reject one suggestion. */
  reject(id: string): Promise<ISuggestion | null> {
    return this.act(id, async () => {
      const result = await this._request<ISuggestion>(
        `suggestions/${encodeURIComponent(id)}/reject`,
        { method: 'POST' }
      );
      this._noteDecided([result]);
      this._tellRejected([result]);
      return result;
    });
  }

  /** Accept a document's pending suggestions; conflicts are kept. */
  acceptAll(path: string): Promise<IAcceptAllResult | null> {
    return this.act(`path:${path}`, async () => {
      const result = await this._request<IAcceptAllResult>(
        'suggestions/accept-all',
        { method: 'POST', body: JSON.stringify({ path }) }
      );
      this._noteConflicts(result.conflicts ?? []);
      this._noteDecided([
        ...(result.accepted ?? []),
        ...(result.conflicts ?? [])
      ]);
      return result;
    });
  }

  /** Reject a document's pending suggestions. */
  rejectAll(path: string): Promise<IRejectAllResult | null> {
    return this.act(`path:${path}`, async () => {
      const result = await this._request<IRejectAllResult>(
        'suggestions/reject-all',
        { method: 'POST', body: JSON.stringify({ path }) }
      );
      this._noteDecided(result.rejected ?? []);
      this._tellRejected(result.rejected ?? []);
      return result;
    });
  }

  /** Hear of every rejection made here (the undo offer, undo.ts); returns the unsubscribe. */
  onRejected(listener: (rejected: ISuggestion[]) => void): () => void {
    this._rejectedListeners.add(listener);
    return () => this._rejectedListeners.delete(listener);
  }

  /** Rejections undone (reopened on the server): list them again. */
  reopened(ids: readonly string[]): void {
    for (const id of ids) {
      this._decided.delete(id);
    }
    void this.refresh();
  }

  /** Hide a conflict the person has seen. */
  dismissConflict(id: string): void {
    if (this._conflicts.delete(id)) {
      this.emit();
    }
  }

  protected async fetch(): Promise<void> {
    const list = await this._request<ISuggestionList>(
      'suggestions?status=pending'
    );
    const pending = (list.suggestions ?? []).filter(
      s => s.status === 'pending'
    );
    // A decision is final: once the server no longer lists a decided
    // suggestion, it never will again, so forgetting it is safe.
    const listed = new Set(pending.map(s => s.id));
    for (const id of [...this._decided]) {
      if (!listed.has(id)) {
        this._decided.delete(id);
      }
    }
    this._setGroups(pending);
  }

  /**
   * Show these pending suggestions, minus the ones decided here meanwhile (a
   * list fetched before the decision still has them; showing them again
   * would let a second Enter decide one twice), and move the selection on.
   */
  private _setGroups(pending: ISuggestion[]): void {
    const before = displayOrder(this._groups);
    this._groups = groupByPath(pending.filter(s => !this._decided.has(s.id)));
    this._selected = followSelection(
      before,
      displayOrder(this._groups),
      this._selected
    );
  }

  private async _decideSelected(
    decide: (id: string) => Promise<ISuggestion | null>
  ): Promise<ISuggestion | null> {
    const id = this._selected;
    return id === null || this.isBusy(id) ? null : decide(id);
  }

  private _noteConflicts(conflicts: ISuggestion[]): void {
    for (const suggestion of conflicts) {
      this._conflicts.set(suggestion.id, {
        suggestion,
        reason: conflictReason(suggestion)
      });
    }
  }

  /** Drop decided suggestions from the list now, without waiting for the refresh. */
  private _noteDecided(decided: ISuggestion[]): void {
    const ids = decided.filter(s => s.status !== 'pending').map(s => s.id);
    if (ids.length === 0) {
      return;
    }
    for (const id of ids) {
      this._decided.add(id);
    }
    this._setGroups(this._groups.flatMap(g => g.suggestions));
    this.emit();
  }

  private _tellRejected(decided: ISuggestion[]): void {
    const rejected = decided.filter(s => s.status === 'rejected');
    if (rejected.length > 0) {
      for (const listener of [...this._rejectedListeners]) {
        listener(rejected);
      }
    }
  }

  private _find(id: string): ISuggestion | undefined {
    for (const group of this._groups) {
      const found = group.suggestions.find(s => s.id === id);
      if (found) {
        return found;
      }
    }
    return undefined;
  }

  private _request: Request;
  private _groups: IDocumentGroup[] = [];
  private _conflicts = new Map<string, IConflict>();
  private _decided = new Set<string>();
  private _selected: string | null = null;
  private _rejectedListeners = new Set<(rejected: ISuggestion[]) => void>();
}
