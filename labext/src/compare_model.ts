/**
 * The side-by-side review, the pure part: a document's current text and its
 * pending suggestions (placed by the server, `locate=true`) become the text
 * with every suggestion applied, and where each suggestion is on both sides.
 * No DOM or CodeMirror imports (jest runs it).
 */
import type { ISuggestion } from './api_types';
import { codePointsToUtf16 } from './offsets';

/** One suggestion in both texts (UTF-16 offsets): `current[fromA:toA]` becomes `proposed[fromB:toB]`. */
export interface ICompareItem {
  suggestion: ISuggestion;
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

/** The two sides of the comparison. */
export interface IComparePlan {
  current: string;
  proposed: string;
  /** The suggestions shown, in document order. */
  items: ICompareItem[];
  /** Pending ones not shown: their text changed, or they overlap one shown. */
  skipped: ISuggestion[];
}

/**
 * Apply the placed pending suggestions to `current` (in the code point
 * offsets `currentStart`/`currentEnd` the server gave for exactly this
 * text), in document order; one overlapping an earlier one is skipped.
 */
export function comparePlan(
  current: string,
  suggestions: readonly ISuggestion[]
): IComparePlan {
  const pending = suggestions.filter(s => s.status === 'pending');
  // A notebook cell's change is placed in its cell's text, not in the file's.
  const placed = pending.filter(
    s =>
      !s.part &&
      typeof s.currentStart === 'number' &&
      typeof s.currentEnd === 'number'
  );
  const offsets = codePointsToUtf16(
    current,
    placed.flatMap(s => [s.currentStart as number, s.currentEnd as number])
  );
  const located = placed
    .map((s, i) => ({ s, from: offsets[2 * i], to: offsets[2 * i + 1] }))
    .filter(
      (x): x is { s: ISuggestion; from: number; to: number } =>
        x.from !== null &&
        x.to !== null &&
        x.from <= x.to &&
        current.slice(x.from, x.to) === x.s.original
    )
    .sort((a, b) => a.from - b.from || a.to - b.to);
  const items: ICompareItem[] = [];
  const shown = new Set<string>();
  const parts: string[] = [];
  let pos = 0;
  let delta = 0;
  for (const { s, from, to } of located) {
    if (from < pos) {
      continue; // overlaps the one before: one change at a time
    }
    parts.push(current.slice(pos, from), s.new);
    items.push({
      suggestion: s,
      fromA: from,
      toA: to,
      fromB: from + delta,
      toB: from + delta + s.new.length
    });
    delta += s.new.length - (to - from);
    pos = to;
    shown.add(s.id);
  }
  parts.push(current.slice(pos));
  return {
    current,
    proposed: parts.join(''),
    items,
    skipped: pending.filter(s => !shown.has(s.id))
  };
}

/**
 * The item at `pos` on one side (its range holds it, ends included), else
 * the first one after it, else null.
 */
export function itemAt(
  items: readonly ICompareItem[],
  pos: number,
  side: 'a' | 'b'
): ICompareItem | null {
  const from = (i: ICompareItem) => (side === 'a' ? i.fromA : i.fromB);
  const to = (i: ICompareItem) => (side === 'a' ? i.toA : i.toB);
  return (
    items.find(i => from(i) <= pos && pos <= to(i)) ??
    items.find(i => from(i) > pos) ??
    null
  );
}

/**
 * Whether `a` and `b` draw the same view: the same texts and the same
 * suggestions at the same places. A reload that finds nothing new keeps the
 * view as it is (its cursor and focus: a person may be moving through it).
 */
export function samePlan(a: IComparePlan, b: IComparePlan): boolean {
  const sameItem = (x: ICompareItem, y: ICompareItem) =>
    x.suggestion.id === y.suggestion.id &&
    x.fromA === y.fromA &&
    x.toA === y.toA &&
    x.fromB === y.fromB &&
    x.toB === y.toB;
  return (
    a.current === b.current &&
    a.proposed === b.proposed &&
    a.items.length === b.items.length &&
    a.items.every((item, i) => sameItem(item, b.items[i])) &&
    a.skipped.length === b.skipped.length &&
    a.skipped.every((s, i) => s.id === b.skipped[i].id)
  );
}
