import type { IOutline, IOutlineRow, ISuggestion } from '../api_types';
import { ServerEvents } from '../events';
import { OutlineTreeModel } from '../outline_tree_model';
import {
  ancestors,
  buildTree,
  changedTopic,
  IPendingSuggestion
} from '../outline_tree_rows';
import { ITreeSuggestions, treeSuggestions } from '../outline_tree_source';
import { findMatch, treeKey, visibleRows } from '../outline_tree_visible';
import type { Request } from '../request';
import { gate, suggestionRecord, tick } from './fakes';

/** Plan ─ Launch (checked) ─ Notes; Research ─ Interview; Ideas */
function row(
  id: string,
  topic: string,
  parent: string | null,
  children: string[] = [],
  over: Partial<IOutlineRow> = {}
): IOutlineRow {
  return {
    id,
    topic,
    note: null,
    state: 'none',
    level: parent === null ? 0 : 1,
    parent,
    children,
    ...over
  };
}

const ROWS: IOutlineRow[] = [
  row('launch', 'Launch', null, ['notes'], { state: 'checked' }),
  row('notes', 'Release notes', 'launch', [], {
    note: 'write them first',
    level: 1
  }),
  row('research', 'Research', null, ['interview'], { state: 'mixed' }),
  row('interview', 'Interview users', 'research', [], { state: 'checked' }),
  row('ideas', 'Ideas', null)
];

function outline(rows = ROWS, revision = 'rev-1'): IOutline {
  return { path: 'plan.opml', revision, kind: 'outline', headings: [], rows };
}

function rowSuggestion(
  id: string,
  part: string,
  change: ISuggestion['change'],
  over: Partial<ISuggestion> = {}
): ISuggestion {
  return suggestionRecord({
    id,
    path: 'plan.opml',
    part,
    change,
    start: 0,
    end: 0,
    original: '',
    new: '',
    created: Number(id.replace(/\D/g, '') || 1),
    ...over
  });
}

const pending = (...list: ISuggestion[]): IPendingSuggestion[] =>
  list.map(suggestion => ({ suggestion, stale: false }));

describe('buildTree', () => {
  it('is the rows as they are without suggestions', () => {
    const tree = buildTree(ROWS, []);
    expect(tree.top).toEqual(['launch', 'research', 'ideas']);
    expect(tree.nodes.get('launch')!.children).toEqual(['notes']);
    expect(tree.nodes.get('notes')!.note).toBe('write them first');
    expect([...tree.nodes.values()].every(n => n.marks.length === 0)).toBe(
      true
    );
  });

  it('adds an inserted row as a ghost, with its nested rows, after its sibling', () => {
    const s = rowSuggestion('s1', 'new-1', {
      op: 'insert',
      after: 'notes',
      index: 1,
      fields: {
        topic: 'Tag v1.0',
        note: 'after the notes',
        state: 'unchecked',
        parent: 'launch',
        children: [{ id: 'new-2', topic: 'Push the tag', children: [] }]
      }
    });
    const tree = buildTree(ROWS, pending(s));
    const launch = tree.nodes.get('launch')!;
    expect(launch.children).toEqual(['notes', '+s1:0']);
    const ghost = tree.nodes.get('+s1:0')!;
    expect(ghost).toMatchObject({
      rowId: null,
      topic: 'Tag v1.0',
      note: 'after the notes',
      state: 'unchecked',
      parent: 'launch'
    });
    expect(ghost.marks.map(m => m.kind)).toEqual(['added']);
    expect(tree.nodes.get(ghost.children[0])!.topic).toBe('Push the tag');
    // First under its parent (after: null), and at `index` when `after` is gone.
    const first = rowSuggestion('s2', 'n', {
      op: 'insert',
      after: null,
      index: 0,
      fields: { topic: 'Kickoff', parent: null }
    });
    const gone = rowSuggestion('s3', 'm', {
      op: 'insert',
      after: 'deleted-meanwhile',
      index: 2,
      fields: { topic: 'Later', parent: null }
    });
    expect(buildTree(ROWS, pending(first, gone)).top).toEqual([
      '+s2:0',
      'launch',
      '+s3:0',
      'research',
      'ideas'
    ]);
  });

  it('places rows inserted one after another (insert_content) in their order', () => {
    // Each new top-level row is its own suggestion, after the one before it.
    const insert = (
      id: string,
      part: string,
      after: string | null,
      index: number,
      parent: string | null
    ) =>
      rowSuggestion(id, part, {
        op: 'insert',
        after,
        index,
        fields: { topic: part.toUpperCase(), parent }
      });
    const tree = buildTree(
      ROWS,
      pending(
        insert('s1', 'n1', 'launch', 1, null),
        insert('s2', 'n2', 'n1', 2, null),
        insert('s3', 'n3', null, 0, 'n2') // under a new row
      )
    );
    expect(tree.top).toEqual(['launch', '+s1:0', '+s2:0', 'research', 'ideas']);
    expect(tree.nodes.get('+s2:0')!.children).toEqual(['+s3:0']);
    expect(tree.nodes.get('+s3:0')!.parent).toBe('+s2:0');
  });

  it('shows a topic change as old → new, by a text change or by set', () => {
    const text = rowSuggestion('s1', 'research', null, {
      start: 0,
      end: 8,
      original: 'Research',
      new: 'User research'
    });
    const set = rowSuggestion('s2', 'ideas', {
      op: 'set',
      after: null,
      index: 0,
      fields: { topic: 'Ideas (later)', note: 'maybe', state: 'checked' }
    });
    const tree = buildTree(ROWS, pending(text, set));
    expect(tree.nodes.get('research')!.marks[0]).toMatchObject({
      kind: 'changed',
      stale: false,
      changes: [{ field: 'topic', before: 'Research', after: 'User research' }]
    });
    expect(tree.nodes.get('ideas')!.marks[0].changes).toEqual([
      { field: 'topic', before: 'Ideas', after: 'Ideas (later)' },
      { field: 'note', before: '', after: 'maybe' },
      { field: 'state', before: 'none', after: 'checked' }
    ]);
  });

  it('places a text change where the server placed it, in code points', () => {
    const s = rowSuggestion('s1', 'x', null, {
      start: 0,
      end: 1,
      original: 'b',
      new: 'B',
      currentStart: 3,
      currentEnd: 4
    });
    // "😀 b": the emoji is one code point, two UTF-16 units.
    expect(
      changedTopic('😀 ab', { ...s, currentStart: 3, currentEnd: 4 })
    ).toBe('😀 aB');
    // Not placed and the original is not where it was: cannot be shown as applied.
    expect(
      changedTopic('xyz', { ...s, currentStart: undefined, start: 0, end: 1 })
    ).toBeNull();
    const tree = buildTree(
      [row('x', 'xyz', null)],
      pending({ ...s, currentStart: undefined, currentEnd: undefined })
    );
    expect(tree.nodes.get('x')!.marks[0]).toMatchObject({
      stale: true,
      changes: [{ field: 'topic', before: 'b', after: 'B' }]
    });
  });

  it('marks a moved row at both places and a deleted row with its subtree', () => {
    const move = rowSuggestion('s1', 'ideas', {
      op: 'move',
      after: 'interview',
      index: 1,
      fields: { parent: 'research', topic: 'Ideas' }
    });
    const del = rowSuggestion('s2', 'launch', {
      op: 'delete',
      after: null,
      index: 0,
      fields: {}
    });
    const tree = buildTree(ROWS, pending(move, del));
    expect(tree.nodes.get('ideas')!.marks.map(m => m.kind)).toEqual(['moved']);
    expect(tree.nodes.get('research')!.children).toEqual([
      'interview',
      '+s1:0'
    ]);
    expect(tree.nodes.get('+s1:0')!.marks[0]).toMatchObject({
      kind: 'moved-here'
    });
    expect(tree.nodes.get('+s1:0')!.topic).toBe('Ideas');
    expect(tree.nodes.get('launch')!.marks[0].kind).toBe('deleted');
    expect(tree.nodes.get('notes')!.deletedWithin).toBe(true);
    expect(tree.nodes.get('research')!.deletedWithin).toBe(false);
    expect(ancestors(tree, '+s1:0')).toEqual(['research']);
  });

  it('keeps suggestions that name no row apart', () => {
    const whole = suggestionRecord({ id: 's9', path: 'plan.opml' });
    const missing = rowSuggestion('s8', 'no-such-row', null);
    const tree = buildTree(ROWS, pending(whole, missing));
    expect(tree.unplaced.map(s => s.id)).toEqual(['s9', 's8']); // oldest first
  });
});

describe('visibleRows and treeKey', () => {
  const tree = buildTree(ROWS, []);

  it('shows the children of expanded rows only', () => {
    const all = visibleRows(tree, new Set(), '');
    expect(all.map(r => [r.node.key, r.depth])).toEqual([
      ['launch', 0],
      ['notes', 1],
      ['research', 0],
      ['interview', 1],
      ['ideas', 0]
    ]);
    expect(all[0]).toMatchObject({
      hasChildren: true,
      expanded: true,
      position: 1,
      siblings: 3
    });
    const folded = visibleRows(tree, new Set(['launch']), '');
    expect(folded.map(r => r.node.key)).toEqual([
      'launch',
      'research',
      'interview',
      'ideas'
    ]);
    expect(folded[0].expanded).toBe(false);
  });

  it('counts the suggestions hidden under a folded row', () => {
    const s = rowSuggestion('s1', 'notes', {
      op: 'delete',
      after: null,
      index: 0,
      fields: {}
    });
    const marked = buildTree(ROWS, pending(s));
    expect(visibleRows(marked, new Set(['launch']), '')[0].hiddenMarks).toBe(1);
    expect(visibleRows(marked, new Set(), '')[0].hiddenMarks).toBe(0);
  });

  it('searches topics and notes, showing matches with their ancestors unfolded', () => {
    const rows = visibleRows(tree, new Set(['launch', 'research']), 'FIRST');
    expect(rows.map(r => r.node.key)).toEqual(['launch', 'notes']);
    expect(rows[0].expanded).toBe(true);
    expect(rows[1].noteMatch).toEqual([11, 16]);
    const users = visibleRows(tree, new Set(), 'users');
    expect(users.map(r => [r.node.key, r.topicMatch])).toEqual([
      ['research', null],
      ['interview', [10, 15]]
    ]);
    expect(visibleRows(tree, new Set(), 'nothing like it')).toEqual([]);
    expect(findMatch('İstanbul', 'x')).toBeNull();
  });

  it('moves, folds and unfolds with the keys of a tree', () => {
    const rows = visibleRows(tree, new Set(), '');
    expect(treeKey(rows, null, 'ArrowDown')).toEqual({ focus: 'launch' });
    expect(treeKey(rows, 'launch', 'ArrowDown')).toEqual({ focus: 'notes' });
    expect(treeKey(rows, 'notes', 'ArrowUp')).toEqual({ focus: 'launch' });
    expect(treeKey(rows, 'ideas', 'ArrowDown')).toEqual({ focus: 'ideas' });
    expect(treeKey(rows, 'notes', 'End')).toEqual({ focus: 'ideas' });
    expect(treeKey(rows, 'ideas', 'Home')).toEqual({ focus: 'launch' });
    // Left folds an open row, else goes to the parent; right unfolds, else enters.
    expect(treeKey(rows, 'launch', 'ArrowLeft')).toEqual({
      collapse: 'launch'
    });
    expect(treeKey(rows, 'notes', 'ArrowLeft')).toEqual({ focus: 'launch' });
    expect(treeKey(rows, 'launch', 'ArrowRight')).toEqual({ focus: 'notes' });
    const folded = visibleRows(tree, new Set(['launch']), '');
    expect(treeKey(folded, 'launch', 'ArrowRight')).toEqual({
      expand: 'launch'
    });
    expect(treeKey(folded, 'launch', 'Enter')).toEqual({ expand: 'launch' });
    expect(treeKey(rows, 'launch', 'Enter')).toEqual({ collapse: 'launch' });
    expect(treeKey(rows, 'launch', 'x')).toBeNull();
    expect(treeKey([], null, 'ArrowDown')).toBeNull();
  });
});

/** A suggestions source whose list the test sets. */
class FakeSuggestions implements ITreeSuggestions {
  list: IPendingSuggestion[] = [];
  decided: string[] = [];
  private _listeners = new Set<() => void>();
  pending(path: string) {
    return this.list.filter(p => p.suggestion.path === path);
  }
  onChange(listener: () => void) {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }
  set(...list: ISuggestion[]) {
    this.list = pending(...list);
    this._listeners.forEach(l => l());
  }
  async accept(id: string) {
    this.decided.push(`accept ${id}`);
    return {};
  }
  async reject(id: string) {
    this.decided.push(`reject ${id}`);
    return null; // as the panel's model answers a failed request
  }
  isBusy() {
    return false;
  }
}

function setup() {
  const calls: string[] = [];
  const answers: IOutline[] = [outline()];
  let wait: Promise<void> = Promise.resolve();
  const request: Request = async <T>(endPoint: string): Promise<T> => {
    calls.push(endPoint);
    await wait;
    return (answers.length > 1 ? answers.shift() : answers[0]) as T;
  };
  const suggestions = new FakeSuggestions();
  const events = new ServerEvents();
  const model = new OutlineTreeModel(
    '/plan.opml',
    request,
    suggestions,
    events
  );
  let changes = 0;
  model.onChange(() => changes++);
  return {
    calls,
    answers,
    suggestions,
    events,
    model,
    changes: () => changes,
    hold: (g: Promise<void>) => (wait = g)
  };
}

describe('OutlineTreeModel', () => {
  it('reads the rows and shows the suggestions as they change', async () => {
    const { model, calls, suggestions } = setup();
    expect(model.status).toBe('loading');
    await model.refresh();
    expect(calls).toEqual(['outline?path=plan.opml']);
    expect(model.status).toBe('ready');
    expect(model.rows.map(r => r.node.key)).toEqual([
      'launch',
      'notes',
      'research',
      'interview',
      'ideas'
    ]);
    suggestions.set(
      rowSuggestion('s1', 'n1', {
        op: 'insert',
        after: null,
        index: 0,
        fields: { topic: 'Ghost', parent: 'ideas' }
      }),
      suggestionRecord({ id: 's2', path: 'other.opml' })
    );
    expect(model.rows.map(r => r.node.key)).toContain('+s1:0');
    expect(model.tree.unplaced).toEqual([]);
  });

  it('folds, searches and follows the keyboard', async () => {
    const { model } = setup();
    await model.refresh();
    expect(model.handleKey('ArrowDown')).toBe(true);
    expect(model.focused).toBe('launch');
    model.handleKey('ArrowLeft');
    expect(model.rows.map(r => r.node.key)).not.toContain('notes');
    model.handleKey('ArrowRight');
    expect(model.rows.map(r => r.node.key)).toContain('notes');
    expect(model.handleKey('q')).toBe(false);
    model.focus('notes');
    model.setQuery('ideas');
    // The focused row is filtered out: the focus goes to a row shown.
    expect(model.rows.map(r => r.node.key)).toEqual(['ideas']);
    expect(model.focused).toBe('ideas');
    model.setQuery('');
    expect(model.rows).toHaveLength(5);
  });

  it('reads again on an agent’s change to this file only', async () => {
    const { model, calls, events, answers } = setup();
    await model.refresh();
    answers.push(outline(ROWS.slice(2), 'rev-2'));
    events.emit({
      type: 'document',
      data: { path: 'plan.opml', revision: 'rev-1' }
    });
    events.emit({ type: 'document', data: { path: 'x.opml', revision: 'r' } });
    await tick();
    expect(calls).toHaveLength(1); // same revision, another file: nothing
    events.emit({
      type: 'document',
      data: { path: 'plan.opml', revision: 'rev-2' }
    });
    await tick();
    await tick();
    expect(calls).toHaveLength(2);
  });

  it('coalesces refreshes while one runs', async () => {
    const { model, calls, hold } = setup();
    const g = gate();
    hold(g.promise);
    const first = model.refresh();
    void model.refresh();
    void model.refresh();
    g.release();
    await first;
    await tick();
    expect(calls).toHaveLength(2);
  });

  it('decides through the suggestions model and reads the rows again', async () => {
    const { model, calls, suggestions } = setup();
    await model.refresh();
    await model.decide('s1', 'accept');
    expect(suggestions.decided).toEqual(['accept s1']);
    expect(model.error).toBeNull();
    expect(calls).toHaveLength(2);
    await model.decide('s1', 'reject');
    expect(model.error).toContain('could not be rejected');
  });

  it('shows why the outline cannot be read', async () => {
    const suggestions = new FakeSuggestions();
    const failing: Request = async () => {
      throw new Error('this outline is not safe, well-formed XML');
    };
    const model = new OutlineTreeModel('bad.opml', failing, suggestions);
    await model.refresh();
    expect(model.status).toBe('error');
    expect(model.error).toContain('well-formed XML');
    expect(model.rows).toEqual([]);
    model.dispose();
  });
});

describe('treeSuggestions', () => {
  it('gives a file’s placeable suggestions and its stale pending ones', () => {
    const a = rowSuggestion('s1', 'ideas', null);
    const b = rowSuggestion('s2', 'launch', null);
    const decidedConflict = { ...b, id: 's3', status: 'conflict' as const };
    const listeners: (() => void)[] = [];
    const source = treeSuggestions({
      groups: [{ path: 'plan.opml', suggestions: [a] }],
      conflicts: [{ suggestion: b }, { suggestion: decidedConflict }],
      onChange: l => {
        listeners.push(l);
        return () => undefined;
      },
      accept: async id => id,
      reject: async id => id,
      isBusy: id => id === 's1'
    });
    expect(source.pending('plan.opml')).toEqual([
      { suggestion: a, stale: false },
      { suggestion: b, stale: true }
    ]);
    expect(source.pending('other.opml')).toEqual([]);
    expect(source.isBusy('s1')).toBe(true);
  });
});
