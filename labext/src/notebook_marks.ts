/**
 * One open notebook's review marks (notebook_review.ts keeps one per open
 * notebook): the cells with pending suggestions get `jp-McpLab-cellPending`
 * and a bar in their footer (what changes, the diff, Accept / Reject); inserted
 * cells show as ghost bars after the cell they follow (before the first cell:
 * in its header). Only the cells' header and footer nodes, JupyterLab's empty
 * extension points, get our elements; the notebook is used through the few
 * members typed below (no dependency on @jupyterlab/notebook).
 */
import type { IDocumentWidget } from '@jupyterlab/docregistry';

import type { ISuggestion } from './api_types';
import { describeCellChange } from './cell_change';
import { renderPartDiff } from './part_change_view';
import { button, el } from './dom';
import { contextPath } from './documents';
import { keepFocus, keyed } from './focus_keys';
import { INotebookMarks, placeMarks, TOP } from './notebook_review_model';

/** What the marks need of their owner: the suggestions and the decisions. */
export interface IMarksOwner {
  /** The pending cell suggestions of the notebook at `path`. */
  suggestionsOf(path: string): ISuggestion[];
  /** Whether a decision on `id` is in flight. */
  isBusy(id: string): boolean;
  /** Accept or reject `id`. */
  decide(id: string, action: 'accept' | 'reject'): Promise<void>;
}

/** The class of a cell with a pending suggestion. */
export const PENDING_CLASS = 'jp-McpLab-cellPending';
const BAR_CLASS = 'jp-McpLab-cellReview';

/** What this module uses of a JupyterLab cell widget. */
interface ICellLike {
  node: HTMLElement;
  model: { id: string };
}

/** What this module uses of a JupyterLab notebook (a NotebookPanel's content). */
interface INotebookLike {
  node: HTMLElement;
  widgets: readonly ICellLike[];
  model: { cells: { changed: ISignalLike } } | null;
  modelChanged?: ISignalLike;
  placeholderCellRendered?: ISignalLike;
  hasClass(name: string): boolean;
}

interface ISignalLike {
  connect(slot: () => void): boolean;
  disconnect(slot: () => void): boolean;
}

export function notebookOf(widget: IDocumentWidget): INotebookLike | null {
  const content = widget.content as unknown as INotebookLike;
  return typeof content?.hasClass === 'function' &&
    content.hasClass('jp-Notebook') &&
    Array.isArray(content.widgets)
    ? content
    : null;
}

/** A cell's header or footer node (JupyterLab leaves them empty for extensions). */
function slot(cell: ICellLike, which: 'Header' | 'Footer'): HTMLElement | null {
  return cell.node.querySelector<HTMLElement>(`:scope > .jp-Cell${which}`);
}

/** One open notebook, marked. */
export class MarkedNotebook {
  constructor(
    private _owner: IMarksOwner,
    readonly widget: IDocumentWidget,
    readonly notebook: INotebookLike
  ) {
    notebook.modelChanged?.connect(this._onModel);
    notebook.placeholderCellRendered?.connect(this.schedule);
    this._onModel();
  }

  get path(): string {
    return contextPath(this.widget.context);
  }

  /** Draw again soon (a burst of cell changes makes one redraw). */
  schedule = (): void => {
    if (this._timer === null) {
      this._timer = window.setTimeout(() => {
        this._timer = null;
        this.render();
      }, 30);
    }
  };

  /**
   * Remove every mark, then mark the cells with pending suggestions. A focused
   * Accept / Reject keeps the focus; when its bar is gone, its cell takes it
   * (the notebook when the cell is gone too), as a cell selected in command mode.
   */
  render(): void {
    if (this.disposed) {
      return;
    }
    const node = this.notebook.node;
    const focused = node.ownerDocument.activeElement;
    const bar =
      focused instanceof HTMLElement ? focused.closest(`.${BAR_CLASS}`) : null;
    if (!bar || !node.contains(bar)) {
      this._draw(); // the focus is the notebook's own (an editor, a cell)
      return;
    }
    const cell = bar.closest<HTMLElement>('.jp-Cell');
    keepFocus(node, () => this._draw(), cell ? [cell, node] : [node]);
  }

  private _draw(): void {
    this.clear();
    const cells = this.notebook.widgets;
    const marks: INotebookMarks = placeMarks(
      this._owner.suggestionsOf(this.path),
      cells.map(cell => cell.model.id)
    );
    let unplaced = false;
    cells.forEach((cell, i) => {
      const id = cell.model.id;
      const header = slot(cell, 'Header');
      const footer = slot(cell, 'Footer');
      const top = i === 0 ? (marks.ghosts.get(TOP) ?? []) : [];
      const own = marks.cells.get(id) ?? [];
      const after = marks.ghosts.get(id) ?? [];
      if (
        (top.length && !header) ||
        ((own.length || after.length) && !footer)
      ) {
        unplaced = true; // a cell whose DOM is not made yet (a notebook reloading)
      }
      if (header && top.length) {
        header.classList.add(`${BAR_CLASS}-host`);
        header.append(...top.map(s => this._bar(s, true)));
      }
      if (own.length) {
        cell.node.classList.add(PENDING_CLASS);
      }
      // Below the cell: its own changes, then the cells inserted after it (the
      // header holds the active cell's toolbar, which would cover the buttons).
      if (footer && (own.length || after.length)) {
        footer.classList.add(`${BAR_CLASS}-host`);
        footer.append(...own.map(s => this._bar(s, false)));
        footer.append(...after.map(s => this._bar(s, true)));
      }
    });
    // An empty notebook: inserted cells show at its top.
    if (cells.length === 0 && marks.ghosts.get(TOP)?.length) {
      const box = el('div', `${BAR_CLASS}-empty`);
      box.append(...marks.ghosts.get(TOP)!.map(s => this._bar(s, true)));
      this.notebook.node.prepend(box);
    }
    // A reloaded notebook makes its cells' DOM after the cell list changed, and
    // no signal says when: look again until every mark has its place (10 s at most).
    if (unplaced && this._retries < 100) {
      this._retries++;
      window.setTimeout(this.schedule, 100);
    } else if (!unplaced) {
      this._retries = 0;
    }
  }

  /** Take every mark off. */
  clear(): void {
    const node = this.notebook.node;
    node
      .querySelectorAll(`.${BAR_CLASS}, .${BAR_CLASS}-empty`)
      .forEach(bar => bar.remove());
    node
      .querySelectorAll(`.${BAR_CLASS}-host`)
      .forEach(host => host.classList.remove(`${BAR_CLASS}-host`));
    node
      .querySelectorAll(`.${PENDING_CLASS}`)
      .forEach(cell => cell.classList.remove(PENDING_CLASS));
  }

  dispose(): void {
    this.disposed = true;
    if (this._timer !== null) {
      window.clearTimeout(this._timer);
    }
    this._cells?.changed.disconnect(this.schedule);
    this.notebook.modelChanged?.disconnect(this._onModel);
    this.notebook.placeholderCellRendered?.disconnect(this.schedule);
  }

  disposed = false;

  /** One suggestion's bar: what it does, Accept / Reject, the diff. */
  private _bar(s: ISuggestion, ghost: boolean): HTMLElement {
    const change = describeCellChange(s);
    const bar = el('div', `${BAR_CLASS} jp-mod-${change.kind}`);
    bar.classList.toggle('jp-mod-ghost', ghost);
    bar.dataset.id = s.id;
    bar.setAttribute('role', 'group');
    const who = s.author || 'An agent';
    bar.setAttribute('aria-label', `${who} suggests: ${change.here}`);
    const head = el('div', `${BAR_CLASS}Head`);
    const what = el('span', `${BAR_CLASS}What`);
    what.append(
      el('span', `${BAR_CLASS}Who`, `${who} suggests`),
      document.createTextNode(` ${change.here}`)
    );
    const busy = this._owner.isBusy(s.id);
    const accept = button(
      'Accept',
      'jp-mod-accept',
      ghost ? 'Insert this cell' : 'Apply this change to the cell',
      () => void this._owner.decide(s.id, 'accept')
    );
    const reject = button(
      'Reject',
      'jp-mod-reject',
      'Discard this change',
      () => void this._owner.decide(s.id, 'reject')
    );
    accept.disabled = reject.disabled = busy;
    const actions = el('span', `${BAR_CLASS}Actions`);
    actions.append(
      keyed(accept, `${s.id}:accept`),
      keyed(reject, `${s.id}:reject`)
    );
    head.append(what, actions);
    bar.append(head);
    if (s.rationale) {
      bar.append(el('div', `${BAR_CLASS}Why`, s.rationale));
    }
    for (const detail of change.details) {
      bar.append(el('div', `${BAR_CLASS}Detail`, detail));
    }
    const diff = renderPartDiff(s, change);
    if (diff) {
      bar.append(diff);
    }
    // Clicks and keys in the bar are not the notebook's (select, edit, run).
    for (const type of ['mousedown', 'keydown', 'dblclick']) {
      bar.addEventListener(type, event => event.stopPropagation());
    }
    return bar;
  }

  /** The notebook's model (re)loaded: follow its cells. */
  private _onModel = (): void => {
    this._cells?.changed.disconnect(this.schedule);
    this._cells = this.notebook.model?.cells ?? null;
    this._cells?.changed.connect(this.schedule);
    this.schedule();
  };

  private _cells: { changed: ISignalLike } | null = null;
  private _timer: number | null = null;
  private _retries = 0;
}

/**
 * Scroll a notebook to suggestion `id`'s bar and highlight it for `ms` (a
 * card's click in the panel). The marks of a notebook just opened come a
 * moment later: it looks again for up to 3 seconds. False: no such bar.
 */
export async function revealCellBar(
  root: HTMLElement,
  id: string,
  ms = 1500
): Promise<boolean> {
  const selector = `.${BAR_CLASS}[data-id="${CSS.escape(id)}"]`;
  for (let tries = 0; tries < 30; tries++) {
    const bar = root.querySelector<HTMLElement>(selector);
    if (bar) {
      bar.scrollIntoView({ block: 'center' });
      bar.classList.add('jp-mod-flash');
      window.setTimeout(() => bar.classList.remove('jp-mod-flash'), ms);
      return true;
    }
    await new Promise(resolve => window.setTimeout(resolve, 100));
  }
  return false;
}
