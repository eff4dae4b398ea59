/**
 * Activity, the pure part: the tool calls of every agent, merged by `seq`
 * from `GET activity` and the live `activity` events, bounded to
 * MAX_ENTRIES, and the filter over them. The requester is injected; no DOM.
 */
import type {
  IActivityEntry as IApiActivityEntry,
  IActivityList as IApiActivityList
} from './api_types';
import type { IServerEvent } from './events';
import { FetchedModel } from './model_base';
import type { Request } from './request';

// One tool call (`GET activity`, the `activity` event; a composite tool's call
// is `tool.action`, e.g. `document.read`) or one decision of the person, and
// the list. `actor`, `fullArguments` and `result` are optional here: servers
// from before they were kept send none.
export type IActivityEntry = Omit<
  IApiActivityEntry,
  'actor' | 'fullArguments' | 'result'
> & {
  actor?: 'agent' | 'person';
  fullArguments?: string;
  result?: string;
};
export type IActivityList = Omit<IApiActivityList, 'entries'> & {
  entries: IActivityEntry[];
};

/** The most entries the section keeps (the server keeps more). */
export const MAX_ENTRIES = 200;

/** Whether the call failed (anything but `ok`). */
export function isError(entry: IActivityEntry): boolean {
  return entry.status !== 'ok';
}

/** The `action` argument in a summary (`action='read', ...`), or null. */
export function actionOf(summary: string): string | null {
  const match = /(?:^|, )action=(['"])(.*?)\1/.exec(summary);
  return match ? match[2] : null;
}

/**
 * The tool as a row names it: a composite call is recorded as `tool.action`
 * already; a flat tool that takes an `action` gets it appended.
 */
export function toolLabel(entry: IActivityEntry): string {
  const action = actionOf(entry.arguments);
  if (!action || entry.tool.endsWith(`.${action}`)) {
    return entry.tool;
  }
  return `${entry.tool} ${action}`;
}

/** Whether a person did it in JupyterLab (accept, reject, revert, grant, ...), not an agent's tool call. */
export function isPerson(entry: IActivityEntry): boolean {
  return entry.actor === 'person';
}

/**
 * The full arguments for reading: JSON laid out over lines (the server keeps
 * them whole up to a few KB, cut past that, then not JSON: shown as kept).
 */
export function prettyArguments(entry: IActivityEntry): string {
  const kept = entry.fullArguments || entry.arguments;
  try {
    return JSON.stringify(JSON.parse(kept), null, 2);
  } catch {
    return kept;
  }
}

/**
 * Whether the entry passes the filter: text in tool, client, the full
 * arguments or the result (so a filter finds an argument deep in a long call).
 */
export function matchesFilter(
  entry: IActivityEntry,
  text: string,
  errorsOnly: boolean
): boolean {
  if (errorsOnly && !isError(entry)) {
    return false;
  }
  const needle = text.trim().toLowerCase();
  if (!needle) {
    return true;
  }
  return [
    toolLabel(entry),
    entry.client,
    entry.arguments,
    entry.fullArguments ?? '',
    entry.result ?? ''
  ].some(field => field.toLowerCase().includes(needle));
}

/** Whether a value from the stream has an entry's shape (seq and strings). */
function isEntry(value: any): value is IActivityEntry {
  return (
    !!value &&
    Number.isInteger(value.seq) &&
    typeof value.tool === 'string' &&
    typeof value.status === 'string'
  );
}

/**
 * The activity model; the section redraws from `visible`, `entries`,
 * `loaded` and `error` on every change.
 */
export class ActivityModel extends FetchedModel {
  constructor(request: Request, maxEntries = MAX_ENTRIES) {
    super();
    this._request = request;
    this._max = maxEntries;
  }

  /** Every entry kept, oldest first (seq order). */
  get entries(): readonly IActivityEntry[] {
    return this._entries;
  }

  /** The entries that pass the filter, newest first. */
  get visible(): IActivityEntry[] {
    return this._entries
      .filter(e => matchesFilter(e, this._text, this._errorsOnly))
      .reverse();
  }

  /** The seq of the newest entry kept (0 when none). */
  get lastSeq(): number {
    const n = this._entries.length;
    return n ? this._entries[n - 1].seq : 0;
  }

  get filterText(): string {
    return this._text;
  }

  get errorsOnly(): boolean {
    return this._errorsOnly;
  }

  setFilter(text: string): void {
    if (text !== this._text) {
      this._text = text;
      this.emit();
    }
  }

  /** Whether the entry `seq` shows its full arguments and result. */
  isExpanded(seq: number): boolean {
    return this._expanded.has(seq);
  }

  /** Open or close an entry's details. */
  toggleExpanded(seq: number): void {
    if (!this._expanded.delete(seq)) {
      this._expanded.add(seq);
    }
    this.emit();
  }

  setErrorsOnly(on: boolean): void {
    if (on !== this._errorsOnly) {
      this._errorsOnly = on;
      this.emit();
    }
  }

  /**
   * Add entries (fetched or live) by seq: known ones are kept once, the list
   * stays in seq order and keeps the newest `maxEntries`. An entry whose seq
   * is known with another time comes from a restarted server (seqs count from
   * 1 again): what was kept belongs to the earlier run and is dropped.
   * Returns whether anything changed.
   */
  merge(incoming: readonly IActivityEntry[]): boolean {
    const bySeq = new Map(this._entries.map(e => [e.seq, e]));
    let changed = false;
    for (const entry of incoming) {
      const known = bySeq.get(entry.seq);
      if (known && known.time === entry.time) {
        continue;
      }
      if (known) {
        bySeq.clear();
        this._expanded.clear();
      }
      bySeq.set(entry.seq, entry);
      changed = true;
    }
    if (changed) {
      this._entries = [...bySeq.values()]
        .sort((a, b) => a.seq - b.seq)
        .slice(-this._max);
      const kept = new Set(this._entries.map(e => e.seq));
      for (const seq of [...this._expanded]) {
        if (!kept.has(seq)) {
          this._expanded.delete(seq);
        }
      }
      this.emit();
    }
    return changed;
  }

  /** A server event: an `activity` event carries one entry. */
  handleEvent(event: IServerEvent): void {
    if (event.type === 'activity' && isEntry(event.data?.entry)) {
      this.merge([event.data.entry]);
    }
  }

  /** Fetch the newest entries. Concurrent calls share one request, plus one after it. */
  refresh(): Promise<void> {
    this.started = true;
    return this._fetch(false);
  }

  /**
   * The stream reconnected: fetch the calls after the newest one kept (all of
   * them when nothing is kept yet), once the section was shown.
   */
  reconnected(): Promise<void> {
    return this.started
      ? this._fetch(this._entries.length > 0)
      : Promise.resolve();
  }

  private _fetch(after: boolean): Promise<void> {
    if (this._fetching) {
      // One more fetch once this one is done; a full one if any caller asked for it.
      this._fetchAgain =
        this._fetchAgain === null ? after : this._fetchAgain && after;
      return this._fetching;
    }
    this._fetching = this.load(() => this._fetchEntries(after)).finally(() => {
      this._fetching = null;
      const again = this._fetchAgain;
      this._fetchAgain = null;
      if (again !== null) {
        void this._fetch(again);
      }
    });
    return this._fetching;
  }

  private async _fetchEntries(after: boolean): Promise<void> {
    const held = new Set(this._entries);
    const newest = this.lastSeq;
    const since = after ? newest : 0;
    const query = since
      ? `after=${since}&limit=${this._max}`
      : `limit=${this._max}`;
    const list = await this._request<IApiActivityList>(`activity?${query}`);
    if (list.latest < newest) {
      // The server restarted (its seqs are behind ours): what we held is of its
      // last run. Live entries that arrived during the request are of this one.
      this._entries = this._entries.filter(e => !held.has(e));
      if (since > 0) {
        // "after" our old seq skipped every call of the new run: fetch them all.
        this._fetchAgain = false;
      }
    }
    this.merge(list.entries ?? []);
  }

  private _request: Request;
  private _max: number;
  private _entries: IActivityEntry[] = [];
  private _text = '';
  private _errorsOnly = false;
  private _expanded = new Set<number>();
  private _fetching: Promise<void> | null = null;
  /** A fetch asked for while one was in flight: after the last seq (true) or all. */
  private _fetchAgain: boolean | null = null;
}
