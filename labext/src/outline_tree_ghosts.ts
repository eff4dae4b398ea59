/**
 * Where the OPML tree view puts the rows a suggestion adds (outline_tree_rows.ts):
 * ghost rows for an inserted row and its nested rows, placed under their
 * parent after their sibling (a suggested new row's id counts too, so rows
 * inserted one after another keep their order), and walks up and down the
 * tree. Iterative: an outline can nest deeper than the stack.
 */
import type { ITree, ITreeNode, RowState } from './outline_tree_rows';

const STATES: readonly string[] = ['checked', 'unchecked', 'mixed', 'none'];

export function stateOf(value: unknown): RowState {
  return typeof value === 'string' && STATES.includes(value)
    ? (value as RowState)
    : 'none';
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function newNode(
  key: string,
  topic: string,
  note: string | null,
  state: RowState
): ITreeNode {
  return {
    key,
    rowId: null,
    topic,
    note,
    state,
    parent: null,
    children: [],
    marks: [],
    deletedWithin: false
  };
}

/** A ghost row for an inserted row and its nested rows (iteratively). */
export function addGhost(
  tree: ITree,
  rowId: string,
  fields: Record<string, any>,
  prefix: string
): ITreeNode {
  let n = 0;
  const make = (f: Record<string, any>, id: unknown): ITreeNode => {
    const note = text(f.note) || null;
    const node = newNode(
      `${prefix}${n++}`,
      text(f.topic),
      note,
      stateOf(f.state)
    );
    tree.nodes.set(node.key, node);
    if (typeof id === 'string' && !tree.nodes.has(id)) {
      tree.aliases.set(id, node.key);
    }
    return node;
  };
  const root = make(fields, rowId);
  const stack: [ITreeNode, unknown][] = [[root, fields.children]];
  while (stack.length > 0) {
    const [parent, children] = stack.pop()!;
    if (!Array.isArray(children)) {
      continue;
    }
    for (const child of children) {
      if (child && typeof child === 'object') {
        const node = make(child, child.id);
        node.parent = parent.key;
        parent.children.push(node.key);
        stack.push([node, child.children]);
      }
    }
  }
  return root;
}

/**
 * Put `node` under `parent` (a row id, or a suggested new row's; null or
 * unknown: the top level), after the sibling `after` (null: first), else at
 * `index`.
 */
export function place(
  tree: ITree,
  node: ITreeNode,
  parent: unknown,
  after: string | null,
  index: number
): void {
  const key = (id: string) =>
    tree.nodes.has(id) ? id : (tree.aliases.get(id) ?? id);
  const owner =
    typeof parent === 'string' ? tree.nodes.get(key(parent)) : undefined;
  const list = owner ? owner.children : tree.top;
  node.parent = owner ? owner.key : null;
  after = after === null ? null : key(after);
  let at: number;
  if (after === null) {
    at = 0;
  } else if (list.includes(after)) {
    at = list.indexOf(after) + 1;
    // After the ghosts already placed right after that sibling.
    while (at < list.length && tree.nodes.get(list[at])?.rowId === null) {
      at++;
    }
  } else {
    at = Math.max(0, Math.min(index, list.length));
  }
  list.splice(at, 0, node.key);
}

/** The keys below `key`, in no particular order (iteratively). */
export function descendants(tree: ITree, key: string): string[] {
  const out: string[] = [];
  const stack = [...(tree.nodes.get(key)?.children ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(...(tree.nodes.get(next)?.children ?? []));
  }
  return out;
}

/** The keys above `key`, nearest first. */
export function ancestors(tree: ITree, key: string): string[] {
  const out: string[] = [];
  let at = tree.nodes.get(key)?.parent ?? null;
  while (at !== null && !out.includes(at)) {
    out.push(at);
    at = tree.nodes.get(at)?.parent ?? null;
  }
  return out;
}
