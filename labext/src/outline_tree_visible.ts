/**
 * The OPML tree view's visible rows and keyboard, pure: which rows show
 * (expanded ones' children; with a search, the matching rows and their
 * ancestors), where the search matches, and what a key does (the WAI-ARIA
 * tree pattern: up/down move, right expands or enters, left collapses or
 * goes to the parent, Home/End, Enter toggles). Walks are iterative: an
 * outline can nest deeper than the stack.
 */
import type { ITree, ITreeNode } from './outline_tree_rows';

export interface IVisibleRow {
  node: ITreeNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** Where the search matches the topic / note (UTF-16 [start, end)). */
  topicMatch: [number, number] | null;
  noteMatch: [number, number] | null;
  /** Suggestions on rows hidden below this collapsed row. */
  hiddenMarks: number;
  /** Its position among its siblings (1-based) and their number (aria). */
  position: number;
  siblings: number;
}

/** Where `query` is in `value`, ignoring case; null when it is not. */
export function findMatch(
  value: string | null,
  query: string
): [number, number] | null {
  if (!value || !query) {
    return null;
  }
  const hay = value.toLowerCase();
  const needle = query.toLowerCase();
  const at = hay.indexOf(needle);
  if (at < 0) {
    return null;
  }
  // Lower-casing keeps the length of nearly every text; when not, no highlight offsets.
  return hay.length === value.length ? [at, at + needle.length] : [0, 0];
}

/**
 * The rows shown, in order: every row whose ancestors are all expanded
 * (`collapsed` holds the keys the person folded); with a query, the rows
 * matching it (topic or note) and their ancestors, unfolded.
 */
export function visibleRows(
  tree: ITree,
  collapsed: ReadonlySet<string>,
  query: string
): IVisibleRow[] {
  const q = query.trim();
  let keep: Set<string> | null = null;
  if (q) {
    keep = new Set();
    for (const node of tree.nodes.values()) {
      if (findMatch(node.topic, q) || findMatch(node.note, q)) {
        let at: string | null = node.key;
        while (at !== null && !keep.has(at)) {
          keep.add(at);
          at = tree.nodes.get(at)?.parent ?? null;
        }
      }
    }
  }
  const shown = (keys: string[]) =>
    keep === null ? keys : keys.filter(k => keep!.has(k));
  const out: IVisibleRow[] = [];
  const top = shown(tree.top);
  const stack: [string, number, number, number][] = top
    .map((k, i): [string, number, number, number] => [k, 0, i + 1, top.length])
    .reverse();
  while (stack.length > 0) {
    const [key, depth, position, siblings] = stack.pop()!;
    const node = tree.nodes.get(key);
    if (!node) {
      continue;
    }
    const children = shown(node.children);
    const expanded =
      children.length > 0 && (keep !== null || !collapsed.has(key));
    out.push({
      node,
      depth,
      hasChildren: children.length > 0,
      expanded,
      topicMatch: findMatch(node.topic, q),
      noteMatch: findMatch(node.note, q),
      hiddenMarks: expanded ? 0 : marksBelow(tree, node),
      position,
      siblings
    });
    if (expanded) {
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push([children[i], depth + 1, i + 1, children.length]);
      }
    }
  }
  return out;
}

function marksBelow(tree: ITree, node: ITreeNode): number {
  let n = 0;
  const stack = [...node.children];
  while (stack.length > 0) {
    const below = tree.nodes.get(stack.pop()!);
    if (below) {
      n += below.marks.length;
      stack.push(...below.children);
    }
  }
  return n;
}

/** What a key does to the tree: move the focus, or fold / unfold a row. */
export type TreeAction =
  { focus: string } | { expand: string } | { collapse: string };

/** The action of `key` on the row focused (null: the key is not the tree's). */
export function treeKey(
  rows: readonly IVisibleRow[],
  focused: string | null,
  key: string
): TreeAction | null {
  if (rows.length === 0) {
    return null;
  }
  const i = rows.findIndex(r => r.node.key === focused);
  const row = i >= 0 ? rows[i] : null;
  const to = (n: number) => ({
    focus: rows[Math.max(0, Math.min(n, rows.length - 1))].node.key
  });
  switch (key) {
    case 'ArrowDown':
      return to(i + 1);
    case 'ArrowUp':
      return to(i < 0 ? 0 : i - 1);
    case 'Home':
      return to(0);
    case 'End':
      return to(rows.length - 1);
    case 'ArrowRight':
      if (!row) {
        return to(0);
      }
      if (!row.hasChildren) {
        return { focus: row.node.key };
      }
      return row.expanded ? to(i + 1) : { expand: row.node.key };
    case 'ArrowLeft':
      if (!row) {
        return to(0);
      }
      if (row.expanded) {
        return { collapse: row.node.key };
      }
      return { focus: row.node.parent ?? row.node.key };
    case 'Enter':
      if (!row) {
        return to(0);
      }
      if (!row.hasChildren) {
        return { focus: row.node.key };
      }
      return row.expanded
        ? { collapse: row.node.key }
        : { expand: row.node.key };
    default:
      return null;
  }
}
