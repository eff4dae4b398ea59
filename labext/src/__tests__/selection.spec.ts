import { followSelection, moveSelection, reviewKeyAction } from '../selection';

describe('followSelection', () => {
  const before = ['a', 'b', 'c', 'd'];

  it('stays on a suggestion that is still listed', () => {
    expect(followSelection(before, ['a', 'c', 'd'], 'c')).toBe('c');
  });

  it('moves to the next one still listed after a decision', () => {
    expect(followSelection(before, ['a', 'c', 'd'], 'b')).toBe('c');
    // The next one went too (accept-all of its document): the one after it.
    expect(followSelection(before, ['a', 'd'], 'b')).toBe('d');
  });

  it('moves back when the last one was decided, and clears when none is left', () => {
    expect(followSelection(before, ['a', 'b', 'c'], 'd')).toBe('c');
    expect(followSelection(before, [], 'd')).toBeNull();
  });

  it('keeps no selection as none', () => {
    expect(followSelection(before, before, null)).toBeNull();
  });
});

describe('reviewKeyAction', () => {
  it('maps the review keys', () => {
    expect(reviewKeyAction({ key: 'ArrowDown' })).toBe('next');
    expect(reviewKeyAction({ key: 'ArrowUp' })).toBe('previous');
    expect(reviewKeyAction({ key: 'Home' })).toBe('first');
    expect(reviewKeyAction({ key: 'End' })).toBe('last');
    expect(reviewKeyAction({ key: 'Enter' })).toBe('accept');
    expect(reviewKeyAction({ key: 'Escape' })).toBe('reject');
    expect(reviewKeyAction({ key: 'a' })).toBeNull();
    expect(reviewKeyAction({ key: 'Tab' })).toBeNull();
  });

  it('leaves shortcuts and keys typed in fields or on buttons alone', () => {
    expect(reviewKeyAction({ key: 'Enter', ctrlKey: true })).toBeNull();
    expect(reviewKeyAction({ key: 'ArrowDown', shiftKey: true })).toBeNull();
    expect(reviewKeyAction({ key: 'Enter', metaKey: true })).toBeNull();
    expect(reviewKeyAction({ key: 'Escape', altKey: true })).toBeNull();
    for (const tag of ['INPUT', 'textarea', 'SELECT', 'BUTTON', 'A']) {
      expect(reviewKeyAction({ key: 'Enter', targetTag: tag })).toBeNull();
      expect(reviewKeyAction({ key: 'ArrowDown', targetTag: tag })).toBeNull();
    }
    expect(reviewKeyAction({ key: 'Escape', editable: true })).toBeNull();
    expect(reviewKeyAction({ key: 'Escape', targetTag: 'DIV' })).toBe('reject');
  });
});

describe('moveSelection', () => {
  const order = ['a', 'b', 'c'];

  it('steps through the order, stopping at the ends', () => {
    expect(moveSelection(order, 'a', 'next')).toBe('b');
    expect(moveSelection(order, 'c', 'next')).toBe('c');
    expect(moveSelection(order, 'a', 'previous')).toBe('a');
    expect(moveSelection(order, 'b', 'first')).toBe('a');
    expect(moveSelection(order, 'b', 'last')).toBe('c');
  });

  it('starts at an end without a selection, and has nowhere to go in an empty list', () => {
    expect(moveSelection(order, null, 'next')).toBe('a');
    expect(moveSelection(order, null, 'previous')).toBe('c');
    expect(moveSelection(order, 'gone', 'previous')).toBe('c');
    expect(moveSelection([], null, 'first')).toBeNull();
  });
});
