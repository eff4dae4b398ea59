/**
 * The review list's keyboard selection, the pure part: the order it walks
 * (every document's suggestions, as the panel lists them), where it goes on
 * a key or when the list changes, and which key does what.
 */
import type { IDocumentGroup } from './suggestions';

/** The ids of the suggestions in the order the panel lists them. */
export function displayOrder(groups: IDocumentGroup[]): string[] {
  return groups.flatMap(g => g.suggestions.map(s => s.id));
}

/**
 * Where the selection goes when the list changes: it stays on its suggestion
 * while that is listed; once it is gone (decided) it moves to the next one
 * that followed it, else to the nearest one before it, else nowhere.
 */
export function followSelection(
  before: string[],
  after: string[],
  selected: string | null
): string | null {
  if (selected === null) {
    return null;
  }
  const listed = new Set(after);
  if (listed.has(selected)) {
    return selected;
  }
  const at = before.indexOf(selected);
  if (at < 0) {
    // Not seen before either: fall back to the first one.
    return after[0] ?? null;
  }
  for (let i = at + 1; i < before.length; i++) {
    if (listed.has(before[i])) {
      return before[i];
    }
  }
  for (let i = at - 1; i >= 0; i--) {
    if (listed.has(before[i])) {
      return before[i];
    }
  }
  return after[0] ?? null;
}

/** The moves of the selection. */
export type SelectionMove = 'next' | 'previous' | 'first' | 'last';

/**
 * Where a move takes the selection in `order` (null when the list is
 * empty): `next`/`previous` stop at the ends; from no selection, `next`
 * takes the first and `previous` the last.
 */
export function moveSelection(
  order: string[],
  selected: string | null,
  move: SelectionMove
): string | null {
  if (order.length === 0) {
    return null;
  }
  const at = selected === null ? -1 : order.indexOf(selected);
  let index: number;
  if (move === 'first') {
    index = 0;
  } else if (move === 'last') {
    index = order.length - 1;
  } else if (at < 0) {
    index = move === 'next' ? 0 : order.length - 1;
  } else {
    index = Math.max(
      0,
      Math.min(order.length - 1, at + (move === 'next' ? 1 : -1))
    );
  }
  return order[index];
}

/** What a key does in the review list. */
export type ReviewKeyAction = SelectionMove | 'accept' | 'reject';

/** The parts of a keydown event the review list decides on. */
export interface IReviewKey {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  /** The tag of the element the key was typed in, e.g. 'INPUT'. */
  targetTag?: string;
  /** Whether that element is contenteditable. */
  editable?: boolean;
}

/** Elements whose own keys (typing, Enter on a button) the list must not take. */
const OWN_KEYS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A']);

const KEY_ACTIONS: Record<string, ReviewKeyAction> = {
  ArrowDown: 'next',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
  Enter: 'accept',
  Escape: 'reject'
};

/**
 * The review action of a key, or null when the list should leave the key
 * alone: modified keys (shortcuts), and keys typed in a form field or on a
 * button (Enter there belongs to that element).
 */
export function reviewKeyAction(input: IReviewKey): ReviewKeyAction | null {
  if (input.altKey || input.ctrlKey || input.metaKey || input.shiftKey) {
    return null;
  }
  if (input.editable || OWN_KEYS.has((input.targetTag ?? '').toUpperCase())) {
    return null;
  }
  return KEY_ACTIONS[input.key] ?? null;
}
