/**
 * The OPML tree view, the DOM part: a search box, then the rows as an ARIA
 * tree (one focusable list, `aria-activedescendant` on the row the keyboard
 * acts on), each row with its fold toggle, checkbox state, topic, note and
 * the pending suggestions on it with Accept / Reject. It draws
 * `OutlineTreeModel` (outline_tree_model.ts) on every change, keeping the
 * element of every row that draws the same (outline_tree_keyed.ts); colours
 * come from the theme's variables (style/base.css).
 */
import { Widget } from '@lumino/widgets';

import { el } from './dom';
import { KeyedRows } from './outline_tree_keyed';
import { BOX, highlighted, markNode } from './outline_tree_marks';
import type { OutlineTreeModel } from './outline_tree_model';
import type { IVisibleRow } from './outline_tree_visible';

export class OutlineTreeView extends Widget {
  constructor(model: OutlineTreeModel, openPanel?: () => void) {
    super();
    this.model = model;
    this._openPanel = openPanel;
    this.addClass('jp-McpLab-tree');
    this.id = `jp-McpLab-tree-${++OutlineTreeView._count}`;
    this._search = document.createElement('input');
    this._search.type = 'search';
    this._search.className = 'jp-McpLab-treeSearch';
    this._search.placeholder = 'Search topics and notes';
    this._search.setAttribute('aria-label', 'Search the outline');
    this._search.addEventListener('input', () =>
      model.setQuery(this._search.value)
    );
    this._search.addEventListener('keydown', event => {
      if (event.key === 'ArrowDown' || event.key === 'Enter') {
        event.preventDefault();
        model.handleKey('Home');
        this._list.focus();
      }
    });
    this._status = el('p', 'jp-McpLab-treeStatus');
    this._status.setAttribute('role', 'status');
    this._list = el('div', 'jp-McpLab-treeList');
    this._list.setAttribute('role', 'tree');
    this._list.tabIndex = 0;
    this._list.addEventListener('keydown', event => this._onKey(event));
    this._rows = new KeyedRows(
      this._list,
      row => this._row(row),
      id => model.isBusy(id)
    );
    this._list.addEventListener('focus', () => {
      if (model.focused === null && model.rows.length > 0) {
        model.focus(model.rows[0].node.key);
      }
    });
    const bar = el('div', 'jp-McpLab-treeBar');
    bar.append(this._search, this._status);
    this.node.append(bar, this._list);
    model.onChange(() => this._render());
    this._render();
  }

  readonly model: OutlineTreeModel;

  /**
   * Show the row `rowId` (unfolding its ancestors), marked focused; with
   * `focus` the tree takes the keyboard (without: a click on a panel's card,
   * whose keys stay in the panel).
   */
  revealRow(rowId: string, focus = true): void {
    let at = this.model.tree.nodes.get(rowId)?.parent ?? null;
    while (at !== null) {
      this.model.setExpanded(at, true);
      at = this.model.tree.nodes.get(at)?.parent ?? null;
    }
    this.model.focus(rowId);
    if (focus) {
      this._list.focus();
    }
  }

  dispose(): void {
    this.model.dispose();
    super.dispose();
  }

  private _rowId(key: string): string {
    return `${this.id}-row-${encodeURIComponent(key).replace(/%/g, '_')}`;
  }

  private _onKey(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const node = this.model.focusedNode();
    const first = node?.marks[0];
    if ((event.key === 'a' || event.key === 'r') && first) {
      event.preventDefault();
      event.stopPropagation();
      void this.model.decide(
        first.suggestion.id,
        event.key === 'a' ? 'accept' : 'reject'
      );
      return;
    }
    if (this.model.handleKey(event.key)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  private _render(): void {
    const model = this.model;
    this.node.dataset.status = model.status;
    this._list.setAttribute(
      'aria-label',
      `Outline of ${model.path.split('/').pop()}`
    );
    const pending = new Set<string>();
    for (const node of model.tree.nodes.values()) {
      node.marks.forEach(m => pending.add(m.suggestion.id));
    }
    const unplaced = model.tree.unplaced.length;
    const parts: string[] = [];
    if (model.status === 'loading' && model.outline === null) {
      parts.push('Loading the outline…');
    } else if (model.status === 'error') {
      parts.push(`The outline could not be read: ${model.error}`);
    } else {
      if (model.error) {
        parts.push(model.error);
      }
      const total = model.outline?.rows.length ?? 0;
      const found = model.rows.filter(r => r.topicMatch || r.noteMatch);
      parts.push(
        model.query.trim()
          ? `${found.length} of ${total} rows match`
          : `${total} rows`
      );
      if (pending.size > 0) {
        parts.push(
          `${pending.size} pending suggestion${pending.size === 1 ? '' : 's'}`
        );
      }
    }
    this._status.replaceChildren(parts.join(' · '));
    if (unplaced > 0) {
      const more = el(
        'button',
        'jp-McpLab-treeUnplaced',
        `${unplaced} suggestion${unplaced === 1 ? '' : 's'} on the XML text: review in the panel`
      );
      more.type = 'button';
      more.addEventListener('click', () => this._openPanel?.());
      this._status.append(' · ', more);
    }
    if (model.rows !== this._drawn) {
      // Only when the rows changed: a move of the focus (every arrow key) must
      // not walk a long outline.
      this._drawn = model.rows;
      this._rows.update(model.rows);
    }
    this._showFocus();
  }

  /** Mark the focused row and point the tree's active descendant at it. */
  private _showFocus(): void {
    const focused = this.model.focused;
    const item = focused === null ? undefined : this._rows.item(focused);
    if (item === this._focusedItem) {
      return;
    }
    this._focusedItem?.classList.remove('jp-mod-focused');
    this._focusedItem?.setAttribute('aria-selected', 'false');
    this._focusedItem = item;
    const moved = focused !== this._focusedKey;
    this._focusedKey = focused;
    if (item) {
      item.classList.add('jp-mod-focused');
      item.setAttribute('aria-selected', 'true');
      this._list.setAttribute('aria-activedescendant', item.id);
      if (moved) {
        // Only when the focus moved: a row drawn again where it was (folded)
        // is in view, and scrolling lays the whole list out at once.
        item.scrollIntoView?.({ block: 'nearest' });
      }
    } else {
      this._list.removeAttribute('aria-activedescendant');
    }
  }

  private _row(row: IVisibleRow): HTMLElement {
    const { node } = row;
    const item = el('div', 'jp-McpLab-treeRow');
    item.id = this._rowId(node.key);
    item.setAttribute('role', 'treeitem');
    item.setAttribute('aria-level', String(row.depth + 1));
    item.setAttribute('aria-setsize', String(row.siblings));
    item.setAttribute('aria-posinset', String(row.position));
    item.setAttribute('aria-selected', 'false');
    if (row.hasChildren) {
      item.setAttribute('aria-expanded', String(row.expanded));
    }
    item.dataset.key = node.key;
    if (node.rowId !== null) {
      item.dataset.rowId = node.rowId;
    }
    item.dataset.state = node.state;
    const kinds = node.marks.map(m => m.kind);
    item.dataset.marks = kinds.join(' ');
    item.classList.toggle('jp-mod-ghost', node.rowId === null);
    item.classList.toggle(
      'jp-mod-deleted',
      kinds.includes('deleted') || node.deletedWithin
    );
    item.style.setProperty('--jp-mcplab-tree-depth', String(row.depth));
    item.addEventListener('click', event => {
      if ((event.target as HTMLElement).closest('button')) {
        return;
      }
      this.model.focus(node.key);
      this._list.focus();
    });

    const line = el('div', 'jp-McpLab-treeLine');
    const twisty = el(
      'span',
      'jp-McpLab-treeTwisty',
      row.hasChildren ? (row.expanded ? '▾' : '▸') : ''
    );
    twisty.setAttribute('aria-hidden', 'true');
    twisty.addEventListener('click', event => {
      event.stopPropagation();
      this.model.focus(node.key);
      this.model.toggle(node.key);
    });
    line.append(twisty);
    if (node.state !== 'none') {
      const box = el('span', 'jp-McpLab-treeBox', BOX[node.state]);
      box.dataset.state = node.state;
      box.title = node.state;
      box.setAttribute('aria-label', node.state);
      box.setAttribute('role', 'img');
      line.append(box);
    }
    const topic = node.marks.find(
      m => m.kind === 'changed' && m.changes.some(c => c.field === 'topic')
    );
    if (kinds.includes('deleted')) {
      line.append(el('del', 'jp-McpLab-treeTopic', node.topic || '(empty)'));
    } else if (topic) {
      const change = topic.changes.find(c => c.field === 'topic')!;
      line.append(
        el('del', 'jp-McpLab-treeOld', change.before),
        el('span', 'jp-McpLab-treeArrow', ' → '),
        el('ins', 'jp-McpLab-treeNew', change.after)
      );
    } else {
      line.append(
        highlighted(
          node.topic || '(empty)',
          row.topicMatch,
          'jp-McpLab-treeTopic'
        )
      );
    }
    if (row.hiddenMarks > 0) {
      line.append(
        el(
          'span',
          'jp-McpLab-treeHidden',
          `${row.hiddenMarks} suggestion${row.hiddenMarks === 1 ? '' : 's'} inside`
        )
      );
    }
    item.append(line);
    if (node.note) {
      item.append(highlighted(node.note, row.noteMatch, 'jp-McpLab-treeNote'));
    }
    for (const mark of node.marks) {
      item.append(
        markNode(
          node.topic,
          mark,
          this.model.isBusy(mark.suggestion.id),
          action => this.model.decide(mark.suggestion.id, action)
        )
      );
    }
    return item;
  }

  private _drawn: IVisibleRow[] | null = null;
  private _rows: KeyedRows;
  private _focusedItem: HTMLElement | undefined = undefined;
  private _focusedKey: string | null = null;
  private _search: HTMLInputElement;
  private _status: HTMLElement;
  private _list: HTMLElement;
  private _openPanel?: () => void;
  private static _count = 0;
}
