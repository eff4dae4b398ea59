import type { ISuggestion } from '../api_types';
import {
  cellLocation,
  describeCellChange,
  firstLines,
  isCellSuggestion,
  sourceText
} from '../cell_change';
import { notebookSuggestions, placeMarks, TOP } from '../notebook_review_model';
import { groupByPath } from '../suggestions';
import { suggestionRecord } from './fakes';

/** A suggestion on cell `c1` of a.ipynb, as the review API lists it. */
function onCell(over: Partial<ISuggestion>): ISuggestion {
  return suggestionRecord({
    path: 'a.ipynb',
    part: 'c1',
    change: null,
    cell: { index: 2, cellType: 'code', outputCount: 2, tags: ['slow'] },
    ...over
  });
}

function change(
  op: 'insert' | 'delete' | 'move' | 'set',
  over: Partial<NonNullable<ISuggestion['change']>> = {}
): NonNullable<ISuggestion['change']> {
  return { op, after: null, index: 0, fields: {}, ...over };
}

describe('describeCellChange', () => {
  it('a source edit names the cell by its 1-based number and diffs in the cell', () => {
    const d = describeCellChange(onCell({ lineStart: 2, lineEnd: 2 }));
    expect(d.kind).toBe('source');
    expect(d.title).toBe('Cell 3 (code): source, line 2');
    expect(d.here).toBe('Source edit, line 2');
    expect(d.diff).toBe('inPart');
  });

  it('an inserted cell: after which cell, its type and its source', () => {
    const d = describeCellChange(
      onCell({
        cell: null,
        change: change('insert', {
          after: 'c0',
          index: 3,
          fields: { cell_type: 'markdown', source: ['# Title\n', 'text'] }
        })
      })
    );
    expect(d.title).toBe('Cell added after cell 3 (markdown)');
    expect(d.here).toBe('New markdown cell here');
    expect(d.diff).toEqual({ old: '', new: '# Title\ntext', more: 0 });
  });

  it('an inserted first cell goes at the top', () => {
    const d = describeCellChange(
      onCell({ cell: null, change: change('insert', { fields: {} }) })
    );
    expect(d.title).toBe('Cell added at the top (code)');
  });

  it('a removed cell shows its first lines and its outputs going', () => {
    const long = Array.from({ length: 9 }, (_, i) => `x${i}`).join('\n');
    const d = describeCellChange(
      onCell({ change: change('delete'), original: long })
    );
    expect(d.title).toBe('Cell 3 (code) removed');
    expect(d.details).toEqual(['Its 2 outputs go with it.']);
    expect(d.diff).toEqual({
      old: 'x0\nx1\nx2\nx3\nx4\nx5',
      new: '',
      more: 3
    });
  });

  it('a move says from where to where (1-based)', () => {
    const d = describeCellChange(
      onCell({ change: change('move', { after: 'c4', index: 4 }) })
    );
    expect(d.title).toBe('Cell moved from 3 to 5');
    expect(d.here).toBe('Move to position 5');
    expect(d.diff).toBeNull();
    const unknown = describeCellChange(
      onCell({ cell: null, change: change('move', { index: 0 }) })
    );
    expect(unknown.title).toBe('Cell moved to position 1');
    expect(unknown.here).toBe('Move to the top');
  });

  it('clearing outputs counts the outputs it clears', () => {
    const d = describeCellChange(
      onCell({
        change: change('set', {
          fields: { outputCount: 0, execution_count: null }
        })
      })
    );
    expect(d.title).toBe('Cell 3 (code): clears 2 outputs');
    expect(d.details).toEqual(['Its execution count is reset.']);
  });

  it('a type change says from which type to which', () => {
    const d = describeCellChange(
      onCell({ change: change('set', { fields: { cell_type: 'markdown' } }) })
    );
    expect(d.here).toBe('Type code → markdown');
    expect(d.title).toBe('Cell 3 (code): type code → markdown');
  });

  it('tags: before and after; other metadata: that it changed', () => {
    const tags = describeCellChange(
      onCell({
        change: change('set', { fields: { metadata: { tags: ['a', 'b'] } } })
      })
    );
    expect(tags.here).toBe('Tags changed');
    expect(tags.details).toEqual(['Tags: slow → a, b.']);
    const other = describeCellChange(
      onCell({
        change: change('set', {
          fields: { metadata: { tags: ['slow'], collapsed: true } }
        })
      })
    );
    expect(other.here).toBe('Metadata changed');
    expect(other.details).toEqual([]);
  });

  it('without the cell as it was (an old listing) it still reads', () => {
    const d = describeCellChange(
      onCell({
        cell: undefined,
        change: change('set', { fields: { outputCount: 0 } })
      })
    );
    expect(d.title).toBe('The cell: clears its outputs');
  });
});

describe('helpers', () => {
  it('firstLines cuts long texts and counts the rest', () => {
    expect(firstLines('a\nb\n', 2)).toEqual({ text: 'a\nb\n', more: 0 });
    expect(firstLines('a\nb\nc\nd', 2)).toEqual({ text: 'a\nb', more: 2 });
  });

  it('sourceText joins nbformat line lists', () => {
    expect(sourceText(['a\n', 'b'])).toBe('a\nb');
    expect(sourceText(42)).toBe('');
  });

  it('cell suggestions are the notebook ones with a part', () => {
    expect(isCellSuggestion(onCell({}))).toBe(true);
    expect(isCellSuggestion(onCell({ path: 'a.md', part: null }))).toBe(false);
    expect(cellLocation(onCell({}))).toBe('cell 3');
    expect(cellLocation(onCell({ change: change('insert') }))).toBe('new cell');
  });
});

describe('placeMarks', () => {
  const ids = ['a', 'b', 'c'];
  it('puts cell suggestions on their cells and inserts after their anchor', () => {
    const marks = placeMarks(
      [
        onCell({ id: 's1', part: 'b', created: 2 }),
        onCell({ id: 's0', part: 'b', created: 1 }),
        onCell({
          id: 'i1',
          part: 'new',
          change: change('insert', { after: 'c', index: 3 })
        }),
        onCell({ id: 'i0', part: 'top', change: change('insert') }),
        onCell({ id: 'gone', part: 'zzz' })
      ],
      ids
    );
    expect(marks.cells.get('b')!.map(s => s.id)).toEqual(['s0', 's1']);
    expect(marks.ghosts.get('c')!.map(s => s.id)).toEqual(['i1']);
    expect(marks.ghosts.get(TOP)!.map(s => s.id)).toEqual(['i0']);
    expect(marks.unplaced.map(s => s.id)).toEqual(['gone']);
  });

  it('an insert whose anchor cell is gone goes at its index', () => {
    const marks = placeMarks(
      [
        onCell({
          id: 'i',
          part: 'n',
          change: change('insert', { after: 'deleted', index: 2 })
        }),
        onCell({
          id: 'far',
          part: 'm',
          change: change('insert', { after: 'deleted', index: 9 })
        })
      ],
      ids
    );
    expect(marks.ghosts.get('b')!.map(s => s.id)).toEqual(['i']);
    expect(marks.ghosts.get('c')!.map(s => s.id)).toEqual(['far']);
  });

  it('notebookSuggestions keeps the cell suggestions of one path', () => {
    const groups = [
      {
        path: 'a.ipynb',
        suggestions: [onCell({ id: 'x' }), onCell({ id: 'y', part: null })]
      },
      { path: 'b.ipynb', suggestions: [onCell({ id: 'z' })] }
    ];
    expect(notebookSuggestions(groups, 'a.ipynb').map(s => s.id)).toEqual([
      'x'
    ]);
    expect(notebookSuggestions(groups, 'c.ipynb')).toEqual([]);
  });
});

describe('groupByPath for a notebook', () => {
  it('orders its suggestions by cell, an inserted cell before the one it pushes down', () => {
    const at = (index: number) => ({
      index,
      cellType: 'code' as const,
      outputCount: 0,
      tags: []
    });
    const [group] = groupByPath([
      onCell({ id: 'c4', cell: at(4), start: 0 }),
      onCell({ id: 'c1b', cell: at(1), start: 9 }),
      onCell({ id: 'c1a', cell: at(1), start: 2 }),
      onCell({ id: 'ins2', cell: null, change: change('insert', { index: 2 }) })
    ]);
    expect(group.suggestions.map(s => s.id)).toEqual([
      'c1a',
      'c1b',
      'ins2',
      'c4'
    ]);
  });
});
