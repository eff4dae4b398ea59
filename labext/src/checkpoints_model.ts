/**
 * Checkpoints, the pure part: every applied agent change (applied directly,
 * under a grant, or an accepted suggestion), newest first, and reverting one.
 *
 * `CheckpointsModel` holds the list, refreshes on `checkpoint` events, and
 * keeps each revert's busy state and error on its row. The requester is
 * injected; no DOM.
 */
import type {
  ICheckpoint,
  ICheckpointDetail,
  ICheckpointList
} from './api_types';
import type { IServerEvent } from './events';
import { errorText, ListModel } from './model_base';
import type { Request } from './request';

// One checkpoint (`GET checkpoints`), with its diff (`GET checkpoints/{id}`),
// and the list.
export type { ICheckpoint, ICheckpointDetail, ICheckpointList };

/** Where an applied change came from. */
export type CheckpointSource = ICheckpoint['source'];

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
  auto: 'Applied directly: the server applies agents’ changes (approval auto), or the first content of a new document the agent created',
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

/** The HTTP status of a failed request (ServerConnection.ResponseError has one). */
export function httpStatus(error: unknown): number | undefined {
  const status = (error as any)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The checkpoints model; the section redraws from `checkpoints`, `hasMore`,
 * `busy`, `rowError` and `error` on every change.
 */
export class CheckpointsModel extends ListModel {
  constructor(request: Request, pageSize = PAGE_SIZE) {
    super();
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

  /** Why the last revert of this checkpoint failed, or null. */
  rowError(id: string): IRowError | null {
    return this._rowErrors.get(id) ?? null;
  }

  /** Show the next page of older checkpoints. */
  showMore(): Promise<void> {
    this._limit = Math.min(1000, this._limit + this._pageSize);
    return this.refresh();
  }

  /** A server event: a new checkpoint (an agent's change, an accept, a revert). */
  handleEvent(event: IServerEvent): void {
    if (event.type === 'checkpoint') {
      this.refreshIfStarted();
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
  revert(id: string): Promise<ICheckpoint | null> {
    if (!this.busy.has(id)) {
      this._rowErrors.delete(id); // tried again: the last failure is moot
    }
    return this.act(
      id,
      async () => {
        const undo = await this._request<ICheckpoint>(
          `checkpoints/${encodeURIComponent(id)}/revert`,
          { method: 'POST' }
        );
        // Shown as reverted now; the refresh brings the revert's own row.
        this._checkpoints = this._checkpoints.map(cp =>
          cp.id === id ? { ...cp, revertedBy: undo.id } : cp
        );
        return undo;
      },
      error => {
        this._rowErrors.set(id, {
          conflict: httpStatus(error) === 409,
          message: errorText(error)
        });
      }
    );
  }

  protected async fetch(): Promise<void> {
    const list = await this._request<ICheckpointList>(
      `checkpoints?limit=${this._limit}`
    );
    this._checkpoints = list.checkpoints ?? [];
  }

  private _request: Request;
  private _pageSize: number;
  private _limit: number;
  private _checkpoints: ICheckpoint[] = [];
  private _rowErrors = new Map<string, IRowError>();
}
