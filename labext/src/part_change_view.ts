/**
 * Draws a notebook suggestion's cell-level change (cell_change.ts): a title
 * line, short notes, and the diff: the suggestion's range in the cell's source
 * with its context, or an added or removed cell's first lines. Used by the
 * panel's cards and by the marks in the open notebook (notebook_review.ts).
 */
import type { ISuggestion } from './api_types';
import { describeCellChange, ICellChange } from './cell_change';
import { renderChange, renderTextDiff } from './diff_view';
import { el } from './dom';

/** The diff of `change` (null when it changes no text: a move, a type). */
export function renderCellDiff(
  s: ISuggestion,
  change: ICellChange
): HTMLElement | null {
  const diff = change.diff;
  if (diff === 'inCell') {
    return renderChange(
      {
        before: s.contextBefore ?? '',
        original: s.original,
        new: s.new,
        after: s.contextAfter ?? '',
        lineStart: s.lineStart
      },
      { label: `Change in ${change.title}` }
    );
  }
  if (diff === null) {
    return null;
  }
  const box = el('div', 'jp-McpLab-cellDiff');
  box.append(
    renderTextDiff(diff.old, diff.new, {
      label: change.title,
      context: 1000
    })
  );
  if (diff.more > 0) {
    box.append(
      el(
        'div',
        'jp-McpLab-cellMore',
        `… ${diff.more} more line${diff.more === 1 ? '' : 's'}`
      )
    );
  }
  return box;
}

/** A panel card's body for a cell suggestion: what changes, then the diff. */
export function renderCellChange(s: ISuggestion): HTMLElement {
  const change = describeCellChange(s);
  const node = el('div', `jp-McpLab-cellChange jp-mod-${change.kind}`);
  node.dataset.cell = change.cellId;
  node.append(el('div', 'jp-McpLab-cellTitle', change.title));
  for (const detail of change.details) {
    node.append(el('div', 'jp-McpLab-cellDetail', detail));
  }
  const diff = renderCellDiff(s, change);
  if (diff) {
    node.append(diff);
  }
  return node;
}
