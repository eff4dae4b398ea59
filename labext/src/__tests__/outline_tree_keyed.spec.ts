import type { IOutlineRow, ISuggestion } from '../api_types';
import { sameRow } from '../outline_tree_keyed';
import { buildTree, IPendingSuggestion } from '../outline_tree_rows';
import { IVisibleRow, visibleRows } from '../outline_tree_visible';
import { suggestionRecord } from './fakes';

/** Three sections of three parts of two items: 21 rows. */
function rows(): IOutlineRow[] {
  const out: IOutlineRow[] = [];
  const add = (id: string, parent: string | null, level: number) => {
    out.push({
      id,
      topic: `Topic ${id}`,
      note: level === 1 ? `note of ${id}` : null,
      state: level === 2 ? 'unchecked' : 'none',
      level,
      parent,
      children: []
    });
    if (parent !== null) {
      out.find(r => r.id === parent)!.children.push(id);
    }
  };
  for (const s of ['a', 'b', 'c']) {
    add(s, null, 0);
    for (const p of [1, 2]) {
      add(`${s}${p}`, s, 1);
      for (const i of [1, 2]) {
        add(`${s}${p}.${i}`, `${s}${p}`, 2);
      }
    }
  }
  return out;
}

function suggestion(
  id: string,
  part: string,
  change: ISuggestion['change'],
  over: Partial<ISuggestion> = {}
): IPendingSuggestion {
  const s = suggestionRecord({
    id,
    path: 'plan.opml',
    part,
    change,
    original: '',
    new: '',
    ...over
  });
  return { suggestion: s, stale: false };
}

/** The keys of the rows of `after` that would be drawn again (not the same as in `before`). */
function redrawn(
  before: readonly IVisibleRow[],
  after: readonly IVisibleRow[]
): string[] {
  const old = new Map(before.map(r => [r.node.key, r]));
  return after
    .filter(r => {
      const was = old.get(r.node.key);
      return was === undefined || !sameRow(was, r);
    })
    .map(r => r.node.key);
}

describe('sameRow: what a change redraws', () => {
  const tree = buildTree(rows(), []);
  const all = visibleRows(tree, new Set(), '');

  it('redraws only the folded row on a fold, and the rows shown again on an unfold', () => {
    const folded = visibleRows(tree, new Set(['b1']), '');
    expect(folded.length).toBe(all.length - 2);
    expect(redrawn(all, folded)).toEqual(['b1']);
    expect(redrawn(folded, all)).toEqual(['b1', 'b1.1', 'b1.2']);
  });

  it('keeps every row when the rows are read again unchanged (new objects)', () => {
    const again = visibleRows(buildTree(rows(), []), new Set(), '');
    expect(again[0].node).not.toBe(all[0].node);
    expect(redrawn(all, again)).toEqual([]);
  });

  it('redraws the one row a suggestion or a new state touches', () => {
    const set = suggestion('s1', 'b2.1', {
      op: 'set',
      after: null,
      index: 0,
      fields: { state: 'checked' }
    });
    const marked = visibleRows(buildTree(rows(), [set]), new Set(), '');
    expect(redrawn(all, marked)).toEqual(['b2.1']);
    // Stale now, or another rationale: drawn again.
    const stale = visibleRows(
      buildTree(rows(), [{ ...set, stale: true }]),
      new Set(),
      ''
    );
    expect(redrawn(marked, stale)).toEqual(['b2.1']);
    const why = suggestion('s1', 'b2.1', set.suggestion.change, {
      rationale: 'done'
    });
    expect(
      redrawn(marked, visibleRows(buildTree(rows(), [why]), new Set(), ''))
    ).toEqual(['b2.1']);
    // A checkbox ticked in the file: that row only.
    const ticked = rows();
    ticked.find(r => r.id === 'c1.2')!.state = 'checked';
    expect(
      redrawn(all, visibleRows(buildTree(ticked, []), new Set(), ''))
    ).toEqual(['c1.2']);
  });

  it('redraws a folded row when a suggestion under it comes or goes', () => {
    const folded = visibleRows(tree, new Set(['a']), '');
    const del = suggestion('s2', 'a1.2', {
      op: 'delete',
      after: null,
      index: 0,
      fields: {}
    });
    const marked = visibleRows(buildTree(rows(), [del]), new Set(['a']), '');
    expect(marked[0].hiddenMarks).toBe(1);
    expect(redrawn(folded, marked)).toEqual(['a']);
  });

  it('redraws an added row and the siblings whose position it changes', () => {
    const add = suggestion('s3', 'new-1', {
      op: 'insert',
      after: 'c1',
      index: 1,
      fields: { topic: 'New part', parent: 'c' }
    });
    const added = visibleRows(buildTree(rows(), [add]), new Set(), '');
    // c1 and c2 are 1 and 3 of 3 now (aria-setsize), the ghost is new.
    expect(redrawn(all, added)).toEqual(['c1', '+s3:0', 'c2']);
  });

  it('redraws the rows whose search highlight changes', () => {
    const found = visibleRows(tree, new Set(), 'Topic b1.');
    expect(found.map(r => r.node.key)).toEqual(['b', 'b1', 'b1.1', 'b1.2']);
    const narrower = visibleRows(tree, new Set(), 'Topic b1.2');
    expect(narrower.map(r => r.node.key)).toEqual(['b', 'b1', 'b1.2']);
    // b1.2: a longer highlight (and 1 of 1 now); b and b1 stay as they were.
    expect(redrawn(found, narrower)).toEqual(['b1.2']);
    expect(narrower[2].topicMatch).toEqual([0, 10]);
  });
});
