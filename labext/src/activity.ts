/**
 * The "Activity" section of the MCP Lab panel: the tool calls of every agent
 * (tool, client, arguments, status, duration), newest first, filterable.
 *
 * `ActivityModel` is pure (the requester is injected, no DOM): the entries,
 * merged by `seq` from `GET activity` and the live `activity` events, bounded
 * to MAX_ENTRIES, and the filter. `ActivitySection` renders it.
 */
import { el, sectionFrame } from './dom';
import type { IServerEvent } from './events';
import type { IPanelContext, IPanelSection, Request } from './section';

/** One tool call, as `GET activity` and the `activity` event carry it. */
export interface IActivityEntry {
  /** Numbers the calls of one server run in the order they ended. */
  seq: number;
  /** Unix time (seconds) the call ended. */
  time: number;
  profile: string;
  /** The tool; a composite tool's call is `tool.action` (`document.read`). */
  tool: string;
  /** The MCP client's name. */
  client: string;
  user: string;
  session: string;
  /** One-line summary, `key='value', ...`. */
  arguments: string;
  /** `ok`, or the error code the call answered. */
  status: string;
  durationMs: number;
}

/** `GET activity`. */
export interface IActivityList {
  entries: IActivityEntry[];
  count: number;
  /** The seq of the newest call the server keeps (0 when none). */
  latest: number;
}

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

/** "0.4 ms", "12 ms", "1,250 ms": always milliseconds, as the server measures. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    return '';
  }
  if (ms < 10) {
    return `${ms.toFixed(1)} ms`;
  }
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** The clock time of a Unix time, "14:03:27" (the viewer's time zone). */
export function formatTime(time: number): string {
  const date = new Date(time * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Whether the entry passes the filter: text in tool, client or arguments. */
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
  return [toolLabel(entry), entry.client, entry.arguments].some(field =>
    field.toLowerCase().includes(needle)
  );
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

/** The message of a failed request. */
function errorText(error: unknown): string {
  return (error as Error)?.message || String(error);
}

/**
 * The activity model. `onChange` listeners run after every state change; the
 * section redraws from `visible`, `entries`, `loaded` and `error`.
 */
export class ActivityModel {
  constructor(request: Request, maxEntries = MAX_ENTRIES) {
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

  /** Whether the list was fetched at least once. */
  get loaded(): boolean {
    return this._loaded;
  }

  /** The failed fetch, or null. */
  get error(): string | null {
    return this._error;
  }

  /** Register a listener for state changes; returns a function removing it. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  setFilter(text: string): void {
    if (text !== this._text) {
      this._text = text;
      this._emit();
    }
  }

  setErrorsOnly(on: boolean): void {
    if (on !== this._errorsOnly) {
      this._errorsOnly = on;
      this._emit();
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
      }
      bySeq.set(entry.seq, entry);
      changed = true;
    }
    if (changed) {
      this._entries = [...bySeq.values()]
        .sort((a, b) => a.seq - b.seq)
        .slice(-this._max);
      this._emit();
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
    this._started = true;
    return this._fetch(false);
  }

  /**
   * The stream reconnected: fetch the calls after the newest one kept (all of
   * them when nothing is kept yet), once the section was shown.
   */
  reconnected(): Promise<void> {
    return this._started
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
    this._fetching = this._doFetch(after).finally(() => {
      this._fetching = null;
      const again = this._fetchAgain;
      this._fetchAgain = null;
      if (again !== null) {
        void this._fetch(again);
      }
    });
    return this._fetching;
  }

  private async _doFetch(after: boolean): Promise<void> {
    const held = new Set(this._entries);
    const newest = this.lastSeq;
    const since = after ? newest : 0;
    const query = since
      ? `after=${since}&limit=${this._max}`
      : `limit=${this._max}`;
    try {
      const list = await this._request<IActivityList>(`activity?${query}`);
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
      this._error = null;
    } catch (error) {
      this._error = errorText(error);
    }
    this._loaded = true;
    this._emit();
  }

  private _emit(): void {
    for (const listener of [...this._listeners]) {
      listener();
    }
  }

  private _request: Request;
  private _max: number;
  private _entries: IActivityEntry[] = [];
  private _text = '';
  private _errorsOnly = false;
  private _loaded = false;
  private _started = false;
  private _error: string | null = null;
  private _listeners = new Set<() => void>();
  private _fetching: Promise<void> | null = null;
  /** A fetch asked for while one was in flight: after the last seq (true) or all. */
  private _fetchAgain: boolean | null = null;
}

/** Redraws come at most this often while calls stream in. */
const RENDER_DELAY_MS = 100;

export class ActivitySection implements IPanelSection {
  readonly node: HTMLElement;
  readonly model: ActivityModel;

  constructor(context: IPanelContext) {
    const frame = sectionFrame('Activity', 'jp-McpLab-activity');
    this.node = frame.node;
    this._heading = frame.heading;
    this._body = frame.body;
    this.model = new ActivityModel(context.request);

    const controls = el('div', 'jp-McpLab-activityControls');
    this._filter = el('input', 'jp-mod-styled jp-McpLab-activityFilter');
    this._filter.type = 'search';
    this._filter.placeholder = 'Filter by tool, client, arguments';
    this._filter.setAttribute('aria-label', 'Filter the activity');
    this._filter.addEventListener('input', () =>
      this.model.setFilter(this._filter.value)
    );
    const toggle = el('label', 'jp-McpLab-activityErrorsOnly');
    this._errorsOnly = el('input');
    this._errorsOnly.type = 'checkbox';
    this._errorsOnly.addEventListener('change', () =>
      this.model.setErrorsOnly(this._errorsOnly.checked)
    );
    toggle.append(this._errorsOnly, document.createTextNode(' Errors only'));
    controls.append(this._filter, toggle);
    this._list = el('div', 'jp-McpLab-activityList');
    this._body.append(controls, this._list);

    this.model.onChange(() => this._scheduleRender());
    this._unsubscribe = context.events.subscribe(['activity'], event =>
      this.model.handleEvent(event)
    );
    this._unreconnect = context.events.onReconnect(
      () => void this.model.reconnected()
    );
    this.render();
  }

  async refresh(): Promise<void> {
    await this.model.refresh();
  }

  dispose(): void {
    this._unsubscribe();
    this._unreconnect();
    if (this._renderTimer !== null) {
      window.clearTimeout(this._renderTimer);
      this._renderTimer = null;
    }
    this._body.replaceChildren();
  }

  /** Redraw the list from the model (the filter controls stay as they are). */
  render(): void {
    const model = this.model;
    const visible = model.visible;
    const total = model.entries.length;
    const filtered = model.filterText.trim() !== '' || model.errorsOnly;
    this._heading.textContent = !model.loaded
      ? 'Activity'
      : filtered
        ? `Activity (${visible.length} of ${total})`
        : `Activity (${total})`;
    const children: Node[] = [];
    if (model.error) {
      children.push(el('p', 'jp-McpLab-error', model.error));
    }
    if (!model.loaded && total === 0) {
      children.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (total === 0) {
      children.push(
        el('p', 'jp-McpLab-empty', 'No agent has called a tool yet.')
      );
    } else if (visible.length === 0) {
      children.push(el('p', 'jp-McpLab-empty', 'No call matches the filter.'));
    }
    if (visible.length > 0) {
      const list = el('ol', 'jp-McpLab-activityEntries');
      list.append(...visible.map(renderEntry));
      children.push(list);
    }
    this._list.replaceChildren(...children);
  }

  /** A burst of calls (an agent at work, a replay) redraws once. */
  private _scheduleRender(): void {
    if (this._renderTimer !== null) {
      return;
    }
    this._renderTimer = window.setTimeout(() => {
      this._renderTimer = null;
      this.render();
    }, RENDER_DELAY_MS);
  }

  private _heading: HTMLHeadingElement;
  private _body: HTMLDivElement;
  private _list: HTMLDivElement;
  private _filter: HTMLInputElement;
  private _errorsOnly: HTMLInputElement;
  private _unsubscribe: () => void;
  private _unreconnect: () => void;
  private _renderTimer: number | null = null;
}

/** One call: tool and status; client, duration and time; the arguments. */
function renderEntry(entry: IActivityEntry): HTMLElement {
  const failed = isError(entry);
  const row = el('li', 'jp-McpLab-activityEntry');
  row.classList.toggle('jp-mod-error', failed);
  row.dataset.seq = String(entry.seq);
  row.dataset.status = entry.status;

  const head = el('div', 'jp-McpLab-activityHead');
  const tool = el('span', 'jp-McpLab-activityTool', toolLabel(entry));
  tool.title = `${entry.tool} (profile ${entry.profile})`;
  const status = el(
    'span',
    `jp-McpLab-activityStatus ${failed ? 'jp-mod-error' : 'jp-mod-ok'}`,
    entry.status
  );
  status.title = failed
    ? `The call failed: ${entry.status}`
    : 'The call succeeded';
  head.append(tool, status);

  const meta = el('div', 'jp-McpLab-activityMeta');
  const client = el(
    'span',
    'jp-McpLab-activityClient',
    entry.client || 'unknown client'
  );
  client.title = `MCP client ${entry.client || '(unnamed)'}, user ${entry.user}, session ${entry.session}`;
  const duration = el(
    'span',
    'jp-McpLab-activityDuration',
    formatDuration(entry.durationMs)
  );
  duration.title = 'How long the call took on the server';
  const time = el('time', 'jp-McpLab-activityTime', formatTime(entry.time));
  const when = new Date(entry.time * 1000);
  time.dateTime = when.toISOString();
  time.title = when.toLocaleString();
  meta.append(client, duration, time);

  row.append(head, meta);
  if (entry.arguments) {
    const args = el('div', 'jp-McpLab-activityArgs', entry.arguments);
    args.title = entry.arguments;
    row.append(args);
  }
  return row;
}
