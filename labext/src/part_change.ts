/**
 * A suggestion on one part of a structured document, described by the kind of
 * part it changes: a notebook's cell (cell_change.ts) or an outline's row
 * (row_change.ts). The panel's cards, the undo notice and the reveal ask here,
 * so each kind of part is told apart in one place. No DOM.
 */
import type { ISuggestion } from './api_types';
import {
  cellLocation,
  describeCellChange,
  isCellSuggestion
} from './cell_change';
import { describeRowChange, IRowIndex, isRowSuggestion } from './row_change';

export type { IRowIndex };

/** What a part suggestion's description holds, whatever its part. */
export interface IPartSummary {
  kind: string;
  /** The part's id (the suggestion's `part`). */
  partId: string;
  /** What the card's location link says: "cell 3", "row 'Research'". */
  location: string;
  /** One line: "Cell 2 moved to 5", "Row 'X' moved under 'Y'". */
  title: string;
  /** More to say, each a short sentence. */
  details: string[];
  /**
   * The text diff to draw: `inPart` the suggestion's own range in the part's
   * text (with its context: draw it as a text suggestion); `{old, new}` whole
   * texts (an added or removed part, cut, `more` lines left out); null: none
   * (a move, a checkbox).
   */
  diff: 'inPart' | { old: string; new: string; more: number } | null;
}

/** The kind of part a suggestion changes; null for a text suggestion. */
export function partKind(s: ISuggestion): 'cell' | 'row' | null {
  if (isCellSuggestion(s)) {
    return 'cell';
  }
  return isRowSuggestion(s) ? 'row' : null;
}

/** Whether the review UIs show the suggestion as a part's change. */
export function isPartSuggestion(s: ISuggestion): boolean {
  return partKind(s) !== null;
}

/**
 * The description of a part suggestion (null for a text one). `rows`: the
 * outline's rows as they are now, to name a row's parent and count its
 * subtree (without, a row's change is told by its own topic only).
 */
export function describePartChange(
  s: ISuggestion,
  rows?: IRowIndex | null
): IPartSummary | null {
  const kind = partKind(s);
  if (kind === 'row') {
    return describeRowChange(s, rows);
  }
  if (kind === 'cell') {
    const cell = describeCellChange(s);
    return {
      kind: cell.kind,
      partId: cell.cellId,
      location: cellLocation(s),
      title: cell.title,
      details: cell.details,
      diff: cell.diff
    };
  }
  return null;
}

/** Where a part suggestion is, for sentences: "cell 3", "row 'Research'". */
export function partLocation(s: ISuggestion): string | null {
  return describePartChange(s)?.location ?? null;
}

/**
 * The tree view's rows a click on a row suggestion's card shows, the first
 * there wins: the row itself; for an added one its ghost row (the tree's key
 * `+<suggestion id>:0`, outline_tree_rows.ts), then the row it goes under.
 */
export function rowsToReveal(s: ISuggestion): string[] {
  if (partKind(s) !== 'row' || !s.part) {
    return [];
  }
  if (s.change?.op === 'insert') {
    const parent = s.change.fields.parent;
    return [`+${s.id}:0`, ...(typeof parent === 'string' ? [parent] : [])];
  }
  return [s.part];
}
