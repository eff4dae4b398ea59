/**
 * The OPML tree view, the pure part: an outline's rows (`GET outline`) and
 * the pending suggestions on them made into one tree, where each suggestion
 * shows at the rows it touches. A suggestion on a row names it in `part`;
 * its `change` (null: a text change of the topic) says what it does:
 * `insert` adds a ghost row (with its nested rows) under `fields.parent`
 * after the sibling `after`; `move` marks the row where it is and adds a
 * ghost "moved here" at the destination; `delete` strikes the row and its
 * subtree through; `set` (topic, note, state) shows old → new. No DOM.
 */
import type { IOutlineRow, ISuggestion } from './api_types';
import { codePointsToUtf16 } from './offsets';
import {
  addGhost,
  descendants,
  newNode,
  place,
  stateOf,
  text
} from './outline_tree_ghosts';

export type RowState = IOutlineRow['state'];

/** How a suggestion shows at one row. */
export type MarkKind = 'added' | 'changed' | 'moved' | 'moved-here' | 'deleted';

/** One suggestion as one row shows it. */
export interface IRowMark {
  kind: MarkKind;
  suggestion: ISuggestion;
  /** It no longer applies as it is (what it changes was edited since). */
  stale: boolean;
  /** changed: what changes, e.g. `topic`, with the old and the new value. */
  changes: { field: string; before: string; after: string }[];
}

export interface ITreeNode {
  /** Unique in the tree: the row id, or `+<suggestion id>:<n>` for a ghost. */
  key: string;
  /** The row's id in the file; null for a ghost (not in the file yet). */
  rowId: string | null;
  topic: string;
  note: string | null;
  state: RowState;
  parent: string | null;
  children: string[];
  marks: IRowMark[];
  /** Under a row a suggestion deletes (it would go too). */
  deletedWithin: boolean;
}

export interface ITree {
  nodes: Map<string, ITreeNode>;
  top: string[];
  /** Pending suggestions on this file that name no row (edits of its XML text). */
  unplaced: ISuggestion[];
  /** A suggested new row's id → its ghost's key (a later insert may go after it). */
  aliases: Map<string, string>;
}

/** A pending suggestion and whether it still applies where it is. */
export interface IPendingSuggestion {
  suggestion: ISuggestion;
  stale: boolean;
}

/**
 * A topic with a text change applied: at its current place (`currentStart`,
 * code points) when the server placed it, else where it was made when the
 * original is still there; null when it cannot be placed.
 */
export function changedTopic(topic: string, s: ISuggestion): string | null {
  const at =
    typeof s.currentStart === 'number' && typeof s.currentEnd === 'number'
      ? [s.currentStart, s.currentEnd]
      : [s.start, s.end];
  const [a, b] = codePointsToUtf16(topic, at);
  if (a === null || b === null || b < a) {
    return null;
  }
  if (typeof s.currentStart !== 'number' && topic.slice(a, b) !== s.original) {
    return null;
  }
  return topic.slice(0, a) + s.new + topic.slice(b);
}

/** The outline's rows with the pending suggestions shown on them. */
export function buildTree(
  rows: readonly IOutlineRow[],
  pending: readonly IPendingSuggestion[]
): ITree {
  const nodes = new Map<string, ITreeNode>();
  for (const row of rows) {
    nodes.set(row.id, {
      key: row.id,
      rowId: row.id,
      topic: row.topic,
      note: row.note,
      state: row.state,
      parent: row.parent,
      children: [...row.children],
      marks: [],
      deletedWithin: false
    });
  }
  const tree: ITree = {
    nodes,
    top: rows.filter(r => r.parent === null).map(r => r.id),
    unplaced: [],
    aliases: new Map()
  };
  const ordered = [...pending].sort(
    (a, b) => a.suggestion.created - b.suggestion.created
  );
  for (const { suggestion: s, stale } of ordered) {
    const node = typeof s.part === 'string' ? nodes.get(s.part) : undefined;
    const op = s.change?.op ?? 'text';
    const fields = s.change?.fields ?? {};
    const mark = (kind: MarkKind, at: ITreeNode) =>
      at.marks.push({ kind, suggestion: s, stale, changes: [] });
    if (op === 'insert' && typeof s.part === 'string') {
      const ghost = addGhost(tree, s.part, fields, `+${s.id}:`);
      mark('added', ghost);
      place(tree, ghost, fields.parent, s.change!.after, s.change!.index);
    } else if (node === undefined) {
      tree.unplaced.push(s);
    } else if (op === 'text') {
      const after = changedTopic(node.topic, s);
      node.marks.push({
        kind: 'changed',
        suggestion: s,
        stale: stale || after === null,
        changes: [
          {
            field: 'topic',
            before: after === null ? s.original : node.topic,
            after: after ?? s.new
          }
        ]
      });
    } else if (op === 'set') {
      const changes: IRowMark['changes'] = [];
      if ('topic' in fields && text(fields.topic) !== node.topic) {
        changes.push({
          field: 'topic',
          before: node.topic,
          after: text(fields.topic)
        });
      }
      if ('note' in fields && text(fields.note) !== (node.note ?? '')) {
        changes.push({
          field: 'note',
          before: node.note ?? '',
          after: text(fields.note)
        });
      }
      if ('state' in fields && stateOf(fields.state) !== node.state) {
        changes.push({
          field: 'state',
          before: node.state,
          after: stateOf(fields.state)
        });
      }
      node.marks.push({ kind: 'changed', suggestion: s, stale, changes });
    } else if (op === 'delete') {
      mark('deleted', node);
      for (const key of descendants(tree, node.key)) {
        nodes.get(key)!.deletedWithin = true;
      }
    } else if (op === 'move') {
      mark('moved', node);
      const ghost = newNode(`+${s.id}:0`, node.topic, node.note, node.state);
      nodes.set(ghost.key, ghost);
      mark('moved-here', ghost);
      place(tree, ghost, fields.parent, s.change!.after, s.change!.index);
    }
  }
  return tree;
}

export { ancestors, descendants } from './outline_tree_ghosts';
