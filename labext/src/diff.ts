/**
 * Unified diffs in the panel's lists (checkpoints): a "Diff" toggle per row,
 * the diff fetched when first opened and drawn by diff_view.ts (line
 * numbers, changed words marked, long lines wrapped).
 */
import { button, el } from './dom';
import { renderUnifiedDiff } from './diff_view';

/**
 * The diffs of a list that is redrawn whole: which are open and their
 * fetched text are kept here, so a redraw (a selection, an event) while a
 * diff loads neither closes it nor loses the text when it arrives.
 */
export class DiffBoxes {
  constructor(
    fetch: (id: string) => Promise<string | null>,
    redraw: () => void
  ) {
    this._fetch = fetch;
    this._redraw = redraw;
  }

  /** The diff's box and its "Diff"/"Hide diff" toggle for `id`, from the kept state. */
  render(id: string): { box: HTMLElement; toggle: HTMLButtonElement } {
    const open = this._open.has(id);
    const box = el('div', 'jp-McpLab-diff');
    box.hidden = !open;
    const failure = this._failures.get(id);
    if (failure !== undefined) {
      box.textContent = failure;
    } else if (this._texts.has(id)) {
      fillDiff(box, this._texts.get(id) ?? null);
    } else if (open) {
      box.textContent = 'Loading…';
    }
    const toggle = button(
      open ? 'Hide diff' : 'Diff',
      'jp-mod-minimal',
      'Show the unified diff of this change',
      () => void this._toggle(id)
    );
    return { box, toggle };
  }

  private async _toggle(id: string): Promise<void> {
    if (this._open.has(id)) {
      this._open.delete(id);
      this._redraw();
      return;
    }
    this._open.add(id);
    this._failures.delete(id); // opened again: try again
    this._redraw();
    if (this._texts.has(id)) {
      return;
    }
    try {
      this._texts.set(id, await this._fetch(id));
    } catch (error) {
      this._failures.set(id, (error as Error)?.message ?? String(error));
    }
    this._redraw();
  }

  private _fetch: (id: string) => Promise<string | null>;
  private _redraw: () => void;
  private _open = new Set<string>();
  private _texts = new Map<string, string | null>();
  private _failures = new Map<string, string>();
}

/** Fill `box` with a unified diff (diff_view.ts). */
export function fillDiff(box: HTMLElement, diff: string | null): void {
  if (diff === null) {
    box.textContent = 'The text this was suggested against is gone.';
    return;
  }
  box.replaceChildren(renderUnifiedDiff(diff));
}
