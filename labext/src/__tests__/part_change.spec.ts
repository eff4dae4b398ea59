import type { IOutlineRow, ISuggestion } from '../api_types';
import {
  describePartChange,
  isPartSuggestion,
  partKind,
  rowsToReveal
} from '../part_change';
import { rowIndex } from '../row_change';
import { lineRange, rejectedText } from '../suggestions';
import { suggestionRecord } from './fakes';

/** A suggestion on row `r5` of plan.opml, as the review API lists it. */
function onRow(over: Partial<ISuggestion>): ISuggestion {
  return suggestionRecord({
    id: 'sg1',
    path: 'plan.opml',
    part: 'r5',
    original: 'Tag v1.0',
    new: 'Tag v1.0',
    change: null,
    ...over
  });
}

function change(
  op: 'insert' | 'delete' | 'move' | 'set',
  fields: Record<string, unknown>,
  over: Partial<NonNullable<ISuggestion['change']>> = {}
): NonNullable<ISuggestion['change']> {
  return { op, after: null, index: 0, fields, ...over };
}

function outlineRow(
  id: string,
  topic: string,
  parent: string | null,
  children: string[] = [],
  note: string | null = null
): IOutlineRow {
  return { id, topic, note, state: 'none', level: 0, parent, children };
}

/** Research (r1) holds Tag v1.0 (r5), which holds three rows below it. */
const ROWS = rowIndex([
  outlineRow('r1', 'Research', null, ['r5']),
  outlineRow('r5', 'Tag v1.0', 'r1', ['r6', 'r7'], 'the old note'),
  outlineRow('r6', 'Build', 'r5', ['r8']),
  outlineRow('r7', 'Ship', 'r5'),
  outlineRow('r8', 'Wheels', 'r6'),
  outlineRow('r9', 'Ideas', null)
]);

describe('describePartChange: outline rows', () => {
  it('tells the kinds of part apart by document and part', () => {
    expect(partKind(onRow({}))).toBe('row');
    expect(partKind(onRow({ path: 'a.ipynb' }))).toBe('cell');
    expect(partKind(onRow({ path: 'a.md', part: null }))).toBeNull();
    expect(isPartSuggestion(onRow({ part: null }))).toBe(false);
    expect(describePartChange(onRow({ path: 'a.md', part: null }))).toBeNull();
  });

  it('an added row: under which row, its topic, the rows nested in it', () => {
    const s = onRow({
      part: 'n1',
      original: '',
      new: 'Tag v1.1',
      change: change('insert', {
        parent: 'r1',
        topic: 'Tag v1.1',
        note: 'after the pilot',
        children: [{ id: 'n2', topic: 'Notes', children: [] }]
      })
    });
    const d = describePartChange(s, ROWS)!;
    expect(d.kind).toBe('insert');
    expect(d.title).toBe("Row added under 'Research': 'Tag v1.1'");
    expect(d.details).toEqual([
      'With 1 row below it.',
      'Note: after the pilot'
    ]);
    expect(d.diff).toEqual({ old: '', new: 'Tag v1.1\n  Notes', more: 0 });
    expect(d.location).toBe("new row 'Tag v1.1'");
    // Without the outline's rows its parent cannot be named; at the top it can.
    expect(describePartChange(s)!.title).toBe("Row added: 'Tag v1.1'");
    const top = onRow({
      original: '',
      change: change('insert', { parent: null, topic: 'Top' })
    });
    expect(describePartChange(top)!.title).toBe(
      "Row added at the top level: 'Top'"
    );
  });

  it('a move names the row and where it goes, and has no text diff', () => {
    const s = onRow({
      change: change('move', { parent: 'r9', topic: 'Tag v1.0' })
    });
    const d = describePartChange(s, ROWS)!;
    expect(d.title).toBe("Row 'Tag v1.0' moved under 'Ideas'");
    expect(d.diff).toBeNull();
    expect(describePartChange(s)!.title).toBe("Row 'Tag v1.0' moved");
  });

  it('a delete counts the rows that go with it', () => {
    const s = onRow({
      new: '',
      change: change('delete', { topic: 'Tag v1.0' })
    });
    expect(describePartChange(s, ROWS)!.title).toBe(
      "Row 'Tag v1.0' deleted (with 3 rows below it)"
    );
    expect(describePartChange(s)!.title).toBe("Row 'Tag v1.0' deleted");
    const leaf = onRow({
      part: 'r7',
      original: 'Ship',
      change: change('delete', {})
    });
    expect(describePartChange(leaf, ROWS)!.title).toBe("Row 'Ship' deleted");
  });

  it('a topic, a checkbox and a note, said in one line', () => {
    const topic = onRow({
      new: 'Study',
      change: change('set', { topic: 'Study' })
    });
    const d = describePartChange(topic, ROWS)!;
    expect(d.title).toBe("Topic 'Tag v1.0' → 'Study'");
    expect(d.diff).toEqual({ old: 'Tag v1.0', new: 'Study', more: 0 });
    const checked = onRow({ change: change('set', { state: 'checked' }) });
    expect(describePartChange(checked)!.title).toBe("Checked 'Tag v1.0'");
    expect(describePartChange(checked)!.diff).toBeNull();
    const both = onRow({
      new: 'Study',
      change: change('set', { topic: 'Study', state: 'unchecked' })
    });
    expect(describePartChange(both)!.title).toBe(
      "Topic 'Tag v1.0' → 'Study'; unchecked 'Tag v1.0'"
    );
    const note = onRow({ change: change('set', { note: 'the new note' }) });
    const n = describePartChange(note, ROWS)!;
    expect(n.title).toBe("Note changed on 'Tag v1.0'");
    expect(n.diff).toEqual({
      old: 'the old note',
      new: 'the new note',
      more: 0
    });
    const gone = onRow({ change: change('set', { note: '' }) });
    expect(describePartChange(gone, ROWS)!.title).toBe(
      "Note removed from 'Tag v1.0'"
    );
    const added = onRow({
      part: 'r9',
      original: 'Ideas',
      change: change('set', { note: 'x' })
    });
    expect(describePartChange(added, ROWS)!.title).toBe(
      "Note added on 'Ideas'"
    );
  });

  it('a long topic is cut in the title; a text edit of a topic diffs in place', () => {
    const long = 'A very long topic that goes on and on past forty characters';
    const d = describePartChange(
      onRow({ original: long, change: change('set', { state: 'checked' }) })
    )!;
    expect(d.title).toBe("Checked 'A very long topic that goes on and on p…'");
    const edit = describePartChange(onRow({ new: 'Tag v2.0' }))!;
    expect(edit.kind).toBe('topic');
    expect(edit.diff).toBe('inPart');
  });

  it('names the row where a text says "line 3": the card, the undo notice', () => {
    const moved = onRow({ change: change('move', { parent: 'r9' }) });
    expect(lineRange(moved)).toBe("row 'Tag v1.0'");
    expect(rejectedText([moved])).toBe(
      "Rejected: Row 'Tag v1.0' moved (plan.opml)"
    );
    expect(
      lineRange(
        onRow({ original: '', change: change('insert', { topic: 'New' }) })
      )
    ).toBe("new row 'New'");
    // A text suggestion keeps its lines.
    const text = suggestionRecord({
      lineStart: 3,
      original: 'brown',
      new: 'red'
    });
    expect(rejectedText([text])).toBe(
      'Rejected "brown" → "red" (a.md, line 3)'
    );
  });

  it('shows the row in the tree: itself, or an added one (else its parent)', () => {
    expect(rowsToReveal(onRow({}))).toEqual(['r5']);
    const added = onRow({
      change: change('insert', { parent: 'r1', topic: 'x' })
    });
    expect(rowsToReveal(added)).toEqual(['+sg1:0', 'r1']);
    expect(rowsToReveal(onRow({ path: 'a.ipynb' }))).toEqual([]);
  });
});

describe('describePartChange: notebook cells', () => {
  const cell = (over: Partial<ISuggestion>) =>
    suggestionRecord({
      path: 'a.ipynb',
      part: 'c1',
      change: null,
      cell: { index: 2, cellType: 'code', outputCount: 2, tags: [] },
      ...over
    });

  it('describes a cell through the cell describer, with its location', () => {
    const d = describePartChange(
      cell({ change: change('move', {}, { index: 4 }) })
    )!;
    expect(d.title).toBe('Cell moved from 3 to 5');
    expect(d.location).toBe('cell 3');
    expect(d.partId).toBe('c1');
    expect(describePartChange(cell({ lineStart: 2, lineEnd: 2 }))!.diff).toBe(
      'inPart'
    );
    expect(rejectedText([cell({ change: change('delete', {}) })])).toBe(
      'Rejected: Cell 3 (code) removed (a.ipynb)'
    );
  });
});
