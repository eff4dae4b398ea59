/**
 * The pending-suggestions model: fetches `GET {baseUrl}mcp-lab/api/suggestions`,
 * groups the pending ones by document, runs the accept/reject actions and keeps
 * the per-suggestion state (busy, conflict, error) the panel renders. No
 * JupyterLab or DOM imports here: the requester is injected, so the model is
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

/** The message of a failed request. */
function errorText(error: unknown): string {
  return (error as Error)?.message || String(error);
}

/**
 * The review model. `changed` listeners run after every state change; the
 * panel redraws from `groups`, `conflicts`, `busy` and `error`.
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
      return result;
    });
  }

  /** Reject one suggestion. */
  async reject(id: string): Promise<ISuggestion | null> {
    return this._act(id, () =>
      this._request<ISuggestion>(
        `suggestions/${encodeURIComponent(id)}/reject`,
        { method: 'POST' }
      )
    );
  }

  /** Accept a document's pending suggestions; conflicts are kept. */
  async acceptAll(path: string): Promise<IAcceptAllResult | null> {
    return this._act(`path:${path}`, async () => {
      const result = await this._request<IAcceptAllResult>(
        'suggestions/accept-all',
        { method: 'POST', body: JSON.stringify({ path }) }
      );
      this._noteConflicts(result.conflicts ?? []);
      return result;
    });
  }

  /** Reject a document's pending suggestions. */
  async rejectAll(path: string): Promise<IRejectAllResult | null> {
    return this._act(`path:${path}`, () =>
      this._request<IRejectAllResult>('suggestions/reject-all', {
        method: 'POST',
        body: JSON.stringify({ path })
      })
    );
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
      this._groups = groupByPath(
        (list.suggestions ?? []).filter(s => s.status === 'pending')
      );
      this._listError = null;
    } catch (error) {
      this._listError = errorText(error);
    }
    this._loaded = true;
    this._emit();
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

  private _emit(): void {
    for (const listener of [...this._listeners]) {
      listener();
    }
  }

  private _request: Requester;
  private _groups: IDocumentGroup[] = [];
  private _conflicts = new Map<string, IConflict>();
  private _busy = new Set<string>();
  private _listError: string | null = null;
  private _actionError: string | null = null;
  private _loaded = false;
  private _listeners = new Set<() => void>();
  private _refreshing: Promise<void> | null = null;
  private _refreshAgain = false;
}
