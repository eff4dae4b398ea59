/**
 * The OPML tree view's rows kept by key (outline_tree_view.ts): a fold, a
 * search or a suggestion on one row redraws only the rows whose drawing
 * changed and moves the others' elements into place, instead of building
 * every row again (5,000 rows took most of a second). `sameRow` (pure) says
 * whether a row would be drawn the same; `KeyedRows` keeps the elements.
 */
import type { IRowMark, ITreeNode } from './outline_tree_rows';
import type { IVisibleRow } from './outline_tree_visible';

function sameRange(
  a: [number, number] | null,
  b: [number, number] | null
): boolean {
  return (
    a === b || (a !== null && b !== null && a[0] === b[0] && a[1] === b[1])
  );
}

function sameMark(a: IRowMark, b: IRowMark): boolean {
  const s = a.suggestion;
  const t = b.suggestion;
  return (
    a.kind === b.kind &&
    a.stale === b.stale &&
    s.id === t.id &&
    s.author === t.author &&
    s.rationale === t.rationale &&
    a.changes.length === b.changes.length &&
    a.changes.every(
      (c, i) =>
        c.field === b.changes[i].field &&
        c.before === b.changes[i].before &&
        c.after === b.changes[i].after
    )
  );
}

/** Whether two nodes (of one tree, or of the trees before and after a fetch) draw the same. */
export function sameNode(a: ITreeNode, b: ITreeNode): boolean {
  return (
    a === b ||
    (a.key === b.key &&
      a.rowId === b.rowId &&
      a.topic === b.topic &&
      a.note === b.note &&
      a.state === b.state &&
      a.deletedWithin === b.deletedWithin &&
      a.marks.length === b.marks.length &&
      a.marks.every((m, i) => sameMark(m, b.marks[i])))
  );
}

/** Whether a visible row draws the same as before (its element can stay). */
export function sameRow(a: IVisibleRow, b: IVisibleRow): boolean {
  return (
    a.depth === b.depth &&
    a.hasChildren === b.hasChildren &&
    a.expanded === b.expanded &&
    a.hiddenMarks === b.hiddenMarks &&
    a.position === b.position &&
    a.siblings === b.siblings &&
    sameRange(a.topicMatch, b.topicMatch) &&
    sameRange(a.noteMatch, b.noteMatch) &&
    sameNode(a.node, b.node)
  );
}

interface IDrawn {
  row: IVisibleRow;
  /** Which of its suggestions were being decided when drawn (their buttons off). */
  busy: string;
  item: HTMLElement;
}

/** Rows per chunk: a chunk is laid out and painted on its own (CSS `contain`). */
export const CHUNK = 100;

/**
 * The elements of a tree's rows by key, in chunks of about `CHUNK` rows:
 * `update` makes the tree show `rows` in order, reusing the element of every
 * row that draws the same. The chunks (`role="none"`, CSS containment) are
 * why a fold is cheap to show: the rows below a fold move with their chunk,
 * so the browser moves a few dozen boxes instead of every row's.
 */
export class KeyedRows {
  constructor(
    private _list: HTMLElement,
    private _make: (row: IVisibleRow) => HTMLElement,
    private _isBusy: (suggestionId: string) => boolean
  ) {}

  /** The element of the row `key`, if it shows. */
  item(key: string): HTMLElement | undefined {
    return this._drawn.get(key)?.item;
  }

  update(rows: readonly IVisibleRow[]): void {
    const next = new Map<string, IDrawn>();
    const items: HTMLElement[] = [];
    let kept = 0;
    for (const row of rows) {
      const key = row.node.key;
      const busy = row.node.marks
        .map(m => (this._isBusy(m.suggestion.id) ? '1' : '0'))
        .join('');
      let drawn = this._drawn.get(key);
      if (drawn && drawn.busy === busy && sameRow(drawn.row, row)) {
        kept++;
      } else {
        drawn = { row, busy, item: this._make(row) };
      }
      next.set(key, drawn);
      items.push(drawn.item);
    }
    const before = this._drawn;
    this._drawn = next;
    if (kept === 0) {
      const chunks: HTMLElement[] = [];
      for (let i = 0; i < items.length; i += CHUNK) {
        chunks.push(this._chunk(items.slice(i, i + CHUNK)));
      }
      this._list.replaceChildren(...chunks);
      return;
    }
    for (const [key, drawn] of before) {
      if (next.get(key) !== drawn) {
        drawn.item.remove();
      }
    }
    // What is left is the kept elements in their old order: put each in place.
    let prev: HTMLElement | null = null;
    let at = this._after(null);
    for (const item of items) {
      if (item === at) {
        at = this._after(item);
      } else if (prev) {
        prev.after(item);
      } else {
        this._first().prepend(item);
      }
      prev = item;
    }
    this._balance();
  }

  private _chunk(items: HTMLElement[]): HTMLElement {
    const chunk = document.createElement('div');
    chunk.className = 'jp-McpLab-treeChunk';
    chunk.setAttribute('role', 'none');
    chunk.append(...items);
    return chunk;
  }

  private _first(): HTMLElement {
    const first = this._list.firstElementChild as HTMLElement | null;
    return first ?? this._list.appendChild(this._chunk([]));
  }

  /** The row element after `item` (null: the first), across chunks. */
  private _after(item: Element | null): Element | null {
    if (item?.nextElementSibling) {
      return item.nextElementSibling;
    }
    let chunk = item
      ? item.parentElement!.nextElementSibling
      : this._list.firstElementChild;
    while (chunk && !chunk.firstElementChild) {
      chunk = chunk.nextElementSibling;
    }
    return chunk?.firstElementChild ?? null;
  }

  /** Empty chunks go; a chunk grown past twice the size is split. */
  private _balance(): void {
    for (const chunk of [...this._list.children]) {
      const n = chunk.childElementCount;
      if (n === 0) {
        chunk.remove();
      } else if (n > 2 * CHUNK) {
        const rows = [...chunk.children] as HTMLElement[];
        const parts: HTMLElement[] = [];
        for (let i = CHUNK; i < n; i += CHUNK) {
          parts.push(this._chunk(rows.slice(i, i + CHUNK)));
        }
        chunk.after(...parts);
      }
    }
  }

  private _drawn = new Map<string, IDrawn>();
}
