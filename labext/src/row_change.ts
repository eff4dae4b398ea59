/**
 * An outline (OPML) suggestion as a row-level change, the pure part: a
 * suggestion's `part` (the row id) and `change` (insert, delete, move, set
 * with `topic`, `parent`, `note`, `state`, `children` fields) become what a
 * reviewer reads: "Row added under 'Research': 'Tag v1.1'", "Topic 'Research'
 * → 'Study'", "Row 'X' moved under 'Y'", "Row 'X' deleted (with 3 rows below
 * it)", "Checked 'X'". A suggestion names rows by id only, so the topics of
 * other rows (a parent) and a row's subtree come from the outline as it is
 * now (`IRowIndex`, from `GET outline`), when known. No DOM.
 */
import type { IOutlineRow, ISuggestion } from './api_types';
import { firstLines } from './cell_change';
import type { IPartSummary } from './part_change';

/** What a row suggestion does. */
export type RowChangeKind =
  'topic' | 'insert' | 'delete' | 'move' | 'set' | 'none';

/** A row suggestion as the review UIs show it. */
export interface IRowChange extends IPartSummary {
  kind: RowChangeKind;
}

/** What the describer may know of the outline's other rows. */
export interface IRowIndex {
  topic(id: string): string | undefined;
  /** How many rows are below it (its whole subtree). */
  below(id: string): number | undefined;
  note(id: string): string | null | undefined;
}

/** An outline's rows (`GET outline`'s `rows`) as an index. */
export function rowIndex(rows: readonly IOutlineRow[]): IRowIndex {
  const byId = new Map(rows.map(row => [row.id, row]));
  const count = (id: string): number => {
    let n = 0;
    const stack = [...(byId.get(id)?.children ?? [])];
    while (stack.length) {
      n++;
      stack.push(...(byId.get(stack.pop()!)?.children ?? []));
    }
    return n;
  };
  return {
    topic: id => byId.get(id)?.topic,
    below: id => (byId.has(id) ? count(id) : undefined),
    note: id => byId.get(id)?.note
  };
}

/** Whether a suggestion changes an outline row (an .opml file's part). */
export function isRowSuggestion(s: ISuggestion): boolean {
  return !!s.part && s.path.toLowerCase().endsWith('.opml');
}

/** A topic quoted and cut for a sentence: 'Research'. */
export function quoted(topic: string, max = 40): string {
  const line = topic.replace(/\s+/g, ' ').trim() || '(untitled)';
  return `'${line.length > max ? `${line.slice(0, max - 1)}…` : line}'`;
}

function rowCount(n: number): string {
  return `${n} row${n === 1 ? '' : 's'}`;
}

/** The row's topic before the change (a row's text is its topic). */
function topicOf(s: ISuggestion, rows?: IRowIndex | null): string {
  const fields = s.change?.fields ?? {};
  if (s.change?.op === 'insert') {
    return String(fields.topic ?? s.new);
  }
  return s.original || rows?.topic(s.part ?? '') || String(fields.topic ?? '');
}

/** "under 'Research'", "at the top level", or "" when the parent is unknown. */
function under(parent: unknown, rows?: IRowIndex | null): string {
  if (parent === null || parent === undefined) {
    return 'at the top level';
  }
  const topic = rows?.topic(String(parent));
  return topic === undefined ? '' : `under ${quoted(topic)}`;
}

/** A nested row's lines, indented, for an added subtree's diff. */
function subtree(row: Record<string, unknown>, depth = 0): string[] {
  const kids = Array.isArray(row.children) ? row.children : [];
  return [
    `${'  '.repeat(depth)}${String(row.topic ?? '')}`,
    ...kids.flatMap(kid => subtree(kid as Record<string, unknown>, depth + 1))
  ];
}

function lower(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

const STATES: Record<string, (name: string) => string> = {
  checked: name => `Checked ${name}`,
  unchecked: name => `Unchecked ${name}`,
  mixed: name => `${name} partly checked`,
  none: name => `Checkbox removed from ${name}`
};

/** The row-level description of an outline suggestion. */
export function describeRowChange(
  s: ISuggestion,
  rows?: IRowIndex | null
): IRowChange {
  const partId = s.part ?? '';
  const change = s.change ?? null;
  const fields = change?.fields ?? {};
  const name = quoted(topicOf(s, rows));
  const base = { partId, location: `row ${name}` };
  if (!change) {
    // A text edit of the row's topic.
    return {
      ...base,
      kind: 'topic',
      title: `Topic of ${name} edited`,
      details: [],
      diff: 'inPart'
    };
  }
  if (change.op === 'insert') {
    const where = under(fields.parent, rows);
    const lines = subtree(fields);
    const details: string[] = [];
    if (lines.length > 1) {
      details.push(`With ${rowCount(lines.length - 1)} below it.`);
    }
    if (typeof fields.note === 'string' && fields.note) {
      details.push(`Note: ${fields.note}`);
    }
    const shown = firstLines(lines.join('\n'));
    return {
      ...base,
      location: `new row ${name}`,
      kind: 'insert',
      title: `Row added${where ? ` ${where}` : ''}: ${name}`,
      details,
      diff: { old: '', new: shown.text, more: shown.more }
    };
  }
  if (change.op === 'delete') {
    const n = rows?.below(partId);
    const with_ = n ? ` (with ${rowCount(n)} below it)` : '';
    return {
      ...base,
      kind: 'delete',
      title: `Row ${name} deleted${with_}`,
      details: [],
      diff: null
    };
  }
  if (change.op === 'move') {
    const where = under(fields.parent, rows);
    return {
      ...base,
      kind: 'move',
      title: `Row ${name} moved${where ? ` ${where}` : ''}`,
      details: [],
      diff: null
    };
  }
  if (change.op === 'set') {
    const said: string[] = [];
    const details: string[] = [];
    let diff: IRowChange['diff'] = null;
    if (typeof fields.topic === 'string' && fields.topic !== s.original) {
      said.push(`Topic ${name} → ${quoted(fields.topic)}`);
      diff = { old: s.original, new: fields.topic, more: 0 };
    }
    if (typeof fields.note === 'string') {
      const before = rows?.note(partId);
      said.push(
        fields.note
          ? `${before ? 'Note changed' : 'Note added'} on ${name}`
          : `Note removed from ${name}`
      );
      if (!diff && (fields.note || before)) {
        diff = { old: before ?? '', new: fields.note, more: 0 };
      }
    }
    if (typeof fields.state === 'string' && fields.state in STATES) {
      said.push(STATES[fields.state](name));
    }
    // "Topic 'A' → 'B'; checked 'A'": one sentence, its later parts in lower case.
    const title = said.length
      ? said.map((x, i) => (i ? lower(x) : x)).join('; ')
      : `Row ${name} changed`;
    return { ...base, kind: 'set', title, details, diff };
  }
  return {
    ...base,
    kind: 'none',
    title: `Row ${name}`,
    details: [],
    diff: null
  };
}
