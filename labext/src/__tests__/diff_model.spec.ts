import {
  diffHunks,
  diffSequences,
  IDiffRow,
  parseUnified,
  splitLines,
  wordDiff,
  wordTokens
} from '../diff_model';

/** A row as "<sign><line> text" with changed words in [brackets]. */
function show(row: IDiffRow): string {
  const sign = row.kind === 'add' ? '+' : row.kind === 'del' ? '-' : ' ';
  const line = row.kind === 'del' ? row.oldLine : row.newLine;
  const text = row.segments
    .map(s => (s.changed ? `[${s.text}]` : s.text))
    .join('');
  return `${sign}${line} ${text}`;
}

describe('diffSequences', () => {
  it('finds a minimal script, deletions before insertions in each change', () => {
    const a = 'the quick brown fox'.split(' ');
    const b = 'the slow brown dog'.split(' ');
    expect(
      diffSequences(a, b).map(r => [r.kind, r.aStart, r.aEnd, r.bStart, r.bEnd])
    ).toEqual([
      ['equal', 0, 1, 0, 1],
      ['delete', 1, 2, 1, 1],
      ['insert', 2, 2, 1, 2],
      ['equal', 2, 3, 2, 3],
      ['delete', 3, 4, 3, 3],
      ['insert', 4, 4, 3, 4]
    ]);
  });

  it('applies: the runs rebuild b from a', () => {
    const a = [...'abcabba'];
    const b = [...'cbabac'];
    const out: string[] = [];
    for (const run of diffSequences(a, b)) {
      if (run.kind === 'equal') {
        expect(a.slice(run.aStart, run.aEnd)).toEqual(
          b.slice(run.bStart, run.bEnd)
        );
      }
      if (run.kind !== 'delete') {
        out.push(...b.slice(run.bStart, run.bEnd));
      }
    }
    expect(out.join('')).toBe('cbabac');
    const edits = diffSequences(a, b)
      .filter(r => r.kind !== 'equal')
      .reduce((n, r) => n + (r.aEnd - r.aStart) + (r.bEnd - r.bStart), 0);
    expect(edits).toBe(5); // Myers' example: D = 5
  });

  it('gives up past the edit limit: one deletion and one insertion', () => {
    const a = [...'abcdefgh'];
    const b = [...'stuvwxyz'];
    expect(diffSequences(a, b, 3).map(r => r.kind)).toEqual([
      'delete',
      'insert'
    ]);
    expect(diffSequences([], []).length).toBe(0);
    expect(diffSequences(['x'], []).map(r => r.kind)).toEqual(['delete']);
  });
});

describe('lines and words', () => {
  it('splits lines without their breaks', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\n\nb\n')).toEqual(['a', '', 'b']);
  });

  it('cuts words, spaces and marks (any script)', () => {
    expect(wordTokens('Été, 12 décembre!')).toEqual([
      'Été',
      ',',
      ' ',
      '12',
      ' ',
      'décembre',
      '!'
    ]);
  });

  it('marks the words that differ', () => {
    const { old, new: added } = wordDiff(
      'The quick brown fox.',
      'The quick red fox.'
    );
    expect(old).toEqual([
      { text: 'The quick ', changed: false },
      { text: 'brown', changed: true },
      { text: ' fox.', changed: false }
    ]);
    expect(added.filter(s => s.changed).map(s => s.text)).toEqual(['red']);
  });

  it('marks nothing when next to nothing is shared', () => {
    const { old, new: added } = wordDiff('alpha beta gamma', 'one two three');
    expect(old).toEqual([{ text: 'alpha beta gamma', changed: false }]);
    expect(added).toEqual([{ text: 'one two three', changed: false }]);
  });
});

describe('diffHunks', () => {
  const before = 'one\ntwo\nMeeting on Monday.\nfour\nfive\nsix\n';

  it('shows an insertion inside a line with its lines around, the words marked', () => {
    const after = before.replace('Monday', 'Monday 12 December');
    const [hunk] = diffHunks(before, after, { context: 1, firstLine: 10 });
    expect(hunk.rows.map(show)).toEqual([
      ' 11 two',
      '-12 Meeting on Monday.',
      '+12 Meeting on Monday[ 12 December].',
      ' 13 four'
    ]);
    expect([hunk.oldStart, hunk.newStart]).toEqual([11, 11]);
  });

  it('cuts far-apart changes into hunks, numbering each side', () => {
    const after = 'zero\none\ntwo\nMeeting on Monday.\nfour\nfive\nSIX\n';
    const hunks = diffHunks(before, after, { context: 1 });
    expect(hunks.map(h => h.rows.map(show))).toEqual([
      ['+1 zero', ' 2 one'],
      [' 6 five', '-6 six', '+7 SIX'] // nothing shared: no word marked
    ]);
    expect(hunks.map(h => [h.oldStart, h.newStart])).toEqual([
      [1, 1],
      [5, 6]
    ]);
  });

  it('pairs a block of removed lines with the added ones, extra lines plain', () => {
    const rows = diffHunks('a b\nc d\n', 'a B\n')[0].rows.map(show);
    expect(rows).toEqual(['-1 a [b]', '-2 c d', '+1 a [B]']);
  });

  it('has no hunk for equal texts', () => {
    expect(diffHunks(before, before)).toEqual([]);
  });
});

describe('parseUnified', () => {
  it('reads the server’s unified diff, words marked in replaced lines', () => {
    const diff = [
      '--- a/notes.md',
      '+++ b/notes.md',
      '@@ -2,3 +2,3 @@',
      ' ',
      '-The quick brown fox.',
      '+The quick red fox.',
      ' ',
      '@@ -9 +9,2 @@',
      '+new line',
      ' nine',
      '\\ No newline at end of file'
    ].join('\n');
    const hunks = parseUnified(diff);
    expect(hunks.map(h => h.rows.map(show))).toEqual([
      [' 2 ', '-3 The quick [brown] fox.', '+3 The quick [red] fox.', ' 4 '],
      ['+9 new line', ' 10 nine']
    ]);
    expect(hunks.map(h => [h.oldStart, h.newStart])).toEqual([
      [2, 2],
      [9, 9]
    ]);
  });
});
