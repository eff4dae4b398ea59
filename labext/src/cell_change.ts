/**
 * A notebook suggestion as a cell-level change, the pure part: a suggestion's
 * `part` (the cell id), `change` (insert, delete, move, set) and `cell` (the
 * cell as it was: index, type, outputs, tags) become what a reviewer reads,
 * "Cell added after cell 3 (code)", "Cell 2 moved to 5", "Clears 2 outputs",
 * with the texts the diff shows. The panel's cards and the marks in the open
 * notebook draw it (cell_change_view.ts). No DOM or JupyterLab imports.
 *
 * Cells are numbered from 1 here, as a person counts them (the agents' tools
 * count from 0).
 */
import type { ISuggestion } from './api_types';

/** What a cell suggestion does. */
export type CellChangeKind =
  'source' | 'insert' | 'delete' | 'move' | 'set' | 'none';

/** A cell suggestion as the review UIs show it. */
export interface ICellChange {
  kind: CellChangeKind;
  /** The cell's id (the suggestion's `part`). */
  cellId: string;
  /** "Cell 3 (code)", "Cell added after cell 3 (code)", "Cell 2 moved to 5". */
  title: string;
  /** The same said of the cell it is shown on: "Source edit", "Move to position 5". */
  here: string;
  /** More to say, each a short sentence: "Clears 2 outputs.", "Tags: a → a, b." */
  details: string[];
  /**
   * The text diff to draw: `inPart` the suggestion's own range in the cell's
   * source (with its context: draw it as a text suggestion); `lines` whole
   * texts old → new (an added or removed cell, cut to `MAX_LINES`); null: none.
   */
  diff: 'inPart' | { old: string; new: string; more: number } | null;
}

/** How many lines of an added or removed cell are shown. */
export const MAX_LINES = 6;

/** A cell's source as a string (nbformat stores it as a string or as lines). */
export function sourceText(source: unknown): string {
  if (Array.isArray(source)) {
    return source.map(String).join('');
  }
  return typeof source === 'string' ? source : '';
}

/** The first `max` lines of `text` and how many more there are. */
export function firstLines(
  text: string,
  max = MAX_LINES
): { text: string; more: number } {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') {
    lines.pop(); // a final line break ends the last line
  }
  if (lines.length <= max) {
    return { text, more: 0 };
  }
  return { text: lines.slice(0, max).join('\n'), more: lines.length - max };
}

/** "1 output", "2 outputs". */
export function outputs(n: number): string {
  return `${n} output${n === 1 ? '' : 's'}`;
}

/** Whether a suggestion changes a notebook cell (rather than a text's range). */
export function isCellSuggestion(s: ISuggestion): boolean {
  return !!s.part && s.path.endsWith('.ipynb');
}

/** "cell 3" from a 0-based index; "the cell" when it is not known. */
export function cellName(index: number | null | undefined): string {
  return typeof index === 'number' ? `cell ${index + 1}` : 'the cell';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function tagList(tags: readonly string[]): string {
  return tags.length ? tags.join(', ') : 'none';
}

function tagsOf(metadata: unknown): string[] {
  const tags = (metadata as { tags?: unknown } | null)?.tags;
  return Array.isArray(tags) ? tags.map(String) : [];
}

/** What setting `fields` on the cell does, in short sentences. */
function setDetails(
  s: ISuggestion,
  fields: Record<string, unknown>
): { here: string[]; details: string[] } {
  const here: string[] = [];
  const details: string[] = [];
  const cell = s.cell ?? null;
  if (typeof fields.cell_type === 'string') {
    here.push(
      cell
        ? `Type ${cell.cellType} → ${fields.cell_type}`
        : `Type → ${fields.cell_type}`
    );
  }
  if ('metadata' in fields) {
    const before = cell?.tags ?? null;
    const after = tagsOf(fields.metadata);
    if (before !== null && before.join('\n') !== after.join('\n')) {
      here.push('Tags changed');
      details.push(`Tags: ${tagList(before)} → ${tagList(after)}.`);
    } else if (before === null && after.length) {
      here.push('Metadata changed');
      details.push(`Tags: ${tagList(after)}.`);
    } else {
      here.push('Metadata changed');
    }
  }
  if ('outputCount' in fields) {
    const now = cell?.outputCount;
    const count = Number(fields.outputCount);
    if (count > 0) {
      // Outputs stored (a checkpoint of a run, or of a whole-notebook write).
      here.push(`New outputs (${count})`);
    } else {
      here.push(
        typeof now === 'number'
          ? `Clears ${outputs(now)}`
          : 'Clears its outputs'
      );
    }
    if (fields.execution_count === null) {
      details.push('Its execution count is reset.');
    }
  }
  return { here, details };
}

/** The cell-level description of a notebook suggestion. */
export function describeCellChange(s: ISuggestion): ICellChange {
  const cellId = s.part ?? '';
  const cell = s.cell ?? null;
  const type = cell ? ` (${cell.cellType})` : '';
  const name = capital(cellName(cell?.index));
  const change = s.change ?? null;
  if (!change) {
    const lines =
      s.lineEnd > s.lineStart
        ? `lines ${s.lineStart}–${s.lineEnd}`
        : `line ${s.lineStart}`;
    return {
      kind: 'source',
      cellId,
      title: `${name}${type}: source, ${lines}`,
      here: `Source edit, ${lines}`,
      details: [],
      diff: 'inPart'
    };
  }
  const fields = change.fields ?? {};
  if (change.op === 'insert') {
    const newType = String(fields.cell_type ?? 'code');
    const where =
      change.after === null ? 'at the top' : `after cell ${change.index}`;
    const shown = firstLines(sourceText(fields.source));
    const details: string[] = [];
    const count = Number(fields.outputCount ?? 0);
    if (count > 0) {
      details.push(`With ${outputs(count)}.`);
    }
    return {
      kind: 'insert',
      cellId,
      title: `Cell added ${where} (${newType})`,
      here: `New ${newType} cell ${change.after === null ? 'at the top' : 'here'}`,
      details,
      diff: { old: '', new: shown.text, more: shown.more }
    };
  }
  if (change.op === 'delete') {
    const shown = firstLines(s.original);
    const details =
      cell && cell.outputCount > 0
        ? [`Its ${outputs(cell.outputCount)} go with it.`]
        : [];
    return {
      kind: 'delete',
      cellId,
      title: `${name}${type} removed`,
      here: 'Remove this cell',
      details,
      diff: { old: shown.text, new: '', more: shown.more }
    };
  }
  if (change.op === 'move') {
    const to = change.index + 1;
    return {
      kind: 'move',
      cellId,
      title: cell
        ? `Cell moved from ${cell.index + 1} to ${to}`
        : `Cell moved to position ${to}`,
      here:
        change.after === null ? 'Move to the top' : `Move to position ${to}`,
      details: [],
      diff: null
    };
  }
  if (change.op === 'set') {
    const { here, details } = setDetails(s, fields);
    const what = here.length ? here.join('; ') : 'Fields changed';
    return {
      kind: 'set',
      cellId,
      title: `${name}${type}: ${what.charAt(0).toLowerCase()}${what.slice(1)}`,
      here: what,
      details,
      diff: null
    };
  }
  return {
    kind: 'none',
    cellId,
    title: `${name}${type}`,
    here: 'Change',
    details: [],
    diff: null
  };
}

/**
 * Where an inserted cell shows before it is accepted: after the cell it
 * follows (`after`), or first (null).
 */
export function insertAnchor(s: ISuggestion): string | null | undefined {
  return s.change?.op === 'insert' ? s.change.after : undefined;
}

/** The card's location link text: "cell 3", "new cell". */
export function cellLocation(s: ISuggestion): string {
  return s.change?.op === 'insert' ? 'new cell' : cellName(s.cell?.index);
}
