/**
 * Pieces of the OPML tree view's rows (outline_tree_view.ts): checkbox
 * glyphs, a search match highlighted, and a suggestion as its row shows it
 * (what it does, who suggested it and why, Accept and Reject).
 */
import { el } from './dom';
import type { IRowMark, RowState } from './outline_tree_rows';

export const BOX: Record<RowState, string> = {
  checked: '☑',
  unchecked: '☐',
  mixed: '▣',
  none: ''
};

export const LABEL: Record<IRowMark['kind'], string> = {
  added: 'added',
  changed: 'changed',
  moved: 'moved away',
  'moved-here': 'moved here',
  deleted: 'deleted'
};

/** The text of a piece of `value` with `match` highlighted. */
export function highlighted(
  value: string,
  match: [number, number] | null,
  className: string
): HTMLElement {
  const node = el('span', className);
  if (!match || match[1] <= match[0]) {
    node.textContent = value;
    return node;
  }
  node.append(
    value.slice(0, match[0]),
    el('mark', 'jp-McpLab-treeMatch', value.slice(match[0], match[1])),
    value.slice(match[1])
  );
  return node;
}

/** A suggestion as its row shows it: what it does, who, Accept and Reject. */
export function markNode(
  topic: string,
  mark: IRowMark,
  busy: boolean,
  decide: (action: 'accept' | 'reject') => Promise<void>
): HTMLElement {
  const s = mark.suggestion;
  const box = el('div', 'jp-McpLab-treeMark');
  box.dataset.kind = mark.kind;
  box.dataset.suggestion = s.id;
  const badge = el('span', 'jp-McpLab-treeBadge', LABEL[mark.kind]);
  box.append(badge);
  for (const c of mark.changes.filter(c => c.field !== 'topic')) {
    box.append(
      el('span', 'jp-McpLab-treeField', `${c.field}: `),
      el('del', 'jp-McpLab-treeOld', c.before || '(none)'),
      el('span', 'jp-McpLab-treeArrow', ' → '),
      el('ins', 'jp-McpLab-treeNew', c.after || '(none)')
    );
  }
  const by = el('span', 'jp-McpLab-treeBy', `by ${s.author}`);
  if (s.rationale) {
    by.title = s.rationale;
    by.textContent = `by ${s.author}: ${s.rationale}`;
  }
  box.append(by);
  if (mark.stale) {
    box.append(el('span', 'jp-McpLab-treeStale', 'changed since'));
  }
  for (const action of ['accept', 'reject'] as const) {
    const label = action === 'accept' ? 'Accept' : 'Reject';
    const button = el('button', `jp-McpLab-treeDecide jp-mod-${action}`, label);
    button.type = 'button';
    button.disabled = busy;
    button.setAttribute(
      'aria-label',
      `${label}: ${LABEL[mark.kind]} row “${topic || '(empty)'}”`
    );
    button.addEventListener('click', event => {
      event.stopPropagation();
      void decide(action);
    });
    box.append(button);
  }
  return box;
}
