import type { ISuggestion } from '../api_types';
import { comparePlan, itemAt, samePlan } from '../compare_model';

function placed(
  id: string,
  text: string,
  original: string,
  replacement: string,
  over: Partial<ISuggestion> = {}
): ISuggestion {
  const at = [...text.slice(0, text.indexOf(original))].length; // code points
  return {
    id,
    path: 'a.md',
    kind: 'replace',
    start: at,
    end: at + [...original].length,
    original,
    new: replacement,
    baseRevision: 'rev-0',
    author: 'agent',
    user: 'me',
    session: 's',
    rationale: '',
    operation: 'anchored',
    group: null,
    created: 1,
    status: 'pending',
    decided: null,
    decidedBy: null,
    resultRevision: null,
    reason: null,
    lineStart: 1,
    lineEnd: 1,
    currentStart: at,
    currentEnd: at + [...original].length,
    ...over
  };
}

describe('comparePlan', () => {
  const text = '# 🦊 Notes\n\nThe quick brown fox.\n\nA lazy dog.\n';

  it('applies every placed suggestion, with both sides’ ranges (UTF-16)', () => {
    const plan = comparePlan(text, [
      placed('dog', text, 'lazy dog', 'sleepy cat'),
      placed('fox', text, 'brown', 'red')
    ]);
    expect(plan.proposed).toBe(
      '# 🦊 Notes\n\nThe quick red fox.\n\nA sleepy cat.\n'
    );
    expect(plan.items.map(i => i.suggestion.id)).toEqual(['fox', 'dog']);
    for (const item of plan.items) {
      expect(text.slice(item.fromA, item.toA)).toBe(item.suggestion.original);
      expect(plan.proposed.slice(item.fromB, item.toB)).toBe(
        item.suggestion.new
      );
    }
    expect(plan.skipped).toEqual([]);
  });

  it('skips one whose text changed, one not placed, one overlapping, and decided ones', () => {
    const fox = placed('fox', text, 'brown', 'red');
    const plan = comparePlan(text, [
      fox,
      placed('wide', text, 'quick brown', 'slow'),
      { ...placed('moved', text, 'lazy', 'busy'), original: 'LAZY' },
      placed('gone', text, 'dog', 'cat', {
        currentStart: null,
        currentEnd: null
      }),
      placed('done', text, 'Notes', 'Pages', { status: 'accepted' })
    ]);
    expect(plan.items.map(i => i.suggestion.id)).toEqual(['wide']);
    expect(plan.skipped.map(s => s.id).sort()).toEqual([
      'fox',
      'gone',
      'moved'
    ]);
  });

  it('leaves a notebook cell’s change out (its offsets are in its cell)', () => {
    const plan = comparePlan(text, [
      placed('fox', text, 'brown', 'red'),
      placed('cell', text, 'Notes', 'Pages', { part: 'cell-1' })
    ]);
    expect(plan.items.map(i => i.suggestion.id)).toEqual(['fox']);
    expect(plan.proposed).toBe(text.replace('brown', 'red'));
  });

  it('finds the change at a position on either side', () => {
    const plan = comparePlan(text, [
      placed('fox', text, 'brown', 'red'),
      placed('dog', text, 'lazy dog', 'sleepy cat')
    ]);
    const [fox, dog] = plan.items;
    expect(itemAt(plan.items, fox.fromA, 'a')).toBe(fox);
    expect(itemAt(plan.items, fox.toB, 'b')).toBe(fox);
    expect(itemAt(plan.items, 0, 'b')).toBe(fox);
    expect(itemAt(plan.items, fox.toB + 1, 'b')).toBe(dog);
    expect(itemAt(plan.items, plan.proposed.length, 'b')).toBeNull();
  });
});

describe('samePlan', () => {
  const text = 'The quick brown fox.\nA lazy dog.\n';
  const fox = placed('fox', text, 'brown', 'red');
  const dog = placed('dog', text, 'lazy', 'sleepy');

  it('is true for a reload that found the same text and suggestions', () => {
    expect(
      samePlan(comparePlan(text, [fox, dog]), comparePlan(text, [dog, fox]))
    ).toBe(true);
  });

  it('is false when a suggestion is gone, new, or the text changed', () => {
    const both = comparePlan(text, [fox, dog]);
    expect(samePlan(both, comparePlan(text, [fox]))).toBe(false);
    expect(
      samePlan(both, comparePlan(text, [fox, { ...dog, id: 'cat' }]))
    ).toBe(false);
    const edited = text.replace('quick', 'slow');
    expect(
      samePlan(
        both,
        comparePlan(edited, [
          placed('fox', edited, 'brown', 'red'),
          placed('dog', edited, 'lazy', 'sleepy')
        ])
      )
    ).toBe(false);
  });
});
