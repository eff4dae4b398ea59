import type { ICheckpoint, ICheckpointCellChange } from '../api_types';
import {
  cellSuggestion,
  checkpointCells,
  checkpointWhere,
  moreCells
} from '../checkpoint_cells';
import { describePartChange } from '../part_change';

/** A checkpoint of a.ipynb as `GET checkpoints` lists it. */
function checkpoint(over: Partial<ICheckpoint> = {}): ICheckpoint {
  return {
    id: 'cp-1',
    path: 'a.ipynb',
    beforeRevision: 'r1',
    afterRevision: 'r2',
    start: 120,
    old: '"import math\\n",',
    new: '"import cmath\\n",',
    author: 'agent',
    user: 'me',
    session: 's',
    source: 'accepted',
    suggestionId: null,
    grantId: null,
    created: 1000,
    revertedBy: null,
    label: 'accepted by me',
    rationale: '',
    cells: null,
    lineStart: 31,
    lineEnd: 31,
    ...over
  };
}

function cellChange(
  over: Partial<ICheckpointCellChange>
): ICheckpointCellChange {
  return {
    part: 'load',
    change: null,
    cell: { index: 1, cellType: 'code', outputCount: 1, tags: [] },
    original: '',
    new: '',
    lineStart: 1,
    lineEnd: 1,
    contextBefore: '',
    contextAfter: '',
    ...over
  };
}

// What the server recorded for one accept-all: a source edit, an added cell,
// a removed one, a move and cleared outputs (tests/server/api/test_checkpoints_cells.py).
const EDIT = cellChange({
  original: 'import math\n',
  new: 'import cmath\n',
  contextAfter: "print('hi')"
});
const ADDED = cellChange({
  part: 'new1',
  cell: null,
  change: {
    op: 'insert',
    after: 'boom',
    index: 1,
    fields: { cell_type: 'code', source: 'x = 1\ny = 2', outputCount: 0 }
  },
  new: 'x = 1\ny = 2'
});
const REMOVED = cellChange({
  part: 'intro',
  cell: { index: 0, cellType: 'markdown', outputCount: 0, tags: [] },
  change: { op: 'delete', after: null, index: 0, fields: {} },
  original: '# Analysis\n\nSome text.'
});
const MOVED = cellChange({
  part: 'boom',
  cell: { index: 3, cellType: 'code', outputCount: 1, tags: [] },
  change: { op: 'move', after: null, index: 0, fields: {} }
});
const CLEARED = cellChange({
  part: 'plot',
  cell: { index: 2, cellType: 'code', outputCount: 2, tags: [] },
  change: {
    op: 'set',
    after: null,
    index: 3,
    fields: { outputCount: 0, execution_count: null }
  }
});

function titles(cp: ICheckpoint): string[] {
  return checkpointCells(cp).map(s => describePartChange(s)!.title);
}

describe('a notebook checkpoint told by cell', () => {
  it('describes each cell as the pending cards do', () => {
    const cp = checkpoint({
      cells: { changes: [MOVED, ADDED, REMOVED, EDIT, CLEARED], more: 0 }
    });
    expect(titles(cp)).toEqual([
      'Cell moved from 4 to 1',
      'Cell added after cell 1 (code)',
      'Cell 1 (markdown) removed',
      'Cell 2 (code): source, line 1',
      'Cell 3 (code): clears 2 outputs'
    ]);
    const [, added, removed, edited] = checkpointCells(cp);
    // The diffs: a source edit's lines in the cell, an added or removed cell's text.
    expect(describePartChange(edited)!.diff).toBe('inPart');
    expect([edited.original, edited.new, edited.contextAfter]).toEqual([
      'import math\n',
      'import cmath\n',
      "print('hi')"
    ]);
    expect(describePartChange(added)!.diff).toEqual({
      old: '',
      new: 'x = 1\ny = 2',
      more: 0
    });
    expect(describePartChange(removed)!.diff).toEqual({
      old: '# Analysis\n\nSome text.',
      new: '',
      more: 0
    });
    expect(describePartChange(removed)!.details).toEqual([]);
  });

  it('says where: the cell, how many cells, or the lines of other documents', () => {
    expect(
      checkpointWhere(checkpoint({ cells: { changes: [EDIT], more: 0 } }))
    ).toBe('cell 2');
    expect(
      checkpointWhere(checkpoint({ cells: { changes: [ADDED], more: 0 } }))
    ).toBe('new cell');
    // A cell moved and edited is one cell; those left out of the list count.
    const moved = cellChange({ ...MOVED, part: 'load', cell: EDIT.cell });
    expect(
      checkpointWhere(
        checkpoint({ cells: { changes: [moved, EDIT], more: 0 } })
      )
    ).toBe('cell 2');
    const many = checkpoint({ cells: { changes: [EDIT, CLEARED], more: 3 } });
    expect(checkpointWhere(many)).toBe('5 cells');
    expect(moreCells(many)).toBe('… and 3 more cell changes');
    expect(moreCells(checkpoint({ cells: { changes: [EDIT], more: 1 } }))).toBe(
      '… and 1 more cell change'
    );
    // Not told by cell (a text file, or a checkpoint from before): its lines.
    expect(checkpointWhere(checkpoint({ path: 'a.md' }))).toBe('line 31');
    expect(checkpointCells(checkpoint())).toEqual([]);
    expect(moreCells(checkpoint())).toBeNull();
  });

  it('keeps the checkpoint as the record it belongs to', () => {
    const s = cellSuggestion(checkpoint(), EDIT, 3);
    expect([s.id, s.path, s.status, s.author, s.part]).toEqual([
      'cp-1:3',
      'a.ipynb',
      'accepted',
      'agent',
      'load'
    ]);
    expect([s.start, s.end, s.lineStart, s.lineEnd]).toEqual([0, 12, 1, 1]);
  });

  it('tells stored outputs from cleared ones', () => {
    const ran = cellChange({
      change: {
        op: 'set',
        after: null,
        index: 1,
        fields: { outputCount: 2, execution_count: 4 }
      }
    });
    expect(titles(checkpoint({ cells: { changes: [ran], more: 0 } }))).toEqual([
      'Cell 2 (code): new outputs (2)'
    ]);
  });
});
