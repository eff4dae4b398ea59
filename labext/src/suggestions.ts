/**
 * The pending-suggestions model: fetches `GET {baseUrl}mcp-lab/api/suggestions`,
 * groups the pending ones by document, runs the accept/reject actions and keeps
 * the per-suggestion state (busy, conflict, error) the panel renders, and the
 * keyboard's selection across documents (which key does what, where the
 * selection goes after a decision). No JupyterLab or DOM imports here: the requester is injected, so the model is
 * unit-testable in plain Node with a fake.
 */

/** One suggestion, as the REST API answers it (see openapi.yaml). */
export interface ISuggestion {
  id: string;
  path: string;
  kind: string;
  start: number;
  end: number;
  original: string;
  new: string;
  author: string;
  user: string;
  rationale: string;
  operation: string;
  group: string | null;
  created: number;
  status: 'pending' | 'accepted' | 'rejected' | 'conflict';
  reason: string | null;
  lineStart: number;
  lineEnd: number;
}

/** `GET suggestions/{id}`: a suggestion with its unified diff. */
export interface ISuggestionDetail extends ISuggestion {
  diff: string | null;
}

/** `GET suggestions`. */
export interface ISuggestionList {
  suggestions: ISuggestion[];
  count: number;
  counts: Record<string, Record<string, number>>;
}

/** `POST suggestions/accept-all`. */
export interface IAcceptAllResult {
  accepted: ISuggestion[];
  conflicts: ISuggestion[];
  revision: string | null;
}

/** `POST suggestions/reject-all`. */
export interface IRejectAllResult {
  rejected: ISuggestion[];
}

/** Calls the REST API below `mcp-lab/api/` and returns the decoded JSON. */
export type Requester = <T>(endPoint: string, init?: RequestInit) => Promise<T>;

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

/** The ids of the suggestions in the order the panel lists them. */
export function displayOrder(groups: IDocumentGroup[]): string[] {
  return groups.flatMap(g => g.suggestions.map(s => s.id));
}

/**
 * Where the selection goes when the list changes: it stays on its suggestion
 * while that is listed; once it is gone (decided) it moves to the next one
 * that followed it, else to the nearest one before it, else nowhere.
 */
export function followSelection(
  before: string[],
  after: string[],
  selected: string | null
): string | null {
  if (selected === null) {
    return null;
  }
  const listed = new Set(after);
  if (listed.has(selected)) {
    return selected;
  }
  const at = before.indexOf(selected);
  if (at < 0) {
    // Not seen before either: fall back to the first one.
    return after[0] ?? null;
  }
  for (let i = at + 1; i < before.length; i++) {
    if (listed.has(before[i])) {
      return before[i];
    }
  }
  for (let i = at - 1; i >= 0; i--) {
    if (listed.has(before[i])) {
      return before[i];
    }
  }
  return after[0] ?? null;
}

/** What a key does in the review list. */
export type ReviewKeyAction =
  'next' | 'previous' | 'first' | 'last' | 'accept' | 'reject';

/** The parts of a keydown event the review list decides on. */
export interface IReviewKey {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  /** The tag of the element the key was typed in, e.g. 'INPUT'. */
  targetTag?: string;
  /** Whether that element is contenteditable. */
  editable?: boolean;
}

/** Elements whose own keys (typing, Enter on a button) the list must not take. */
const OWN_KEYS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A']);

const KEY_ACTIONS: Record<string, ReviewKeyAction> = {
  ArrowDown: 'next',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
  Enter: 'accept',
  Escape: 'reject'
};

/**
 * The review action of a key, or null when the list should leave the key
 * alone: modified keys (shortcuts), and keys typed in a form field or on a
 * button (Enter there belongs to that element).
 */
export function reviewKeyAction(input: IReviewKey): ReviewKeyAction | null {
  if (input.altKey || input.ctrlKey || input.metaKey || input.shiftKey) {
    return null;
  }
  if (input.editable || OWN_KEYS.has((input.targetTag ?? '').toUpperCase())) {
    return null;
  }
  return KEY_ACTIONS[input.key] ?? null;
}

/** The message of a failed request. */
function errorText(error: unknown): string {
  return (error as Error)?.message || String(error);
}

/**
 * The review model. `changed` listeners run after every state change; the
 * panel redraws from `groups`, `conflicts`, `busy`, `error` and `selected`.
 */
export class SuggestionsModel {
  constructor(request: Requester) {
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

  /** The ids of suggestions (or `path:` keys of documents) with a request in flight. */
  get busy(): ReadonlySet<string> {
    return this._busy;
  }

  /** The last failed action, else the failed list fetch, else null. */
  get error(): string | null {
    return this._actionError ?? this._listError;
  }

  /** Whether the list was fetched at least once. */
  get loaded(): boolean {
    return this._loaded;
  }

  /** The suggestion the keyboard acts on (across documents), or null. */
  get selected(): string | null {
    return this._selected;
  }

  /** Whether a request for this suggestion (or its whole document) is in flight. */
  isBusy(id: string): boolean {
    if (this._busy.has(id)) {
      return true;
    }
    const path = this._find(id)?.path;
    return path !== undefined && this._busy.has(`path:${path}`);
  }

  /** Select a listed suggestion (null clears the selection). */
  select(id: string | null): void {
    const next = id !== null && this._find(id) ? id : null;
    if (next !== this._selected) {
      this._selected = next;
      this._emit();
    }
  }

  /** Select the first suggestion when none is (the list got the focus). */
  selectFirstIfNone(): void {
    if (this._selected === null) {
      this.select(displayOrder(this._groups)[0] ?? null);
    }
  }

  /**
   * Move the selection: `next`/`previous` step through every document's
   * suggestions in display order (stopping at the ends); from no selection,
   * `next` takes the first and `previous` the last.
   */
  moveSelection(action: 'next' | 'previous' | 'first' | 'last'): void {
    const order = displayOrder(this._groups);
    if (order.length === 0) {
      return;
    }
    const at = this._selected === null ? -1 : order.indexOf(this._selected);
    let index: number;
    if (action === 'first') {
      index = 0;
    } else if (action === 'last') {
      index = order.length - 1;
    } else if (at < 0) {
      index = action === 'next' ? 0 : order.length - 1;
    } else {
      index = Math.max(
        0,
        Math.min(order.length - 1, at + (action === 'next' ? 1 : -1))
      );
    }
    this.select(order[index]);
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
  async acceptSelected(): Promise<ISuggestion | null> {
    const id = this._selected;
    if (id === null || this.isBusy(id)) {
      return null;
    }
    return this.accept(id);
  }

  /** Reject the selected suggestion unless a request for it is in flight. */
  async rejectSelected(): Promise<ISuggestion | null> {
    const id = this._selected;
    if (id === null || this.isBusy(id)) {
      return null;
    }
    return this.reject(id);
  }

  /** Register a listener for state changes; returns a function removing it. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /** Fetch the pending suggestions again. Concurrent calls share one request. */
  refresh(): Promise<void> {
    if (this._refreshing) {
      this._refreshAgain = true;
      return this._refreshing;
    }
    this._refreshing = this._doRefresh().finally(() => {
      this._refreshing = null;
      if (this._refreshAgain) {
        this._refreshAgain = false;
        void this.refresh();
      }
    });
    return this._refreshing;
  }

  /** Fetch a suggestion's unified diff (null when its base text is gone). */
  async diff(id: string): Promise<string | null> {
    const detail = await this._request<ISuggestionDetail>(
      `suggestions/${encodeURIComponent(id)}`
    );
    return detail.diff;
  }

  /** Accept one suggestion; a `conflict` answer is kept in `conflicts`. */
  async accept(id: string): Promise<ISuggestion | null> {
    return this._act(id, async () => {
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
  async reject(id: string): Promise<ISuggestion | null> {
    return this._act(id, async () => {
      const result = await this._request<ISuggestion>(
        `suggestions/${encodeURIComponent(id)}/reject`,
        { method: 'POST' }
      );
      this._noteDecided([result]);
      return result;
    });
  }

  /** Accept a document's pending suggestions; conflicts are kept. */
  async acceptAll(path: string): Promise<IAcceptAllResult | null> {
    return this._act(`path:${path}`, async () => {
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
  async rejectAll(path: string): Promise<IRejectAllResult | null> {
    return this._act(`path:${path}`, async () => {
      const result = await this._request<IRejectAllResult>(
        'suggestions/reject-all',
        { method: 'POST', body: JSON.stringify({ path }) }
      );
      this._noteDecided(result.rejected ?? []);
      return result;
    });
  }

  /** Hide a conflict the person has seen. */
  dismissConflict(id: string): void {
    if (this._conflicts.delete(id)) {
      this._emit();
    }
  }

  private async _doRefresh(): Promise<void> {
    try {
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
      this._listError = null;
    } catch (error) {
      this._listError = errorText(error);
    }
    this._loaded = true;
    this._emit();
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

  /** Run an action with `key` marked busy, then refresh the list. */
  private async _act<T>(
    key: string,
    action: () => Promise<T>
  ): Promise<T | null> {
    if (this._busy.has(key)) {
      return null;
    }
    this._busy.add(key);
    this._emit();
    let result: T | null = null;
    try {
      result = await action();
      this._actionError = null;
    } catch (error) {
      this._actionError = errorText(error);
    } finally {
      this._busy.delete(key);
    }
    await this.refresh();
    return result;
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
    this._emit();
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

  private _emit(): void {
    for (const listener of [...this._listeners]) {
      listener();
    }
  }

  private _request: Requester;
  private _groups: IDocumentGroup[] = [];
  private _conflicts = new Map<string, IConflict>();
  private _busy = new Set<string>();
  private _decided = new Set<string>();
  private _selected: string | null = null;
  private _listError: string | null = null;
  private _actionError: string | null = null;
  private _loaded = false;
  private _listeners = new Set<() => void>();
  private _refreshing: Promise<void> | null = null;
  private _refreshAgain = false;
}
