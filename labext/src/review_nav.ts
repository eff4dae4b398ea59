/**
 * The review commands in an editor, the pure part: which placed suggestion
 * the cursor is on, and which one "next" and "previous" go to. Ranges are the
 * editor's (UTF-16 offsets, as inline review places them); no DOM.
 */

/** A suggestion placed in the editor's text. */
export interface IPlacedRange {
  id: string;
  from: number;
  to: number;
}

/**
 * The suggestion the cursor is on: its range holds the cursor (its ends
 * included, so a cursor just after a word still counts), the first of
 * several; null when none does.
 */
export function rangeAt<T extends IPlacedRange>(
  ranges: readonly T[],
  cursor: number
): T | null {
  return ranges.find(r => r.from <= cursor && cursor <= r.to) ?? null;
}

/**
 * Where "next" or "previous" goes from the cursor: the first suggestion
 * starting after it (the last one starting before it), round to the other
 * end of the document past the last (first) one; null when there are none.
 * The one the cursor is on is skipped, so repeating the command walks them.
 */
export function stepFrom<T extends IPlacedRange>(
  ranges: readonly T[],
  cursor: number,
  direction: 'next' | 'previous'
): T | null {
  if (ranges.length === 0) {
    return null;
  }
  const sorted = [...ranges].sort((a, b) => a.from - b.from || a.to - b.to);
  if (direction === 'next') {
    return sorted.find(r => r.from > cursor) ?? sorted[0];
  }
  // From inside a suggestion, "previous" is the one before it, not its start.
  const limit = rangeAt(sorted, cursor)?.from ?? cursor;
  const before = sorted.filter(r => r.from < limit);
  return before[before.length - 1] ?? sorted[sorted.length - 1];
}
