/**
 * Where an open notebook shows its pending suggestions, the pure part: each
 * suggestion on a cell goes on that cell (by id, wherever it moved); an
 * inserted cell not yet accepted goes after the cell it follows, or at the
 * index it was given once that cell is gone, or at the top. Suggestions on
 * cells the notebook no longer has are left to the panel. No DOM imports.
 */
import type { ISuggestion } from './api_types';

/** The key of the ghost slot before the first cell. */
export const TOP = '';

/** The marks of one notebook, by cell id. */
export interface INotebookMarks {
  /** Suggestions on existing cells, by cell id, in the order they were made. */
  cells: Map<string, ISuggestion[]>;
  /** Inserted cells, by the id of the cell they come after (`TOP`: first). */
  ghosts: Map<string, ISuggestion[]>;
  /** Suggestions on cells this notebook does not have. */
  unplaced: ISuggestion[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) {
    list.push(value);
  } else {
    map.set(key, [value]);
  }
}

/** Place a notebook's pending cell suggestions on its cells (ids in order). */
export function placeMarks(
  suggestions: readonly ISuggestion[],
  cellIds: readonly string[]
): INotebookMarks {
  const marks: INotebookMarks = {
    cells: new Map(),
    ghosts: new Map(),
    unplaced: []
  };
  const present = new Set(cellIds);
  const ordered = [...suggestions].sort((a, b) => a.created - b.created);
  for (const s of ordered) {
    if (!s.part) {
      marks.unplaced.push(s);
      continue;
    }
    const change = s.change ?? null;
    if (change?.op === 'insert') {
      let anchor: string = TOP;
      if (change.after !== null && present.has(change.after)) {
        anchor = change.after;
      } else if (change.after !== null && change.index > 0) {
        anchor = cellIds[Math.min(change.index, cellIds.length) - 1] ?? TOP;
      }
      push(marks.ghosts, anchor, s);
    } else if (present.has(s.part)) {
      push(marks.cells, s.part, s);
    } else {
      marks.unplaced.push(s);
    }
  }
  return marks;
}

/** The pending suggestions of `path` (cell ones) among the panel's groups. */
export function notebookSuggestions(
  groups: readonly { path: string; suggestions: ISuggestion[] }[],
  path: string
): ISuggestion[] {
  return (groups.find(g => g.path === path)?.suggestions ?? []).filter(
    s => !!s.part
  );
}
