/**
 * Keep the keyboard focus across a section's redraw.
 *
 * The panel's sections rebuild their DOM on every model change, which drops
 * the focus of a control inside them to `<body>` (WCAG 2.4.3): a keyboard
 * user who pressed "Show more", or sat on a card's Accept while another
 * suggestion arrived, loses their place. Each focusable control a section
 * draws gets a stable key (`keyed(button, '<id>:accept')`); `keepFocus`
 * notes the key of the focused control before the redraw and focuses the
 * control with that key after it. When that control is gone or cannot take
 * the focus (its card was decided, it is disabled while busy), the first
 * fallback that can (e.g. the section's list) gets it instead.
 */
import { replaceChildrenIfChanged } from './dom';

/** Give a control its key across redraws, e.g. `<suggestion id>:accept`. */
export function keyed<T extends HTMLElement>(node: T, key: string): T {
  node.dataset.focusKey = key;
  return node;
}

/**
 * Where the focus goes after a redraw lost it (the decision, apart from the
 * DOM): the control keyed `wanted` if it can take the focus, else the first
 * fallback that can; null if none can.
 */
export function focusTarget<T>(
  wanted: string | undefined,
  controls: Iterable<readonly [string, T]>,
  fallbacks: readonly T[],
  canFocus: (target: T) => boolean
): T | null {
  for (const [key, control] of controls) {
    if (wanted !== undefined && key === wanted && canFocus(control)) {
      return control;
    }
  }
  return fallbacks.find(canFocus) ?? null;
}

/** Whether an element can take the focus now: drawn, not disabled. */
function canFocus(node: HTMLElement): boolean {
  return (
    node.isConnected &&
    !(node as HTMLButtonElement).disabled &&
    node.getClientRects().length > 0
  );
}

/**
 * Run `redraw` (which replaces children of `container`) and keep the focus
 * on the control the person was on, found again by its key; if it is gone,
 * on the first of `fallbacks` that can take it (never `<body>` when one
 * can). A focus outside `container`, or on an element the redraw kept,
 * is left alone.
 */
export function keepFocus<R>(
  container: HTMLElement,
  redraw: () => R,
  fallbacks: readonly HTMLElement[] = []
): R {
  const before = container.ownerDocument.activeElement;
  const inside =
    before instanceof HTMLElement &&
    before !== container &&
    container.contains(before);
  const result = redraw();
  const now = container.ownerDocument.activeElement;
  if (!inside || (now === before && canFocus(before))) {
    return result; // nothing was lost
  }
  if (now !== null && now !== before && now !== container.ownerDocument.body) {
    return result; // the redraw put the focus somewhere on purpose
  }
  const controls = Array.from(
    container.querySelectorAll<HTMLElement>('[data-focus-key]'),
    node => [node.dataset.focusKey ?? '', node] as const
  );
  // A control the redraw kept but disabled has no other to go to.
  const wanted = before.isConnected ? undefined : before.dataset.focusKey;
  focusTarget(wanted, controls, fallbacks, canFocus)?.focus({
    preventScroll: true
  });
  return result;
}

/**
 * `replaceChildrenIfChanged(parent, children)` keeping the focus (`keepFocus`):
 * the other sections' redraw, which leaves the DOM alone when nothing
 * changed. Returns whether it replaced.
 */
export function replaceKeepingFocus(
  parent: HTMLElement,
  children: readonly Node[],
  fallbacks: readonly HTMLElement[]
): boolean {
  return keepFocus(
    parent,
    () => replaceChildrenIfChanged(parent, children),
    fallbacks
  );
}
