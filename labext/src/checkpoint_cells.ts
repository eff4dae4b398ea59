/**
 * A notebook checkpoint told by cell, the pure part: the server records which
 * cells an applied change touched (`cells`, in the shape of a cell
 * suggestion's fields), and each becomes a suggestion record here, so the
 * pending cards' cell-change code (cell_change.ts, part_change.ts) describes
 * and draws it: "Cell 3 (code): source, line 1", "Cell added after cell 2".
 * No DOM.
 */
import type {
  ICheckpoint,
  ICheckpointCellChange,
  ISuggestion
} from './api_types';
import { checkpointLines } from './checkpoints_model';
import { describePartChange } from './part_change';

/** One cell change of `cp` as the accepted suggestion it amounts to. */
export function cellSuggestion(
  cp: ICheckpoint,
  cell: ICheckpointCellChange,
  n: number
): ISuggestion {
  return {
    id: `${cp.id}:${n}`,
    path: cp.path,
    kind: cell.change?.op ?? 'replace',
    start: 0,
    end: cell.original.length,
    original: cell.original,
    new: cell.new,
    baseRevision: cp.beforeRevision,
    author: cp.author,
    user: cp.user,
    session: cp.session,
    rationale: '',
    operation: cp.label,
    group: null,
    created: cp.created,
    status: 'accepted',
    decided: cp.created,
    decidedBy: null,
    resultRevision: cp.afterRevision,
    reason: null,
    lineStart: cell.lineStart,
    lineEnd: cell.lineEnd,
    part: cell.part,
    change: cell.change,
    cell: cell.cell,
    contextBefore: cell.contextBefore,
    contextAfter: cell.contextAfter
  };
}

/** The cell changes of a checkpoint (none for other documents, or old ones). */
export function checkpointCells(cp: ICheckpoint): ISuggestion[] {
  return (cp.cells?.changes ?? []).map((c, n) => cellSuggestion(cp, c, n));
}

/** How many cells a checkpoint changed, counting those left out of the list. */
function cellCount(cp: ICheckpoint): number {
  const parts = new Set((cp.cells?.changes ?? []).map(c => c.part));
  return parts.size + (cp.cells?.more ?? 0);
}

/**
 * Where a checkpoint changed its document, for its row and its revert
 * dialog: "cell 3", "new cell", "4 cells" for a notebook told by cell, else
 * its lines ("lines 3–5").
 */
export function checkpointWhere(cp: ICheckpoint): string {
  const cells = checkpointCells(cp);
  if (cells.length === 0) {
    return checkpointLines(cp);
  }
  const count = cellCount(cp);
  return count === 1
    ? (describePartChange(cells[0])?.location ?? 'cell')
    : `${count} cells`;
}

/** "… and 3 more cell changes" when the server listed only the first ones. */
export function moreCells(cp: ICheckpoint): string | null {
  const more = cp.cells?.more ?? 0;
  return more > 0
    ? `… and ${more} more cell change${more === 1 ? '' : 's'}`
    : null;
}
