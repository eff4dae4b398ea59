import { ChangeSet, EditorState, Text } from '@codemirror/state';

import {
  decorationSpecs,
  eventPath,
  findNear,
  IInlineItem,
  ILocatedSuggestion,
  lineAt,
  lineStartOffset,
  locateEndpoint,
  mapItems,
  occurrencesNear,
  placeSuggestions,
  titleOf
} from '../inline_model';
import {
  codePointsToUtf16,
  codePointToUtf16,
  utf16ToCodePoint
} from '../offsets';

/** A located pending suggestion as the server answers it. */
function located(
  id: string,
  original: string,
  replacement: string,
  start: number | null,
  lineStart = 1,
  extra: Partial<ILocatedSuggestion> = {}
): ILocatedSuggestion {
  return {
    id,
    path: 'notes.md',
    kind: 'replace',
    start: start ?? 0,
    end: (start ?? 0) + [...original].length,
    original,
    new: replacement,
    baseRevision: 'rev-0',
    author: 'agent-x',
    user: 'u',
    session: 'session-1',
    rationale: 'Because.',
    operation: 'edit',
    group: null,
    created: 1,
    status: 'pending',
    decided: null,
    decidedBy: null,
    resultRevision: null,
    reason: null,
    lineStart,
    lineEnd: lineStart,
    currentStart: start,
    currentEnd: start === null ? null : start + [...original].length,
    ...extra
  };
}

describe('code points and UTF-16', () => {
  // 🦊 and 𝄞 are astral (two UTF-16 units, one code point); é is one of each.
  const text = 'a🦊é𝄞b\n🦊';

  it('converts code point offsets to UTF-16 offsets', () => {
    expect(
      [0, 1, 2, 3, 4, 5, 6, 7].map(o => codePointToUtf16(text, o))
    ).toEqual([0, 1, 3, 4, 6, 7, 8, 10]);
    expect(
      text.slice(codePointToUtf16(text, 1)!, codePointToUtf16(text, 2)!)
    ).toBe('🦊');
  });

  it('answers null outside the text or for a non-offset', () => {
    expect(codePointToUtf16(text, 8)).toBeNull();
    expect(codePointToUtf16(text, -1)).toBeNull();
    expect(codePointToUtf16(text, 1.5)).toBeNull();
    expect(codePointToUtf16('', 0)).toBe(0);
  });

  it('converts many offsets in any order in one call', () => {
    expect(codePointsToUtf16(text, [7, 0, 3, 3, 99, 1])).toEqual([
      10,
      0,
      4,
      4,
      null,
      1
    ]);
  });

  it('converts back, counting a split surrogate pair', () => {
    expect(
      [0, 1, 3, 4, 6, 7, 8, 10].map(u => utf16ToCodePoint(text, u))
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(utf16ToCodePoint(text, 2)).toBe(2); // inside 🦊
    expect(utf16ToCodePoint(text, 100)).toBe(7);
  });

  it('round-trips every code point of a mixed text', () => {
    const mixed = 'x😀y\u{10FFFF}z\uD800w'; // a lone high surrogate counts as one
    const points = [...mixed].length;
    for (let p = 0; p <= points; p++) {
      const u = codePointToUtf16(mixed, p)!;
      expect(utf16ToCodePoint(mixed, u)).toBe(p);
    }
    expect(points).toBe(7);
  });
});

describe('lines and looking near a line', () => {
  const text = 'one\ntwo fox\nthree\nfour fox\nfive\n';

  it('knows lines', () => {
    expect(lineAt(text, 0)).toBe(1);
    expect(lineAt(text, 4)).toBe(2);
    expect(lineAt(text, 3)).toBe(1); // the newline ends line 1
    expect(lineAt(text, text.length)).toBe(6);
    expect(lineStartOffset(text, 1)).toBe(0);
    expect(lineStartOffset(text, 2)).toBe(4);
    expect(lineStartOffset(text, 99)).toBe(text.length);
  });

  it('finds the occurrence nearest the hint within the lines', () => {
    const second = text.indexOf('fox', 12);
    expect(findNear(text, 'fox', 0, 1)).toBe(8);
    expect(findNear(text, 'fox', text.length, 5)).toBe(second);
    expect(occurrencesNear(text, 'fox', second - 1, 4)).toEqual([second, 8]);
    // Only lines within the radius: line 4's fox is 2 lines from line 2.
    expect(occurrencesNear(text, 'fox', 8, 2, 1)).toEqual([8]);
    expect(occurrencesNear(text, 'fox', 0, 4, 1)).toEqual([second]); // not line 2's
    expect(findNear(text, 'fox', 0, 1, 0)).toBeNull();
    expect(findNear(text, 'wolf', 0, 1)).toBeNull();
    expect(findNear(text, '', 0, 1)).toBeNull();
  });
});

describe('placeSuggestions', () => {
  const server = '# 🦊 Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n';
  // Code point offsets in the server's text (the fox is one code point there).
  const brown = [...server.slice(0, server.indexOf('brown'))].length;
  const lazy = [...server.slice(0, server.indexOf('lazy'))].length;
  const list = {
    revision: 'rev-server',
    suggestions: [
      located('s1', 'brown', 'red', brown, 3),
      located('s2', 'lazy dog', 'sleepy cat', lazy, 5)
    ]
  };

  it('places them exactly in the same text, past astral characters', () => {
    const { items, hidden } = placeSuggestions(server, list, () => true);
    expect(hidden).toEqual([]);
    expect(
      items.map(i => [i.id, server.slice(i.from, i.to), i.insert])
    ).toEqual([
      ['s1', 'brown', 'red'],
      ['s2', 'lazy dog', 'sleepy cat']
    ]);
    expect(items[0].from).toBe(server.indexOf('brown')); // UTF-16: one more than the code points
    expect(items[0].from).toBe(brown + 1);
    expect(items[0]).toMatchObject({
      author: 'agent-x',
      rationale: 'Because.'
    });
  });

  it('looks near the line when unsaved typing moved the text', () => {
    const typed = server.replace('\n\nThe', '\n\nTyped above.\nThe');
    const { items } = placeSuggestions(typed, list, () => false);
    expect(items.map(i => typed.slice(i.from, i.to))).toEqual([
      'brown',
      'lazy dog'
    ]);
    expect(items[0].from).toBe(typed.indexOf('brown'));
  });

  it('hides what it cannot find, and conflicts', () => {
    const rewritten = server.replace('lazy dog', 'tired cat');
    const more = {
      revision: 'rev-server',
      suggestions: [
        ...list.suggestions,
        located('s3', 'gone', 'x', null, 1) // the server could not place it
      ]
    };
    const { items, hidden } = placeSuggestions(rewritten, more, () => false);
    expect(items.map(i => i.id)).toEqual(['s1']);
    expect(hidden).toEqual(['s2', 's3']);
  });

  it('shows a pure insertion only where the text is the server’s', () => {
    const insertion = {
      revision: 'rev-server',
      suggestions: [located('s4', '', 'NEW ', lazy, 5)]
    };
    let asked = 0;
    const same = placeSuggestions(server, insertion, () => (asked++, true));
    expect(same.items.map(i => [i.from, i.to, i.insert])).toEqual([
      [server.indexOf('lazy'), server.indexOf('lazy'), 'NEW ']
    ]);
    expect(asked).toBe(1);
    const typed = 'x' + server;
    expect(placeSuggestions(typed, insertion, () => false).hidden).toEqual([
      's4'
    ]);
    // No revision (the server could not read it): never the same text.
    expect(
      placeSuggestions(server, { ...insertion, revision: null }, () => true)
        .items
    ).toEqual([]);
  });

  it('gives two suggestions with the same text two places', () => {
    // Unsaved typing moved both; each one's hint is nearest the first copy.
    const typed = 'line xxxxxline\n';
    const twin = {
      revision: 'rev-server',
      suggestions: [
        located('a', 'line', 'LINE', 4, 1),
        located('b', 'line', 'LINE', 5, 1)
      ]
    };
    const { items } = placeSuggestions(typed, twin, () => false);
    expect(items.map(i => [i.id, i.from])).toEqual([
      ['a', 0],
      ['b', 10]
    ]);
  });

  it('ignores decided ones', () => {
    const decided = {
      revision: 'rev-server',
      suggestions: [
        located('s1', 'brown', 'red', brown, 3, { status: 'accepted' })
      ]
    };
    expect(placeSuggestions(server, decided, () => true)).toEqual({
      items: [],
      hidden: []
    });
  });
});

describe('following the person’s typing', () => {
  const item = (from: number, to: number, original: string): IInlineItem => ({
    id: `i${from}`,
    from,
    to,
    original,
    insert: 'X',
    author: 'a',
    rationale: ''
  });

  function apply(text: string, changes: ChangeSet, items: IInlineItem[]) {
    const doc = changes.apply(Text.of(text.split('\n')));
    return mapItems(
      items,
      (pos, assoc) => changes.mapPos(pos, assoc),
      (a, b) => doc.sliceString(a, b)
    );
  }

  const text = 'The quick brown fox.';
  const brown = item(10, 15, 'brown');

  it('moves with text typed before it, also right at its start', () => {
    const atStart = ChangeSet.of({ from: 10, insert: 'very ' }, text.length);
    expect(apply(text, atStart, [brown])).toEqual([
      { ...brown, from: 15, to: 20 }
    ]);
    const before = ChangeSet.of({ from: 0, insert: 'Oh. ' }, text.length);
    expect(apply(text, before, [brown])).toEqual([
      { ...brown, from: 14, to: 19 }
    ]);
  });

  it('stays with text typed after it, also right at its end', () => {
    const atEnd = ChangeSet.of({ from: 15, insert: 'ish' }, text.length);
    expect(apply(text, atEnd, [brown])).toEqual([brown]);
  });

  it('drops an item whose original text the person changed', () => {
    const inside = ChangeSet.of({ from: 12, to: 13, insert: 'O' }, text.length);
    expect(apply(text, inside, [brown])).toEqual([]);
    const gone = ChangeSet.of(
      { from: 0, to: text.length, insert: '' },
      text.length
    );
    expect(apply(text, gone, [brown])).toEqual([]);
  });

  it('keeps an insertion point after text typed at it', () => {
    const point = item(4, 4, '');
    const typed = ChangeSet.of({ from: 4, insert: 'ab' }, text.length);
    expect(apply(text, typed, [point])).toEqual([{ ...point, from: 6, to: 6 }]);
  });

  it('works on a real editor state transaction', () => {
    const state = EditorState.create({ doc: text });
    const tr = state.update({ changes: { from: 0, insert: '🦊 ' } });
    const mapped = mapItems(
      [brown],
      (pos, assoc) => tr.changes.mapPos(pos, assoc),
      (a, b) => tr.state.doc.sliceString(a, b)
    );
    expect(mapped).toEqual([{ ...brown, from: 13, to: 18 }]);
  });
});

describe('decorationSpecs', () => {
  it('strikes the original and puts the ghost right after it, in order', () => {
    const items: IInlineItem[] = [
      {
        id: 'b',
        from: 20,
        to: 28,
        original: 'lazy dog',
        insert: 'sleepy cat',
        author: 'agent-x',
        rationale: 'Cats sleep more.',
        busy: true
      },
      {
        id: 'a',
        from: 4,
        to: 9,
        original: 'quick',
        insert: '',
        author: '',
        rationale: ''
      },
      {
        id: 'c',
        from: 30,
        to: 30,
        original: '',
        insert: 'new',
        author: 'agent-y',
        rationale: ''
      }
    ];
    expect(decorationSpecs(items)).toEqual([
      { kind: 'del', id: 'a', from: 4, to: 9, title: 'Suggested by an agent' },
      {
        kind: 'ins',
        id: 'a',
        at: 9,
        text: '',
        title: 'Suggested by an agent',
        busy: false
      },
      {
        kind: 'del',
        id: 'b',
        from: 20,
        to: 28,
        title: 'Suggested by agent-x: Cats sleep more.'
      },
      {
        kind: 'ins',
        id: 'b',
        at: 28,
        text: 'sleepy cat',
        title: 'Suggested by agent-x: Cats sleep more.',
        busy: true
      },
      // A pure insertion strikes nothing.
      {
        kind: 'ins',
        id: 'c',
        at: 30,
        text: 'new',
        title: 'Suggested by agent-y',
        busy: false
      }
    ]);
    expect(titleOf({ author: 'x', rationale: 'Why.' })).toBe(
      'Suggested by x: Why.'
    );
  });
});

describe('requests and events', () => {
  it('asks for one document’s located pending suggestions', () => {
    expect(locateEndpoint('dir/my notes#1.md')).toBe(
      'suggestions?status=pending&locate=true&path=dir%2Fmy%20notes%231.md'
    );
  });

  it('finds the path of each event kind', () => {
    expect(eventPath({ suggestion: { path: 'a.md' } })).toBe('a.md');
    expect(eventPath({ checkpoint: { path: '/b.md' } })).toBe('b.md');
    expect(eventPath({ path: 'c.md', revision: 'r' })).toBe('c.md');
    expect(eventPath({})).toBeNull();
    expect(eventPath(null)).toBeNull();
  });
});
