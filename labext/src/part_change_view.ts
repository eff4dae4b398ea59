/**
 * Draws a part suggestion's change (part_change.ts): a notebook cell's or an
 * outline row's. A title line, short notes, and the diff: the suggestion's
 * range in the part's text with its context, or an added or removed part's
 * first lines (none for a move or a checkbox). Used by the panel's cards and
 * by the marks in the open notebook (notebook_marks.ts).
 */
import type { ISuggestion } from './api_types';
import { renderSuggestionRange, renderTextDiff } from './diff_view';
import { el } from './dom';
import { describePartChange, IPartSummary, IRowIndex } from './part_change';

/** The diff of `change` (null when it changes no text: a move, a type). */
export function renderPartDiff(
  s: ISuggestion,
  change: Pick<IPartSummary, 'diff' | 'title'>
): HTMLElement | null {
  const diff = change.diff;
  if (diff === 'inPart') {
    return renderSuggestionRange(s, `Change in ${change.title}`);
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

/**
 * A panel card's body for a part suggestion: what changes, then the diff.
 * `rows`: the outline's rows now, to name a row's parent (row_change.ts).
 */
export function renderPartChange(
  s: ISuggestion,
  rows?: IRowIndex | null
): HTMLElement {
  const change = describePartChange(s, rows)!;
  const node = el(
    'div',
    `jp-McpLab-cellChange jp-McpLab-partChange jp-mod-${change.kind}`
  );
  node.dataset.part = change.partId;
  node.append(el('div', 'jp-McpLab-cellTitle', change.title));
  for (const detail of change.details) {
    node.append(el('div', 'jp-McpLab-cellDetail', detail));
  }
  const diff = renderPartDiff(s, change);
  if (diff) {
    node.append(diff);
  }
  return node;
}
