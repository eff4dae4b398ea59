/**
 * The outline, the pure part: which document is followed, `GET
 * outline?path=`, the state to show (a markdown document's headings, an OPML
 * outline's top-level rows), refreshing on the server's `document`
 * events. Answers for a document no longer followed are dropped. The
 * requester is injected; no DOM.
 */
import type { IHeading, IOutline, IOutlineRow } from './api_types';
import { normalizePath } from './documents';
import type { IServerEvent, ServerEvents } from './events';
import { errorText, ModelBase } from './model_base';
import type { Request } from './request';

// One heading and the outline, as `GET outline?path=` answers them.
export type { IHeading, IOutline, IOutlineRow };

/** What the section shows. */
export type OutlineState =
  | { status: 'none' }
  | { status: 'loading'; path: string }
  | { status: 'headings'; path: string; outline: IOutline }
  | { status: 'rows'; path: string; outline: IOutline }
  | { status: 'empty'; path: string; outline: IOutline }
  | { status: 'not-markdown'; path: string; kind: string }
  | { status: 'error'; path: string; message: string };

/** The text shown for each state without headings. */
export const MESSAGES = {
  none: 'Open a document to see its outline',
  loading: 'Loading the outline…',
  empty: 'No headings',
  emptyOutline: 'No rows',
  notMarkdown: 'Not a markdown document'
};

/** The message a state shows instead of headings ('' when it has some). */
export function stateMessage(state: OutlineState): string {
  switch (state.status) {
    case 'none':
      return MESSAGES.none;
    case 'loading':
      return MESSAGES.loading;
    case 'empty':
      return state.outline.kind === 'outline'
        ? MESSAGES.emptyOutline
        : MESSAGES.empty;
    case 'not-markdown':
      return MESSAGES.notMarkdown;
    case 'error':
      return `The outline could not be loaded: ${state.message}`;
    case 'headings':
    case 'rows':
      return '';
  }
}

/** The state an answer of `GET outline` shows. */
export function outlineState(path: string, outline: IOutline): OutlineState {
  if (outline.kind === 'outline') {
    return (outline.rows ?? []).length > 0
      ? { status: 'rows', path, outline }
      : { status: 'empty', path, outline };
  }
  if (outline.kind !== 'markdown') {
    return { status: 'not-markdown', path, kind: outline.kind };
  }
  return outline.headings.length > 0
    ? { status: 'headings', path, outline }
    : { status: 'empty', path, outline };
}

/** The top-level rows of an OPML outline, as the section lists them. */
export function topRows(outline: IOutline): IOutlineRow[] {
  return (outline.rows ?? []).filter(row => row.parent === null);
}

/** Whether two states show the same (an outline is known by its revision). */
export function sameState(a: OutlineState, b: OutlineState): boolean {
  if (a.status !== b.status) {
    return false;
  }
  switch (a.status) {
    case 'none':
      return true;
    case 'loading':
      return a.path === (b as typeof a).path;
    case 'headings':
    case 'rows':
    case 'empty': {
      const other = (b as typeof a).outline;
      return (
        a.path === (b as typeof a).path &&
        a.outline.path === other.path &&
        a.outline.revision === other.revision
      );
    }
    case 'not-markdown':
      return a.path === (b as typeof a).path && a.kind === (b as typeof a).kind;
    case 'error':
      return (
        a.path === (b as typeof a).path && a.message === (b as typeof a).message
      );
  }
}

/**
 * The outline of one document at a time: set the path (null for none), and
 * the model fetches and follows it. Listeners are told each new state;
 * refreshes while a fetch runs coalesce into one more fetch.
 */
export class OutlineModel extends ModelBase<OutlineState> {
  constructor(request: Request, events?: ServerEvents) {
    super();
    this._request = request;
    if (events) {
      this._unsubscribe = events.subscribe(['document'], event =>
        this.handleEvent(event)
      );
    }
  }

  get state(): OutlineState {
    return this._state;
  }

  /** The document followed, root-relative; null for none. */
  get path(): string | null {
    return this._path;
  }

  /** Follow the document at `path` (null: none); fetches when it changed. */
  setPath(path: string | null): Promise<void> {
    const next = path === null ? null : normalizePath(path) || null;
    if (next === this._path) {
      return this._running ?? Promise.resolve();
    }
    this._path = next;
    this._again = false;
    this._generation++;
    if (next === null) {
      this._setState({ status: 'none' });
      return Promise.resolve();
    }
    this._setState({ status: 'loading', path: next });
    return this._fetch();
  }

  /** Fetch the current document's outline again (e.g. it was saved). */
  refresh(): Promise<void> {
    if (this._path === null) {
      return Promise.resolve();
    }
    if (this._running) {
      // One more fetch once this one ends: it may have read the older text.
      this._again = true;
      return this._running;
    }
    return this._fetch();
  }

  /** A server event: an agent's change to the followed document refreshes. */
  handleEvent(event: IServerEvent): void {
    if (
      event.type === 'document' &&
      this._path !== null &&
      normalizePath(event.data?.path) === this._path &&
      !this._shows(event.data?.revision)
    ) {
      void this.refresh();
    }
  }

  dispose(): void {
    this._unsubscribe?.();
    this.removeListeners();
    this._generation++;
  }

  /** Whether the outline shown is of `revision` already. */
  private _shows(revision: unknown): boolean {
    const state = this._state;
    return (
      typeof revision === 'string' &&
      (state.status === 'headings' ||
        state.status === 'rows' ||
        state.status === 'empty') &&
      state.outline.revision === revision
    );
  }

  private _fetch(): Promise<void> {
    const path = this._path as string;
    const generation = this._generation;
    const run = (async () => {
      do {
        this._again = false;
        let next: OutlineState;
        try {
          const outline = await this._request<IOutline>(
            `outline?path=${encodeURIComponent(path)}`
          );
          next = outlineState(path, outline);
        } catch (error) {
          next = { status: 'error', path, message: errorText(error) };
        }
        if (generation !== this._generation) {
          return; // another document by now
        }
        this._setState(next);
      } while (this._again && generation === this._generation);
    })();
    const running = run.finally(() => {
      if (this._running === running) {
        this._running = null;
      }
    });
    this._running = running;
    return running;
  }

  private _setState(state: OutlineState): void {
    if (sameState(this._state, state)) {
      return; // e.g. a save that changed nothing: no redraw
    }
    this._state = state;
    this.emit(state);
  }

  private _request: Request;
  private _unsubscribe: (() => void) | null = null;
  private _state: OutlineState = { status: 'none' };
  private _path: string | null = null;
  private _generation = 0;
  private _running: Promise<void> | null = null;
  private _again = false;
}
