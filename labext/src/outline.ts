/**
 * The "Outline" section of the MCP Lab panel: the headings of the active
 * document, following the editor.
 *
 * `OutlineModel` is the pure part (which document, `GET outline?path=`, the
 * state to show, refreshing on the server's `document` events); the section
 * binds it to JupyterLab (the shell's current widget, the document's
 * `fileChanged`) and to the DOM. Clicking a heading puts the editor's cursor
 * on its line and scrolls it into view.
 */
import type { IDocumentWidget } from '@jupyterlab/docregistry';
import type { Widget } from '@lumino/widgets';

import { el, sectionFrame } from './dom';
import {
  contextPath,
  editorOf,
  isDocumentWidget,
  normalizePath
} from './editors';
import type { IServerEvent, ServerEvents } from './events';
import { IPanelContext, IPanelSection, Request } from './section';

/** One heading, as `GET outline` answers it (see openapi.yaml). */
export interface IHeading {
  /** The heading's node id (`h-0`, ...), valid for the outline's revision. */
  id: string;
  level: number;
  title: string;
  /** The heading's line, 1-based. */
  line: number;
  /** The last line of its section. */
  lineEnd: number;
}

/** `GET outline?path=`. */
export interface IOutline {
  path: string;
  revision: string;
  kind: string;
  headings: IHeading[];
}

/** What the section shows. */
export type OutlineState =
  | { status: 'none' }
  | { status: 'loading'; path: string }
  | { status: 'headings'; path: string; outline: IOutline }
  | { status: 'empty'; path: string; outline: IOutline }
  | { status: 'not-markdown'; path: string; kind: string }
  | { status: 'error'; path: string; message: string };

/** The text shown for each state without headings. */
export const MESSAGES = {
  none: 'Open a document to see its outline',
  loading: 'Loading the outline…',
  empty: 'No headings',
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
      return MESSAGES.empty;
    case 'not-markdown':
      return MESSAGES.notMarkdown;
    case 'error':
      return `The outline could not be loaded: ${state.message}`;
    case 'headings':
      return '';
  }
}

/**
 * The outline of one document at a time: set the path (null for none), and
 * the model fetches and follows it. Answers for a path no longer shown are
 * dropped; refreshes while a fetch runs coalesce into one more fetch.
 */
export class OutlineModel {
  constructor(request: Request, events?: ServerEvents) {
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

  /** Listen to state changes; returns the unsubscribe. */
  onChange(listener: (state: OutlineState) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
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
    this._listeners.clear();
    this._generation++;
  }

  /** Whether the outline shown is of `revision` already. */
  private _shows(revision: unknown): boolean {
    const state = this._state;
    return (
      typeof revision === 'string' &&
      (state.status === 'headings' || state.status === 'empty') &&
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
          next = { status: 'error', path, message: errorMessage(error) };
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
    for (const listener of [...this._listeners]) {
      try {
        listener(state);
      } catch (error) {
        console.error('MCP Lab: an outline listener failed', error);
      }
    }
  }

  private _request: Request;
  private _unsubscribe: (() => void) | null = null;
  private _listeners = new Set<(state: OutlineState) => void>();
  private _state: OutlineState = { status: 'none' };
  private _path: string | null = null;
  private _generation = 0;
  private _running: Promise<void> | null = null;
  private _again = false;
}

/** The state an answer of `GET outline` shows. */
export function outlineState(path: string, outline: IOutline): OutlineState {
  if (outline.kind !== 'markdown') {
    return { status: 'not-markdown', path, kind: outline.kind };
  }
  return outline.headings.length > 0
    ? { status: 'headings', path, outline }
    : { status: 'empty', path, outline };
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

/** The heading's title as listed (an empty heading still gets a label). */
export function headingLabel(heading: IHeading): string {
  return heading.title.trim() || '(untitled heading)';
}

/**
 * Indentation depth of each heading: its level relative to the smallest level
 * in the outline (a document of `##` headings starts flush left), and never
 * more than one deeper than the heading before it (`#` then `###` indents once).
 */
export function depths(headings: IHeading[]): number[] {
  if (headings.length === 0) {
    return [];
  }
  const top = Math.min(...headings.map(h => h.level));
  const out: number[] = [];
  const stack: number[] = []; // levels of the open ancestors
  for (const heading of headings) {
    while (stack.length > 0 && stack[stack.length - 1] >= heading.level) {
      stack.pop();
    }
    out.push(Math.min(stack.length, heading.level - top));
    stack.push(heading.level);
  }
  return out;
}

function errorMessage(error: unknown): string {
  const message = (error as Error)?.message;
  return typeof message === 'string' && message ? message : String(error);
}

// ---------------------------------------------------------------- the section

export class OutlineSection implements IPanelSection {
  readonly node: HTMLElement;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Outline', 'jp-McpLab-outline');
    this.node = frame.node;
    this._body = frame.body;
    this.model = new OutlineModel(context.request, context.events);
    this.model.onChange(() => this._render());
    this._render();

    const shell = context.app?.shell;
    if (shell) {
      shell.currentChanged?.connect(this._onCurrentChanged, this);
      this._follow(shell.currentWidget);
    }
  }

  /** What the section shows (exposed for tests and other sections). */
  readonly model: OutlineModel;

  async refresh(): Promise<void> {
    await this.model.refresh();
  }

  dispose(): void {
    this._context.app?.shell.currentChanged?.disconnect(
      this._onCurrentChanged,
      this
    );
    this._unfollow();
    this.model.dispose();
    this._body.replaceChildren();
  }

  private _onCurrentChanged(
    _: unknown,
    args: { newValue: Widget | null }
  ): void {
    this._follow(args.newValue);
  }

  /** Follow the shell's current widget: its document, or none. */
  private _follow(widget: Widget | null): void {
    const doc = isDocumentWidget(widget) ? widget : null;
    if (doc === this._widget) {
      return;
    }
    this._unfollow();
    this._widget = doc;
    if (doc === null) {
      void this.model.setPath(null);
      return;
    }
    const context = doc.context;
    context.fileChanged.connect(this._onFileChanged, this);
    context.pathChanged.connect(this._onPathChanged, this);
    doc.disposed.connect(this._onDisposed, this);
    void this.model.setPath(contextPath(context));
  }

  private _unfollow(): void {
    const doc = this._widget;
    if (doc === null) {
      return;
    }
    doc.context.fileChanged.disconnect(this._onFileChanged, this);
    doc.context.pathChanged.disconnect(this._onPathChanged, this);
    doc.disposed.disconnect(this._onDisposed, this);
    this._widget = null;
  }

  private _onFileChanged(): void {
    void this.model.refresh();
  }

  private _onPathChanged(): void {
    if (this._widget) {
      void this.model.setPath(contextPath(this._widget.context));
    }
  }

  /** The followed document closed: follow whatever is current now. */
  private _onDisposed(sender: Widget): void {
    this._unfollow();
    const current = this._context.app?.shell.currentWidget ?? null;
    const next =
      current && current !== sender && !current.isDisposed ? current : null;
    this._follow(next);
    if (this._widget === null) {
      void this.model.setPath(null);
    }
  }

  private _render(): void {
    const state = this.model.state;
    const path = state.status === 'none' ? '' : state.path;
    this.node.dataset.path = path;
    this.node.dataset.status = state.status;
    if (state.status !== 'headings') {
      const className =
        state.status === 'error' ? 'jp-McpLab-error' : 'jp-McpLab-outlineEmpty';
      this._body.replaceChildren(el('p', className, stateMessage(state)));
      return;
    }
    const headings = state.outline.headings;
    const levels = depths(headings);
    const list = el('ul', 'jp-McpLab-outlineList');
    headings.forEach((heading, i) => {
      const item = el('li', 'jp-McpLab-outlineItem');
      item.dataset.level = String(heading.level);
      item.dataset.line = String(heading.line);
      item.dataset.id = heading.id;
      item.style.setProperty('--jp-mcplab-outline-depth', String(levels[i]));
      const link = el('button', 'jp-McpLab-outlineLink');
      link.type = 'button';
      link.title = `${'#'.repeat(heading.level)} ${heading.title} (line ${heading.line})`;
      const level = el('span', 'jp-McpLab-outlineLevel', `H${heading.level}`);
      const title = el('span', 'jp-McpLab-outlineTitle', headingLabel(heading));
      link.append(level, title);
      link.addEventListener('click', () => this._reveal(state.path, heading));
      item.append(link);
      list.append(item);
    });
    this._body.replaceChildren(list);
  }

  /** Put the editor's cursor on the heading's line and scroll it into view. */
  private _reveal(path: string, heading: IHeading): void {
    const app = this._context.app;
    const widget = this._widget;
    if (!app || !widget || contextPath(widget.context) !== path) {
      return;
    }
    const editor = editorOf(widget as IDocumentWidget);
    app.shell.activateById(widget.id);
    if (!editor) {
      return; // e.g. a markdown preview: no cursor to move
    }
    const line = Math.min(Math.max(heading.line - 1, 0), editor.lineCount - 1);
    const position = { line, column: 0 };
    editor.setCursorPosition(position);
    editor.revealPosition(position);
    editor.focus();
  }

  private _context: IPanelContext;
  private _body: HTMLDivElement;
  private _widget: IDocumentWidget | null = null;
}
