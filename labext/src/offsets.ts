/**
 * Offsets between the server's code points and the browser's UTF-16 units
 * (CodeMirror and JavaScript strings count units; astral characters are two).
 */
function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The UTF-16 length of the code point starting at `index`. */
function unitsAt(text: string, index: number): number {
  return isHigh(text.charCodeAt(index)) &&
    index + 1 < text.length &&
    isLow(text.charCodeAt(index + 1))
    ? 2
    : 1;
}

/**
 * Code point offsets into `text` as UTF-16 offsets, in one pass over the
 * text whatever their order; null for an offset outside the text (or not a
 * non-negative integer). A lone surrogate counts as one code point.
 */
export function codePointsToUtf16(
  text: string,
  offsets: readonly number[]
): (number | null)[] {
  const out: (number | null)[] = offsets.map(() => null);
  const order = offsets
    .map((offset, index) => ({ offset, index }))
    .filter(({ offset }) => Number.isInteger(offset) && offset >= 0)
    .sort((a, b) => a.offset - b.offset);
  let points = 0;
  let units = 0;
  for (const { offset, index } of order) {
    while (points < offset && units < text.length) {
      units += unitsAt(text, units);
      points++;
    }
    out[index] = points === offset ? units : null;
  }
  return out;
}

/** One code point offset as a UTF-16 offset (null outside the text). */
export function codePointToUtf16(text: string, offset: number): number | null {
  return codePointsToUtf16(text, [offset])[0];
}

/**
 * A UTF-16 offset as a code point offset: the code points that start before
 * it (an offset inside a surrogate pair counts that pair).
 */
export function utf16ToCodePoint(text: string, offset: number): number {
  const end = Math.max(0, Math.min(offset, text.length));
  let points = 0;
  for (let units = 0; units < end; units += unitsAt(text, units)) {
    points++;
  }
  return points;
}

/**
 * A UTF-16 offset as a code point offset, counting only the code points that
 * end at or before it: an offset inside a surrogate pair is the pair's start
 * (a cursor reported from the browser never splits a character).
 */
export function codePointOffset(text: string, utf16: number): number {
  const end = Math.max(0, Math.min(utf16, text.length));
  let points = 0;
  for (
    let units = 0;
    units + unitsAt(text, units) <= end;
    units += unitsAt(text, units)
  ) {
    points++;
  }
  return points;
}
