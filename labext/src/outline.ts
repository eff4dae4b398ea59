/**
 * The "Outline" section of the MCP Lab panel: the headings of the active
 * document (the top-level rows of an OPML outline), following the editor. The section binds `OutlineModel`
 * (outline_model.ts) to JupyterLab (the shell's current widget, the
 * document's `fileChanged`) and to the DOM. Clicking a heading puts the
 * editor's cursor on its line and scrolls it into view.
 */
import type { IDocumentWidget } from '@jupyterlab/docregistry';
import type { Widget } from '@lumino/widgets';

import { contextPath, editorOf, isDocumentWidget } from './documents';
import { el, sectionFrame } from './dom';
import { BOX } from './outline_tree_marks';
import {
  IHeading,
  IOutlineRow,
  OutlineModel,
  stateMessage,
  topRows
} from './outline_model';
import type { IPanelContext, IPanelSection } from './section';

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
    if (state.status === 'rows') {
      this._body.replaceChildren(
        this._rows(state.path, topRows(state.outline))
      );
      return;
    }
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

  /** An OPML outline's top-level rows; a click shows the row in the tree view. */
  private _rows(path: string, rows: IOutlineRow[]): HTMLElement {
    const list = el('ul', 'jp-McpLab-outlineList');
    for (const row of rows) {
      const item = el('li', 'jp-McpLab-outlineItem');
      item.dataset.id = row.id;
      const link = el('button', 'jp-McpLab-outlineLink');
      link.type = 'button';
      link.title = row.note ? `${row.topic}\n${row.note}` : row.topic;
      const mark = el('span', 'jp-McpLab-outlineLevel', BOX[row.state] || '•');
      mark.setAttribute('aria-hidden', 'true');
      const title = el(
        'span',
        'jp-McpLab-outlineTitle',
        row.topic.trim() || '(untitled row)'
      );
      link.append(mark, title);
      if (row.children.length > 0) {
        link.append(
          el('span', 'jp-McpLab-outlineLevel', `${row.children.length} below`)
        );
      }
      link.addEventListener('click', () => this._revealRow(path, row.id));
      item.append(link);
      list.append(item);
    }
    return list;
  }

  /** Show a row in the outline's tree view (when the document shows one). */
  private _revealRow(path: string, rowId: string): void {
    const app = this._context.app;
    const widget = this._widget;
    if (!app || !widget || contextPath(widget.context) !== path) {
      return;
    }
    app.shell.activateById(widget.id);
    (widget.content as any)?.revealRow?.(rowId);
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
