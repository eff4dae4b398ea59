import { rangeAt, stepFrom } from '../review_nav';

// "The quick brown fox": suggestions on "quick" (4-9), "brown" (10-15), "fox" (16-19).
const RANGES = [
  { id: 'fox', from: 16, to: 19 },
  { id: 'quick', from: 4, to: 9 },
  { id: 'brown', from: 10, to: 15 }
];

describe('the suggestion at the cursor', () => {
  it('is the one whose range holds the cursor, its ends included', () => {
    expect(rangeAt(RANGES, 4)?.id).toBe('quick');
    expect(rangeAt(RANGES, 7)?.id).toBe('quick');
    expect(rangeAt(RANGES, 9)?.id).toBe('quick'); // just after the word
    expect(rangeAt(RANGES, 19)?.id).toBe('fox');
    expect(rangeAt(RANGES, 2)).toBeNull();
    expect(rangeAt([], 0)).toBeNull();
  });

  it('is an insertion when the cursor is where it inserts', () => {
    expect(rangeAt([{ id: 'ins', from: 5, to: 5 }], 5)?.id).toBe('ins');
    expect(rangeAt([{ id: 'ins', from: 5, to: 5 }], 6)).toBeNull();
  });
});

describe('next and previous suggestion', () => {
  it('walks the suggestions in document order from the cursor', () => {
    expect(stepFrom(RANGES, 0, 'next')?.id).toBe('quick');
    expect(stepFrom(RANGES, 4, 'next')?.id).toBe('brown'); // at the start of one: the one after
    expect(stepFrom(RANGES, 10, 'next')?.id).toBe('fox');
    expect(stepFrom(RANGES, 12, 'previous')?.id).toBe('quick'); // inside one: the one before it
    expect(stepFrom(RANGES, 16, 'previous')?.id).toBe('brown');
    expect(stepFrom(RANGES, 15, 'previous')?.id).toBe('quick');
  });

  it('goes round at the ends', () => {
    expect(stepFrom(RANGES, 16, 'next')?.id).toBe('quick');
    expect(stepFrom(RANGES, 30, 'next')?.id).toBe('quick');
    expect(stepFrom(RANGES, 4, 'previous')?.id).toBe('fox');
    expect(stepFrom(RANGES, 0, 'previous')?.id).toBe('fox');
  });

  it('finds nothing where there is nothing', () => {
    expect(stepFrom([], 3, 'next')).toBeNull();
    expect(stepFrom([], 3, 'previous')).toBeNull();
    const one = [{ id: 'only', from: 2, to: 3 }];
    expect(stepFrom(one, 2, 'next')?.id).toBe('only');
    expect(stepFrom(one, 2, 'previous')?.id).toBe('only');
  });
});
