/**
 * The "Checkpoints" section of the MCP Lab panel: every applied agent change
 * (applied directly, under a grant, or an accepted suggestion), newest first,
 * with its diff and a Revert button.
 *
 * `CheckpointsModel` is pure (the requester is injected, no DOM): the list,
 * the live refresh on `checkpoint` events, reverts with their busy state and
 * per-row errors. `CheckpointsSection` renders it.
 */
import { button, el, sectionFrame } from './dom';
import type { IServerEvent } from './events';
import { DiffBoxes } from './review';
import type { IPanelContext, IPanelSection, Request } from './section';

/** Where an applied change came from (openapi.yaml, Checkpoint.source). */
export type CheckpointSource =
  'auto' | 'accepted' | 'grant' | 'revert' | 'person';

/** One checkpoint, as `GET checkpoints` answers it. */
export interface ICheckpoint {
  id: string;
  path: string;
  beforeRevision: string;
  afterRevision: string;
  start: number;
  old: string;
  new: string;
  author: string;
  user: string;
  session: string;
  source: CheckpointSource;
  suggestionId: string | null;
  grantId: string | null;
  created: number;
  revertedBy: string | null;
  label: string;
  /** Lines the change touched; null once the server pruned its texts. */
  lineStart: number | null;
  lineEnd: number | null;
  /** The agent's rationale ("" when none was recorded). */
  rationale: string;
}

/** `GET checkpoints/{id}`. */
export interface ICheckpointDetail extends ICheckpoint {
  diff: string;
}

/** `GET checkpoints`. */
export interface ICheckpointList {
  checkpoints: ICheckpoint[];
  count: number;
}

/** Why a revert failed, shown on its row. */
export interface IRowError {
  /** The change was edited since (or reverted already): nothing changed. */
  conflict: boolean;
  /** The server's message. */
  message: string;
}

/** How many checkpoints to show at first, and how many more per "Show more". */
export const PAGE_SIZE = 50;

const SOURCE_LABELS: Record<string, string> = {
  auto: 'auto',
  grant: 'grant',
  accepted: 'accepted',
  revert: 'revert',
  person: 'person'
};

const SOURCE_TITLES: Record<string, string> = {
  auto: 'Applied directly: the server applies agents’ changes (approval auto)',
  grant: 'Applied directly under a trust grant',
  accepted: 'A suggestion a person accepted',
  revert: 'A person reverted an earlier change',
  person: 'A person’s change'
};

/** The short source tag of a row. */
export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source;
}

/** What the source tag means, for its tooltip. */
export function sourceTitle(source: string): string {
  return SOURCE_TITLES[source] ?? source;
}

/** "line 3", "lines 3–5", or "" when the lines are no longer known. */
export function checkpointLines(cp: ICheckpoint): string {
  const { lineStart, lineEnd } = cp;
  if (lineStart === null || lineStart === undefined) {
    return '';
  }
  return lineEnd !== null && lineEnd !== undefined && lineEnd > lineStart
    ? `lines ${lineStart}–${lineEnd}`
    : `line ${lineStart}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago" (times in Unix seconds). */
export function timeAgo(created: number, now: number): string {
  const seconds = Math.max(0, Math.floor(now - created));
  if (seconds < 45) {
    return 'just now';
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) {
    return `${minutes} min ago`;
  }
  const hours = Math.round(minutes / 60);
  if (hours < 24) {
    return `${hours} h ago`;
  }
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** The HTTP status of a failed request (ServerConnection.ResponseError has one). */
export function httpStatus(error: unknown): number | undefined {
  const status = (error as any)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The message of a failed request. */
export function errorText(error: unknown): string {
  return (error as Error)?.message || String(error);
}

/** Now, in the server's unit (Unix seconds). */
function nowSeconds(): number {
  return Date.now() / 1000;
}

/**
 * The checkpoints model. `onChange` listeners run after every state change;
 * the section redraws from `checkpoints`, `busy`, `rowError` and `error`.
 */
export class CheckpointsModel {
  constructor(request: Request, pageSize = PAGE_SIZE) {
    this._request = request;
    this._pageSize = pageSize;
    this._limit = pageSize;
  }

  /** The checkpoints shown, newest first. */
  get checkpoints(): ICheckpoint[] {
    return this._checkpoints;
  }

  /** Whether the server may have older ones than those shown. */
  get hasMore(): boolean {
    return this._checkpoints.length >= this._limit;
  }

  /** How many the list asks for. */
  get limit(): number {
    return this._limit;
  }

  /** Whether the list was fetched at least once. */
  get loaded(): boolean {
    return this._loaded;
  }

  /** The failed list fetch, or null. */
  get error(): string | null {
    return this._error;
  }

  /** The ids of checkpoints with a revert in flight. */
  get busy(): ReadonlySet<string> {
    return this._busy;
  }

  /** Why the last revert of this checkpoint failed, or null. */
  rowError(id: string): IRowError | null {
    return this._rowErrors.get(id) ?? null;
  }

  /** Register a listener for state changes; returns a function removing it. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /** Fetch the list again. Concurrent calls share one request, plus one after it. */
  refresh(): Promise<void> {
    this._started = true;
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

  /** Show the next page of older checkpoints. */
  showMore(): Promise<void> {
    this._limit = Math.min(1000, this._limit + this._pageSize);
    return this.refresh();
  }

  /**
   * A server event: a new checkpoint (an agent's change, an accept, a revert)
   * refreshes the list, once the section showed it (no fetching for a panel
   * never opened).
   */
  handleEvent(event: IServerEvent): void {
    if (event.type === 'checkpoint' && this._started) {
      void this.refresh();
    }
  }

  /** The stream reconnected: catch up on what was missed. */
  reconnected(): void {
    if (this._started) {
      void this.refresh();
    }
  }

  /** The unified diff of one checkpoint. */
  async diff(id: string): Promise<string> {
    const detail = await this._request<ICheckpointDetail>(
      `checkpoints/${encodeURIComponent(id)}`
    );
    return detail.diff;
  }

  /**
   * Undo one checkpoint's change where it is now. The server refuses (409,
   * CONFLICT) when later edits touched the same text, and changes nothing:
   * that is kept as the row's error. Returns the revert's own checkpoint.
   */
  async revert(id: string): Promise<ICheckpoint | null> {
    if (this._busy.has(id)) {
      return null;
    }
    this._busy.add(id);
    this._rowErrors.delete(id);
    this._emit();
    let undo: ICheckpoint | null = null;
    try {
      undo = await this._request<ICheckpoint>(
        `checkpoints/${encodeURIComponent(id)}/revert`,
        { method: 'POST' }
      );
      // Shown as reverted now; the refresh brings the revert's own row.
      this._checkpoints = this._checkpoints.map(cp =>
        cp.id === id ? { ...cp, revertedBy: undo!.id } : cp
      );
    } catch (error) {
      this._rowErrors.set(id, {
        conflict: httpStatus(error) === 409,
        message: errorText(error)
      });
    } finally {
      this._busy.delete(id);
    }
    this._emit();
    await this.refresh();
    return undo;
  }

  private async _doRefresh(): Promise<void> {
    try {
      const list = await this._request<ICheckpointList>(
        `checkpoints?limit=${this._limit}`
      );
      this._checkpoints = list.checkpoints ?? [];
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
  private _pageSize: number;
  private _limit: number;
  private _checkpoints: ICheckpoint[] = [];
  private _busy = new Set<string>();
  private _rowErrors = new Map<string, IRowError>();
  private _error: string | null = null;
  private _loaded = false;
  private _started = false;
  private _listeners = new Set<() => void>();
  private _refreshing: Promise<void> | null = null;
  private _refreshAgain = false;
}

/** How often the relative times ("5 min ago") are redrawn. */
const TICK_MS = 30_000;

/** Changed text longer than this is cut in the row (the diff has it all). */
const PREVIEW_CHARS = 240;

/** A server message as a sentence: capitalized (they start lower-case). */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

function preview(text: string): string {
  return text.length > PREVIEW_CHARS
    ? `${text.slice(0, PREVIEW_CHARS)}…`
    : text;
}

export class CheckpointsSection implements IPanelSection {
  readonly node: HTMLElement;
  readonly model: CheckpointsModel;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Checkpoints', 'jp-McpLab-checkpoints');
    this.node = frame.node;
    this._heading = frame.heading;
    this._body = frame.body;
    this.model = new CheckpointsModel(context.request);
    this.model.onChange(() => this.render());
    this._unsubscribe = context.events.subscribe(['checkpoint'], event =>
      this.model.handleEvent(event)
    );
    this._unreconnect = context.events.onReconnect(() =>
      this.model.reconnected()
    );
    this._timer = window.setInterval(() => this._updateTimes(), TICK_MS);
    this.render();
  }

  async refresh(): Promise<void> {
    await this.model.refresh();
  }

  dispose(): void {
    this._unsubscribe();
    this._unreconnect();
    window.clearInterval(this._timer);
    this._body.replaceChildren();
  }

  /** Redraw from the model; open diffs stay open. */
  render(): void {
    const model = this.model;
    this._heading.textContent = model.loaded
      ? `Checkpoints (${model.checkpoints.length}${model.hasMore ? '+' : ''})`
      : 'Checkpoints';
    const children: Node[] = [];
    if (model.error) {
      children.push(el('p', 'jp-McpLab-error', model.error));
    }
    if (!model.loaded) {
      children.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (model.checkpoints.length === 0) {
      children.push(
        el('p', 'jp-McpLab-empty', 'No agent change was applied yet.')
      );
    }
    const list = el('ol', 'jp-McpLab-checkpointList');
    const now = nowSeconds();
    for (const cp of model.checkpoints) {
      list.append(this._renderCheckpoint(cp, now));
    }
    if (model.checkpoints.length > 0) {
      children.push(list);
    }
    if (model.hasMore) {
      children.push(
        button(
          'Show more',
          'jp-mod-minimal jp-McpLab-showMore',
          'Show older checkpoints',
          () => void model.showMore()
        )
      );
    }
    this._body.replaceChildren(...children);
  }

  private _renderCheckpoint(cp: ICheckpoint, now: number): HTMLElement {
    const model = this.model;
    const row = el('li', 'jp-McpLab-checkpoint');
    row.dataset.id = cp.id;
    row.dataset.source = cp.source;
    const reverted = cp.revertedBy !== null;
    row.classList.toggle('jp-mod-reverted', reverted);

    const meta = el('div', 'jp-McpLab-meta');
    const source = el(
      'span',
      `jp-McpLab-source jp-McpLab-source-${cp.source}`,
      sourceLabel(cp.source)
    );
    source.title = cp.label
      ? `${sourceTitle(cp.source)} (${cp.label})`
      : sourceTitle(cp.source);
    const time = el('time', 'jp-McpLab-cpTime', timeAgo(cp.created, now));
    time.dataset.created = String(cp.created);
    time.dateTime = new Date(cp.created * 1000).toISOString();
    time.title = new Date(cp.created * 1000).toLocaleString();
    meta.append(
      el('span', 'jp-McpLab-path', cp.path),
      el('span', 'jp-McpLab-lines', checkpointLines(cp)),
      source,
      el('span', 'jp-McpLab-author', cp.author || 'unknown agent'),
      time
    );
    if (reverted) {
      meta.append(el('span', 'jp-McpLab-revertedTag', 'reverted'));
    }
    row.append(meta);
    if (cp.rationale) {
      row.append(el('p', 'jp-McpLab-rationale', cp.rationale));
    }

    const change = el('div', 'jp-McpLab-change');
    if (cp.old) {
      change.append(el('del', 'jp-McpLab-original', preview(cp.old)));
    }
    if (cp.new) {
      change.append(el('ins', 'jp-McpLab-new', preview(cp.new)));
    }
    row.append(change);

    const failure = model.rowError(cp.id);
    if (failure) {
      const message = el(
        'p',
        `jp-McpLab-cpError${failure.conflict ? ' jp-mod-conflict' : ''}`
      );
      message.setAttribute('role', 'alert');
      message.append(
        el(
          'strong',
          undefined,
          failure.conflict
            ? 'Conflict: nothing was changed. '
            : 'Revert failed: '
        ),
        sentence(failure.message)
      );
      row.append(message);
    }

    const diff = this._diffs.render(cp.id);
    const actions = el('div', 'jp-McpLab-actions');
    if (!reverted) {
      const busy = model.busy.has(cp.id);
      const revert = button(
        busy ? 'Reverting…' : 'Revert',
        'jp-mod-reject',
        'Undo this change where it is now (refused if later edits touched the same text)',
        () => void model.revert(cp.id)
      );
      revert.disabled = busy;
      actions.append(revert);
    }
    actions.append(diff.toggle);
    row.append(actions, diff.box);
    return row;
  }

  /** Redraw only the relative times (a full render could eat a click). */
  private _updateTimes(): void {
    const now = nowSeconds();
    for (const node of this._body.querySelectorAll<HTMLElement>(
      '.jp-McpLab-cpTime'
    )) {
      node.textContent = timeAgo(Number(node.dataset.created), now);
    }
  }

  protected _context: IPanelContext;
  private _heading: HTMLHeadingElement;
  private _body: HTMLDivElement;
  private _unsubscribe: () => void;
  private _unreconnect: () => void;
  private _timer: number;
  private _diffs = new DiffBoxes(
    id => this.model.diff(id),
    () => this.render()
  );
}
