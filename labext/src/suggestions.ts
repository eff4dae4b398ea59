/**
 * The review model: fetches what a person still has to act on (`GET
 * suggestions?status=open&locate=true&context=2`: pending suggestions, each
 * placed in its document as it is now, and conflicted ones), groups the
 * placeable pending ones by document, keeps the conflicts apart (a pending
 * one whose text changed, one an editor saw typed over, one an accept found
 * changed), runs the accept/reject/re-apply actions and keeps what the review
 * list renders (busy, errors) and its keyboard selection (see selection.ts).
 * The requester is injected; no JupyterLab or DOM imports.
 */
import type {
  IAcceptAllResult,
  IReapplyPreview,
  IReapplyResult,
  IRejectAllResult,
  ISuggestion,
  ISuggestionDetail,
  ISuggestionList
} from './api_types';
import { sentence } from './dom';
import { errorText, ListModel } from './model_base';
import { describePartChange, partLocation } from './part_change';
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
  IReapplyPreview,
  IReapplyResult,
  IRejectAllResult,
  ISuggestion,
  ISuggestionDetail,
  ISuggestionList
};

/** What the model fetches: the open suggestions, placed, with 2 lines of context. */
export const OPEN_ENDPOINT = 'suggestions?status=open&locate=true&context=2';

/** A document and its pending suggestions, in document order. */
export interface IDocumentGroup {
  path: string;
  suggestions: ISuggestion[];
}

/**
 * Why a suggestion is a conflict: `conflict` an accept found its text changed
 * (decided, listed until re-applied or dismissed); `changed` it is pending but
 * its text is no longer where it was (accepting would conflict); `typed` an
 * open editor saw the person type over it (not saved yet).
 */
export type ConflictKind = 'conflict' | 'changed' | 'typed';

/** A suggestion that cannot be applied as it is, kept visible so the person sees why. */
export interface IConflict {
  suggestion: ISuggestion;
  kind: ConflictKind;
  reason: string;
}

/** A re-application preview as the model keeps it: loaded, loading or failed. */
export type PreviewState =
  | { state: 'loading' }
  | { state: 'ready'; preview: IReapplyPreview }
  | { state: 'failed'; message: string };

/**
 * Where a suggestion is in its document, for ordering: a notebook cell's by
 * its cell (an inserted one just before the cell it pushes down), then by
 * offset in the cell; anything else by offset.
 */
function documentOrder(s: ISuggestion): [number, number] {
  if (!s.part) {
    return [0, s.start];
  }
  const cell = s.cell?.index ?? (s.change ? s.change.index - 0.5 : 0);
  return [cell, s.start];
}

/** Group suggestions by document: documents by path, suggestions in document order. */
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
      .sort((a, b) => {
        const [aCell, aStart] = documentOrder(a);
        const [bCell, bStart] = documentOrder(b);
        return aCell - bCell || aStart - bStart || a.created - b.created;
      })
  }));
}

/**
 * "line 3" or "lines 3–5"; a notebook cell's: "cell 3" or "new cell"; an
 * outline row's: "row 'Research'" (part_change.ts).
 */
export function lineRange(suggestion: ISuggestion): string {
  const part = partLocation(suggestion);
  if (part !== null) {
    return part;
  }
  const { lineStart, lineEnd } = suggestion;
  return lineEnd > lineStart
    ? `lines ${lineStart}–${lineEnd}`
    : `line ${lineStart}`;
}

/**
 * 'Rejected "brown" → "red" (notes.md, line 3)', a part's by what it did:
 * "Rejected: Row 'X' moved (plan.opml)", or "Rejected 4 suggestions".
 */
export function rejectedText(rejected: readonly ISuggestion[]): string {
  if (rejected.length !== 1) {
    return `Rejected ${rejected.length} suggestions`;
  }
  const s = rejected[0];
  const part = describePartChange(s);
  if (part) {
    return `Rejected: ${part.title} (${s.path})`;
  }
  const cut = (text: string) =>
    text.length > 30 ? `${text.slice(0, 29)}…` : text;
  const change = s.original
    ? s.new
      ? `"${cut(s.original)}" → "${cut(s.new)}"`
      : `deleting "${cut(s.original)}"`
    : `inserting "${cut(s.new)}"`;
  return `Rejected ${change} (${s.path}, line ${s.lineStart})`;
}

/** The text shown for a conflict. */
export function conflictReason(
  suggestion: ISuggestion,
  kind: ConflictKind = 'conflict'
): string {
  if (kind === 'typed') {
    return 'You typed over the text this would change (not saved yet).';
  }
  if (kind === 'changed') {
    return 'The text this would change was edited since it was suggested.';
  }
  const reason =
    suggestion.reason ||
    'The original text changed since this was suggested; nothing was applied.';
  return sentence(reason);
}

/** Whether a listed suggestion can be applied where it is: pending and placed. */
export function isPlaceable(s: ISuggestion): boolean {
  return s.status === 'pending' && s.currentStart !== null;
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

  /** The number of pending suggestions that apply where they are, on all documents. */
  get pendingCount(): number {
    return this._groups.reduce((n, g) => n + g.suggestions.length, 0);
  }

  /**
   * The suggestions that cannot be applied as they are, newest first: pending
   * ones whose text changed (on the server, or typed over in an editor) and
   * the ones an accept found changed.
   */
  get conflicts(): IConflict[] {
    return [...this._conflicts.values()].sort(
      (a, b) =>
        (b.suggestion.decided ?? b.suggestion.created) -
        (a.suggestion.decided ?? a.suggestion.created)
    );
  }

  /** Every document's suggestions by status, as the last fetch counted them. */
  get counts(): Readonly<Record<string, Readonly<Record<string, number>>>> {
    return this._counts;
  }

  /** A listed suggestion (pending or conflicted), by id. */
  find(id: string): ISuggestion | undefined {
    return this._find(id) ?? this._conflicts.get(id)?.suggestion;
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

  /**
   * Accept a document's pending suggestions that apply where they are (the
   * conflicted ones stay for re-applying); conflicts found now are kept.
   */
  acceptAll(path: string): Promise<IAcceptAllResult | null> {
    const ids = (
      this._groups.find(g => g.path === path)?.suggestions ?? []
    ).map(s => s.id);
    return this.act(`path:${path}`, async () => {
      const result = await this._request<IAcceptAllResult>(
        'suggestions/accept-all',
        {
          method: 'POST',
          body: JSON.stringify(ids.length ? { path, ids } : { path })
        }
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

  /**
   * Dismiss a conflict: reject it on the server (a pending one, or one an
   * accept found changed), so it stays gone after a reload.
   */
  dismissConflict(id: string): Promise<ISuggestion | null> {
    return this.reject(id);
  }

  /**
   * Where re-applying a conflict would put its change now (`GET
   * suggestions/{id}/reapply`): fetched on first ask, kept until the list is
   * fetched again (the text may have changed).
   */
  preview(id: string): PreviewState {
    const known = this._previews.get(id);
    if (known) {
      return known;
    }
    const loading: PreviewState = { state: 'loading' };
    this._previews.set(id, loading);
    this._request<IReapplyPreview>(
      `suggestions/${encodeURIComponent(id)}/reapply`
    )
      .then(
        preview => ({ state: 'ready', preview }) as PreviewState,
        error =>
          ({ state: 'failed', message: errorText(error) }) as PreviewState
      )
      .then(state => {
        if (this._previews.get(id) === loading) {
          this._previews.set(id, state);
          this.emit();
        }
      });
    return loading;
  }

  /**
   * Stage a conflict's change again on the current text (`POST
   * suggestions/{id}/reapply`, against the revision its preview showed): the
   * new pending suggestion is listed and selected, the conflict goes.
   */
  reapply(id: string): Promise<IReapplyResult | null> {
    const shown = this._previews.get(id);
    const body =
      shown?.state === 'ready'
        ? { expectedRevision: shown.preview.revision }
        : {};
    return this.act(
      id,
      async () => {
        const result = await this._request<IReapplyResult>(
          `suggestions/${encodeURIComponent(id)}/reapply`,
          { method: 'POST', body: JSON.stringify(body) }
        );
        this._reapplied = result.suggestion.id;
        this._noteDecided([result.previous]);
        return result;
      },
      error => {
        this.actionError = errorText(error);
        this._previews.delete(id); // e.g. STALE: show where it would go now
      }
    );
  }

  /**
   * An open editor saw the person type over these suggestions' text: show
   * them as conflicts now, before the file is saved.
   */
  markTypedOver(ids: readonly string[]): void {
    let changed = false;
    for (const id of ids) {
      const s = this._find(id);
      if (s && !this._typedOver.has(id)) {
        this._typedOver.add(id);
        changed = true;
      }
    }
    if (changed) {
      this._setGroups(this._open);
      this.emit();
    }
  }

  /** An editor placed these suggestions again (the typing was undone): pending again. */
  placedAgain(ids: readonly string[]): void {
    let changed = false;
    for (const id of ids) {
      changed = this._typedOver.delete(id) || changed;
    }
    if (changed) {
      this._setGroups(this._open);
      this.emit();
    }
  }

  protected async fetch(): Promise<void> {
    const started = ++this._fetches;
    const list = await this._request<ISuggestionList>(OPEN_ENDPOINT);
    const open = (list.suggestions ?? []).filter(
      s => s.status === 'pending' || s.status === 'conflict'
    );
    // A decision is final: once the server no longer lists a decided
    // suggestion, it never will again, so forgetting it is safe.
    const listed = new Set(open.map(s => s.id));
    for (const id of [...this._decided]) {
      if (!listed.has(id)) {
        this._decided.delete(id);
      }
    }
    for (const id of [...this._typedOver]) {
      if (!listed.has(id)) {
        this._typedOver.delete(id);
      }
    }
    this._counts = list.counts ?? {};
    this._previews.clear();
    this._setGroups(open, started);
  }

  /**
   * Show these pending suggestions, minus the ones decided here meanwhile (a
   * list fetched before the decision still has them; showing them again
   * would let a second Enter decide one twice), and move the selection on.
   * `fetched`: the number of the fetch that listed `open`, when one did.
   */
  private _setGroups(open: ISuggestion[], fetched?: number): void {
    this._open = open;
    const before = displayOrder(this._groups);
    const shown = open.filter(s => !this._decided.has(s.id));
    const conflicts = new Map<string, IConflict>();
    const placeable: ISuggestion[] = [];
    for (const s of shown) {
      const kind: ConflictKind | null =
        s.status === 'conflict'
          ? 'conflict'
          : s.currentStart === null
            ? 'changed'
            : this._typedOver.has(s.id)
              ? 'typed'
              : null;
      if (kind === null) {
        placeable.push(s);
      } else {
        conflicts.set(s.id, {
          suggestion: s,
          kind,
          reason: conflictReason(s, kind)
        });
      }
    }
    // Conflicts an accept found just now, while the lists fetched are ones
    // that started before it (they cannot have them yet). A list fetched
    // since that leaves one out means it was dismissed elsewhere.
    for (const [id, conflict] of this._conflicts) {
      const fresh =
        fetched === undefined || (this._notedAt.get(id) ?? 0) >= fetched;
      if (
        conflict.kind === 'conflict' &&
        fresh &&
        !conflicts.has(id) &&
        !this._decided.has(id) &&
        !open.some(s => s.id === id)
      ) {
        conflicts.set(id, conflict);
      }
    }
    for (const id of [...this._notedAt.keys()]) {
      if (!conflicts.has(id)) {
        this._notedAt.delete(id);
      }
    }
    this._conflicts = conflicts;
    this._groups = groupByPath(placeable);
    const after = displayOrder(this._groups);
    this._selected =
      this._reapplied !== null && after.includes(this._reapplied)
        ? this._reapplied
        : followSelection(before, after, this._selected);
    if (this._reapplied !== null && after.includes(this._reapplied)) {
      this._reapplied = null;
    }
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
        kind: 'conflict',
        reason: conflictReason(suggestion)
      });
      this._notedAt.set(suggestion.id, this._fetches);
    }
    if (conflicts.length > 0) {
      // No longer pending: out of the list at once, a conflict instead.
      this._open = this._open.filter(s => !conflicts.some(c => c.id === s.id));
    }
  }

  /** Drop decided suggestions from the list now, without waiting for the refresh. */
  private _noteDecided(decided: ISuggestion[]): void {
    // A conflict is still to be acted on; anything else decided is done.
    const ids = decided
      .filter(s => s.status !== 'pending' && s.status !== 'conflict')
      .map(s => s.id);
    for (const s of decided) {
      if (s.status === 'conflict' && !this._conflicts.has(s.id)) {
        this._noteConflicts([s]);
      }
    }
    for (const id of ids) {
      this._decided.add(id);
      this._conflicts.delete(id);
    }
    this._setGroups(this._open);
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
  /** The open suggestions as last fetched (pending and conflicted). */
  private _open: ISuggestion[] = [];
  private _groups: IDocumentGroup[] = [];
  private _conflicts = new Map<string, IConflict>();
  /** Fetches started so far, and how many had when each conflict was noted. */
  private _fetches = 0;
  private _notedAt = new Map<string, number>();
  private _counts: Record<string, Record<string, number>> = {};
  private _decided = new Set<string>();
  private _typedOver = new Set<string>();
  private _previews = new Map<string, PreviewState>();
  /** A re-applied suggestion's new id, selected once it is listed. */
  private _reapplied: string | null = null;
  private _selected: string | null = null;
  private _rejectedListeners = new Set<(rejected: ISuggestion[]) => void>();
}
