/**
 * Draws diff hunks (diff_model.ts): one row per line with its line number, a
 * +/− sign and its text, the changed words marked inside changed lines. Long
 * lines wrap: the diff fits the width it is given and never scrolls sideways.
 * Used by suggestion cards, checkpoints, conflicts and the decided list.
 */
import {
  diffHunks,
  IDiffHunk,
  IDiffRow,
  IHunkOptions,
  lineBreaks,
  parseUnified
} from './diff_model';
import type { ISuggestion } from './api_types';
import { el } from './dom';

/** Options of `renderDiff`. */
export interface IDiffViewOptions {
  /** The accessible name of the diff, e.g. "Change on line 3". */
  label?: string;
  /** Show line numbers (default true). */
  lineNumbers?: boolean;
}

/** The row classes (kept from the unified-diff view: tests and themes use them). */
const ROW_CLASS: Record<IDiffRow['kind'], string> = {
  context: 'jp-McpLab-diffContext',
  del: 'jp-McpLab-diffDel',
  add: 'jp-McpLab-diffAdd'
};

const SIGN: Record<IDiffRow['kind'], string> = {
  context: ' ',
  del: '-',
  add: '+'
};

/** The element showing `hunks`. */
export function renderDiff(
  hunks: IDiffHunk[],
  options: IDiffViewOptions = {}
): HTMLElement {
  const view = el('div', 'jp-McpLab-diffView');
  if (options.label) {
    view.setAttribute('aria-label', options.label);
    view.setAttribute('role', 'group');
  }
  if (options.lineNumbers === false) {
    view.classList.add('jp-mod-noLineNumbers');
  }
  hunks.forEach((hunk, i) => {
    if (i > 0) {
      const gap = el('div', 'jp-McpLab-diffGap', '⋯');
      gap.setAttribute('aria-label', 'unchanged lines');
      view.append(gap);
    }
    for (const row of hunk.rows) {
      view.append(renderRow(row));
    }
  });
  if (hunks.length === 0) {
    view.append(el('div', 'jp-McpLab-diffEmpty', 'No change.'));
  }
  return view;
}

function renderRow(row: IDiffRow): HTMLElement {
  const node = el('div', `jp-McpLab-diffRow ${ROW_CLASS[row.kind]}`);
  const number = row.kind === 'del' ? row.oldLine : row.newLine;
  const gutter = el('span', 'jp-McpLab-diffNum', String(number ?? ''));
  gutter.setAttribute('aria-hidden', 'true');
  const sign = el('span', 'jp-McpLab-diffSign', SIGN[row.kind]);
  const text = el('span', 'jp-McpLab-diffText');
  if (row.segments.length === 0) {
    text.append('\u200b'); // an empty line keeps its height
  }
  for (const segment of row.segments) {
    if (!segment.changed) {
      text.append(document.createTextNode(segment.text));
    } else {
      const word = el(
        row.kind === 'del' ? 'del' : 'ins',
        'jp-McpLab-diffWord',
        segment.text
      );
      text.append(word);
    }
  }
  node.append(gutter, sign, text);
  return node;
}

/** The diff of two texts (whole lines), drawn. */
export function renderTextDiff(
  oldText: string,
  newText: string,
  options: IHunkOptions & IDiffViewOptions = {}
): HTMLElement {
  return renderDiff(diffHunks(oldText, newText, options), options);
}

/** A unified diff (as the server's `diff` fields carry it), drawn. */
export function renderUnifiedDiff(
  diff: string,
  options: IDiffViewOptions = {}
): HTMLElement {
  return renderDiff(parseUnified(diff), options);
}

/**
 * A change in its lines: `before + original + after` becomes `before + new +
 * after`, where `before` starts a line (line `lineStart` minus its breaks)
 * and `after` ends one; every line of it is shown.
 */
export function renderChange(
  change: {
    before: string;
    original: string;
    new: string;
    after: string;
    lineStart: number;
  },
  options: IDiffViewOptions = {}
): HTMLElement {
  const firstLine = Math.max(1, change.lineStart - lineBreaks(change.before));
  return renderTextDiff(
    change.before + change.original + change.after,
    change.before + change.new + change.after,
    { ...options, firstLine, context: 1000 }
  );
}

/** A suggestion's range in its lines of context (its server-sent `context*`). */
export function renderSuggestionRange(
  s: Pick<
    ISuggestion,
    'contextBefore' | 'original' | 'new' | 'contextAfter' | 'lineStart'
  >,
  label: string
): HTMLElement {
  return renderChange(
    {
      before: s.contextBefore ?? '',
      original: s.original,
      new: s.new,
      after: s.contextAfter ?? '',
      lineStart: s.lineStart
    },
    { label }
  );
}
