/**
 * Diffs as the panel shows them, the pure part: old text and new text (or a
 * unified diff the server made) become hunks of rows, each row a line with
 * its line numbers and the words that changed in it. `diff_view.ts` draws
 * them; suggestion cards, checkpoints, and later notebook cells and outline
 * rows use the same two steps. No DOM or JupyterLab imports (jest runs it).
 */

/** One run of an edit script: `a[aStart:aEnd]` and `b[bStart:bEnd]`. */
export interface IRun {
  kind: 'equal' | 'delete' | 'insert';
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** A piece of a line; `changed` pieces are the words that differ. */
export interface ISegment {
  text: string;
  changed: boolean;
}

/** One line of a diff. */
export interface IDiffRow {
  kind: 'context' | 'del' | 'add';
  /** 1-based line numbers; null on the side the line is not in. */
  oldLine: number | null;
  newLine: number | null;
  /** The line's text (no line break) in pieces. */
  segments: ISegment[];
}

/** A stretch of changed rows with the unchanged lines around them. */
export interface IDiffHunk {
  oldStart: number;
  newStart: number;
  rows: IDiffRow[];
}

/** Past this many edits the diff gives up on a minimal script (its memory grows with their square): all of a is replaced by all of b. */
export const MAX_EDITS = 500;

/**
 * A minimal edit script turning `a` into `b` (Myers' O((N+M)D) algorithm),
 * as runs in order; common ends are trimmed first, and past `maxEdits`
 * edits the middle is one deletion and one insertion.
 */
export function diffSequences<T>(
  a: readonly T[],
  b: readonly T[],
  maxEdits = MAX_EDITS
): IRun[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) {
    head++;
  }
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const runs: IRun[] = [];
  const push = (
    kind: IRun['kind'],
    aStart: number,
    aEnd: number,
    bStart: number,
    bEnd: number
  ) => {
    if (aEnd === aStart && bEnd === bStart) {
      return;
    }
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) {
      last.aEnd = aEnd;
      last.bEnd = bEnd;
    } else {
      runs.push({ kind, aStart, aEnd, bStart, bEnd });
    }
  };
  push('equal', 0, head, 0, head);
  const middle = myers(
    a.slice(head, a.length - tail),
    b.slice(head, b.length - tail),
    maxEdits
  );
  for (const run of middle) {
    push(
      run.kind,
      run.aStart + head,
      run.aEnd + head,
      run.bStart + head,
      run.bEnd + head
    );
  }
  push('equal', a.length - tail, a.length, b.length - tail, b.length);
  return runs;
}

/**
 * The edit script of two sequences with no common ends. Not @codemirror/merge's
 * `diff` over the items coded as characters: its script is not minimal (7
 * edits on Myers' own example, where this finds 5), and a review card should
 * show no line as changed that was not.
 */
function myers<T>(a: readonly T[], b: readonly T[], maxEdits: number): IRun[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) {
    return [
      { kind: 'delete', aStart: 0, aEnd: n, bStart: 0, bEnd: 0 },
      { kind: 'insert', aStart: n, aEnd: n, bStart: 0, bEnd: m }
    ].filter(r => r.aEnd > r.aStart || r.bEnd > r.bStart) as IRun[];
  }
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1]
          : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = next;
  }
  if (found < 0) {
    return [
      { kind: 'delete', aStart: 0, aEnd: n, bStart: 0, bEnd: 0 },
      { kind: 'insert', aStart: n, aEnd: n, bStart: 0, bEnd: m }
    ];
  }
  // Walk the trace back from (n, m), one edit per step.
  const steps: IRun[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const down =
      k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = vd[offset + prevK];
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    const startY = down ? prevY + 1 : prevY;
    if (x > startX) {
      steps.push({
        kind: 'equal',
        aStart: startX,
        aEnd: x,
        bStart: startY,
        bEnd: y
      });
    }
    steps.push(
      down
        ? {
            kind: 'insert',
            aStart: prevX,
            aEnd: prevX,
            bStart: prevY,
            bEnd: prevY + 1
          }
        : {
            kind: 'delete',
            aStart: prevX,
            aEnd: prevX + 1,
            bStart: prevY,
            bEnd: prevY
          }
    );
    x = prevX;
    y = prevY;
  }
  if (x > 0) {
    steps.push({ kind: 'equal', aStart: 0, aEnd: x, bStart: 0, bEnd: y });
  }
  steps.reverse();
  // Merge neighbours of one kind; within a change, deletions before insertions.
  const runs: IRun[] = [];
  for (const step of steps) {
    const last = runs[runs.length - 1];
    if (last && last.kind === step.kind) {
      last.aEnd = step.aEnd;
      last.bEnd = step.bEnd;
    } else {
      runs.push({ ...step });
    }
  }
  return normalizeChanges(runs);
}

/** Between two equal runs, one deletion then one insertion. */
function normalizeChanges(runs: IRun[]): IRun[] {
  const out: IRun[] = [];
  let i = 0;
  while (i < runs.length) {
    if (runs[i].kind === 'equal') {
      out.push(runs[i++]);
      continue;
    }
    const first = runs[i];
    let aEnd = first.aEnd;
    let bEnd = first.bEnd;
    let aStart = first.aStart;
    let bStart = first.bStart;
    while (i < runs.length && runs[i].kind !== 'equal') {
      aStart = Math.min(aStart, runs[i].aStart);
      bStart = Math.min(bStart, runs[i].bStart);
      aEnd = Math.max(aEnd, runs[i].aEnd);
      bEnd = Math.max(bEnd, runs[i].bEnd);
      i++;
    }
    if (aEnd > aStart) {
      out.push({ kind: 'delete', aStart, aEnd, bStart, bEnd: bStart });
    }
    if (bEnd > bStart) {
      out.push({ kind: 'insert', aStart: aEnd, aEnd, bStart, bEnd });
    }
  }
  return out;
}

/** A text's lines without their line breaks ("" has none; a final break adds none). */
export function splitLines(text: string): string[] {
  if (text === '') {
    return [];
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** Words, runs of white space, and single other characters. */
export function wordTokens(line: string): string[] {
  return line.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/**
 * The two lines' pieces with the words that differ marked. When next to
 * nothing is shared, no word is marked: the whole line changed.
 */
export function wordDiff(
  oldLine: string,
  newLine: string
): { old: ISegment[]; new: ISegment[] } {
  const a = wordTokens(oldLine);
  const b = wordTokens(newLine);
  const runs = diffSequences(a, b, 500);
  const shared = runs
    .filter(r => r.kind === 'equal')
    .reduce((n, r) => n + a.slice(r.aStart, r.aEnd).join('').trim().length, 0);
  const longest = Math.max(oldLine.trim().length, newLine.trim().length);
  if (longest > 0 && shared * 4 < longest) {
    return {
      old: oldLine ? [{ text: oldLine, changed: false }] : [],
      new: newLine ? [{ text: newLine, changed: false }] : []
    };
  }
  const oldSegments: ISegment[] = [];
  const newSegments: ISegment[] = [];
  const add = (list: ISegment[], text: string, changed: boolean) => {
    if (!text) {
      return;
    }
    const last = list[list.length - 1];
    if (last && last.changed === changed) {
      last.text += text;
    } else {
      list.push({ text, changed });
    }
  };
  for (const run of runs) {
    const aText = a.slice(run.aStart, run.aEnd).join('');
    const bText = b.slice(run.bStart, run.bEnd).join('');
    if (run.kind === 'equal') {
      add(oldSegments, aText, false);
      add(newSegments, bText, false);
    } else if (run.kind === 'delete') {
      add(oldSegments, aText, true);
    } else {
      add(newSegments, bText, true);
    }
  }
  return { old: oldSegments, new: newSegments };
}

/** One unmarked piece, or none for an empty line. */
function plain(text: string): ISegment[] {
  return text ? [{ text, changed: false }] : [];
}

/**
 * The rows of a block of deleted lines replaced by added lines: deletions
 * then additions, the i-th deleted and i-th added line word-diffed.
 */
function changeRows(
  deleted: string[],
  added: string[],
  oldLine: number,
  newLine: number
): IDiffRow[] {
  const rows: IDiffRow[] = [];
  const adds: IDiffRow[] = [];
  const paired = Math.min(deleted.length, added.length);
  for (let i = 0; i < deleted.length; i++) {
    const words = i < paired ? wordDiff(deleted[i], added[i]) : null;
    rows.push({
      kind: 'del',
      oldLine: oldLine + i,
      newLine: null,
      segments: words ? words.old : plain(deleted[i])
    });
    if (words) {
      adds.push({
        kind: 'add',
        oldLine: null,
        newLine: newLine + i,
        segments: words.new
      });
    }
  }
  for (let i = paired; i < added.length; i++) {
    adds.push({
      kind: 'add',
      oldLine: null,
      newLine: newLine + i,
      segments: plain(added[i])
    });
  }
  return [...rows, ...adds];
}

/** Options of `diffHunks`. */
export interface IHunkOptions {
  /** Unchanged lines kept around each change (default 2). */
  context?: number;
  /** The line number of both texts' first line (default 1). */
  firstLine?: number;
}

/**
 * The hunks turning `oldText` into `newText`, by lines, with `context`
 * unchanged lines around each change and word-level marks in changed lines.
 */
export function diffHunks(
  oldText: string,
  newText: string,
  options: IHunkOptions = {}
): IDiffHunk[] {
  const context = options.context ?? 2;
  const first = options.firstLine ?? 1;
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const rows: IDiffRow[] = [];
  const runs = diffSequences(a, b);
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (run.kind === 'equal') {
      for (let j = 0; j < run.aEnd - run.aStart; j++) {
        rows.push({
          kind: 'context',
          oldLine: first + run.aStart + j,
          newLine: first + run.bStart + j,
          segments: plain(a[run.aStart + j])
        });
      }
      continue;
    }
    const next = runs[i + 1];
    const deleted = run.kind === 'delete' ? a.slice(run.aStart, run.aEnd) : [];
    let added: string[] = [];
    let bStart = run.bStart;
    if (run.kind === 'insert') {
      added = b.slice(run.bStart, run.bEnd);
    } else if (next && next.kind === 'insert') {
      added = b.slice(next.bStart, next.bEnd);
      bStart = next.bStart;
      i++;
    }
    rows.push(
      ...changeRows(deleted, added, first + run.aStart, first + bStart)
    );
  }
  return hunksOf(rows, context);
}

/** Cut rows into hunks: the changed rows with `context` unchanged rows around. */
export function hunksOf(rows: IDiffRow[], context: number): IDiffHunk[] {
  const keep = new Array<boolean>(rows.length).fill(false);
  rows.forEach((row, i) => {
    if (row.kind !== 'context') {
      for (
        let j = Math.max(0, i - context);
        j <= Math.min(rows.length - 1, i + context);
        j++
      ) {
        keep[j] = true;
      }
    }
  });
  const hunks: IDiffHunk[] = [];
  let current: IDiffRow[] | null = null;
  rows.forEach((row, i) => {
    if (!keep[i]) {
      current = null;
      return;
    }
    if (current === null) {
      current = [];
      hunks.push({
        oldStart: row.oldLine ?? lineBefore(rows, i, 'oldLine'),
        newStart: row.newLine ?? lineBefore(rows, i, 'newLine'),
        rows: current
      });
    }
    current.push(row);
  });
  return hunks;
}

/** The line a hunk starting at row `i` starts at on one side, when that row is not on it. */
function lineBefore(
  rows: IDiffRow[],
  i: number,
  side: 'oldLine' | 'newLine'
): number {
  for (let j = i - 1; j >= 0; j--) {
    const line = rows[j][side];
    if (line !== null) {
      return line + 1;
    }
  }
  for (let j = i + 1; j < rows.length; j++) {
    const line = rows[j][side];
    if (line !== null) {
      return line;
    }
  }
  return 1;
}

/**
 * A unified diff (`--- a/x`, `+++ b/x`, `@@ -1,3 +1,4 @@`, then ` `, `-`
 * and `+` lines) as hunks, with word-level marks where a block of removed
 * lines is followed by added ones.
 */
export function parseUnified(diff: string): IDiffHunk[] {
  const hunks: IDiffHunk[] = [];
  let hunk: IDiffHunk | null = null;
  let oldLine = 1;
  let newLine = 1;
  let deleted: string[] = [];
  let added: string[] = [];
  let delStart = 1;
  let addStart = 1;
  const flush = () => {
    if (hunk && (deleted.length || added.length)) {
      hunk.rows.push(...changeRows(deleted, added, delStart, addStart));
    }
    deleted = [];
    added = [];
  };
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      flush();
      oldLine = Number(header[1]) || 1;
      newLine = Number(header[2]) || 1;
      hunk = { oldStart: oldLine, newStart: newLine, rows: [] };
      hunks.push(hunk);
      continue;
    }
    if (!hunk || line.startsWith('\\')) {
      continue; // file names before the first hunk; "\ No newline at end of file"
    }
    if (line.startsWith('-')) {
      if (added.length) {
        flush();
      }
      if (!deleted.length) {
        delStart = oldLine;
        addStart = newLine;
      }
      deleted.push(line.slice(1));
      oldLine++;
    } else if (line.startsWith('+')) {
      if (!deleted.length && !added.length) {
        delStart = oldLine;
        addStart = newLine;
      }
      added.push(line.slice(1));
      newLine++;
    } else {
      flush();
      hunk.rows.push({
        kind: 'context',
        oldLine: oldLine++,
        newLine: newLine++,
        segments: plain(line.slice(1))
      });
    }
  }
  flush();
  return hunks;
}

/** How many lines `text` starts below the first: its line breaks. */
export function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return n;
}
