import { ServerEvents } from '../events';
import { depths, headingLabel } from '../outline';
import {
  IHeading,
  IOutline,
  MESSAGES,
  OutlineModel,
  OutlineState,
  outlineState,
  sameState,
  stateMessage,
  topRows
} from '../outline_model';
import type { Request } from '../request';

function heading(level: number, title: string, line: number): IHeading {
  return { id: `h-${line}`, level, title, line, lineEnd: line };
}

function outline(path: string, over: Partial<IOutline> = {}): IOutline {
  return {
    path,
    revision: 'rev-1',
    kind: 'markdown',
    headings: [heading(1, 'Title', 1), heading(2, 'Part', 3)],
    rows: [],
    ...over
  };
}

/** A server whose answers the test releases one by one. */
class FakeServer {
  calls: string[] = [];
  pending: {
    endPoint: string;
    resolve: (value: any) => void;
    reject: (error: Error) => void;
  }[] = [];

  request: Request = <T>(endPoint: string): Promise<T> => {
    this.calls.push(endPoint);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ endPoint, resolve, reject });
    });
  };

  /** Answer the oldest open request. */
  async answer(value: any): Promise<void> {
    const next = this.pending.shift();
    if (!next) {
      throw new Error('no request to answer');
    }
    next.resolve(value);
    await flush();
  }

  async fail(message: string): Promise<void> {
    this.pending.shift()!.reject(new Error(message));
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
  }
}

function setup() {
  const server = new FakeServer();
  const events = new ServerEvents();
  const model = new OutlineModel(server.request, events);
  const states: OutlineState[] = [];
  model.onChange(state => states.push(state));
  return { server, events, model, states };
}

describe('OutlineModel', () => {
  it('starts with no document', () => {
    const { model, server } = setup();
    expect(model.state).toEqual({ status: 'none' });
    expect(stateMessage(model.state)).toBe(MESSAGES.none);
    expect(server.calls).toEqual([]);
  });

  it('fetches the outline of the document it follows', async () => {
    const { model, server, states } = setup();
    const done = model.setPath('notes/a b.md');
    expect(model.state).toEqual({ status: 'loading', path: 'notes/a b.md' });
    expect(server.calls).toEqual(['outline?path=notes%2Fa%20b.md']);
    await server.answer(outline('notes/a b.md'));
    await done;
    expect(model.state.status).toBe('headings');
    expect(states.map(s => s.status)).toEqual(['loading', 'headings']);
    expect(stateMessage(model.state)).toBe('');
  });

  it('tells markdown without headings from other kinds', () => {
    expect(outlineState('a.md', outline('a.md', { headings: [] }))).toEqual({
      status: 'empty',
      path: 'a.md',
      outline: outline('a.md', { headings: [] })
    });
    const nb = outlineState(
      'a.ipynb',
      outline('a.ipynb', { kind: 'notebook', headings: [] })
    );
    expect(nb).toEqual({
      status: 'not-markdown',
      path: 'a.ipynb',
      kind: 'notebook'
    });
    expect(stateMessage(nb)).toBe(MESSAGES.notMarkdown);
    expect(
      stateMessage(outlineState('a.md', outline('a.md', { headings: [] })))
    ).toBe(MESSAGES.empty);
  });

  it('lists an OPML outline’s top-level rows', () => {
    const row = (id: string, parent: string | null) => ({
      id,
      topic: id.toUpperCase(),
      note: null,
      state: 'none' as const,
      level: parent === null ? 0 : 1,
      parent,
      children: []
    });
    const opml = outline('plan.opml', {
      kind: 'outline',
      headings: [],
      rows: [row('a', null), row('a1', 'a'), row('b', null)]
    });
    const state = outlineState('plan.opml', opml);
    expect(state.status).toBe('rows');
    expect(stateMessage(state)).toBe('');
    expect(topRows(opml).map(r => r.id)).toEqual(['a', 'b']);
    const empty = outlineState(
      'plan.opml',
      outline('plan.opml', { kind: 'outline', headings: [], rows: [] })
    );
    expect(empty.status).toBe('empty');
    expect(stateMessage(empty)).toBe(MESSAGES.emptyOutline);
    // Same revision: the same state (no redraw); another: a new one.
    expect(sameState(state, outlineState('plan.opml', opml))).toBe(true);
    expect(
      sameState(
        state,
        outlineState('plan.opml', { ...opml, revision: 'rev-2' })
      )
    ).toBe(false);
  });

  it('shows an error with the server’s message', async () => {
    const { model, server } = setup();
    void model.setPath('gone.md');
    await server.fail("no file 'gone.md' in the workspace");
    expect(model.state).toEqual({
      status: 'error',
      path: 'gone.md',
      message: "no file 'gone.md' in the workspace"
    });
    expect(stateMessage(model.state)).toContain('no file');
  });

  it('follows a switch of document and drops the late answer', async () => {
    const { model, server } = setup();
    void model.setPath('a.md');
    void model.setPath('/b.md'); // switched tabs before a.md answered
    expect(model.path).toBe('b.md');
    await server.answer(outline('a.md')); // a.md's late answer: dropped
    expect(model.state).toEqual({ status: 'loading', path: 'b.md' });
    await server.answer(outline('b.md', { headings: [heading(1, 'B', 1)] }));
    expect(model.state.status).toBe('headings');
    expect((model.state as any).outline.path).toBe('b.md');
  });

  it('goes back to no document', async () => {
    const { model, server } = setup();
    void model.setPath('a.md');
    await server.answer(outline('a.md'));
    await model.setPath(null);
    expect(model.state).toEqual({ status: 'none' });
    expect(server.calls).toHaveLength(1);
  });

  it('does not fetch again for the same path', async () => {
    const { model, server } = setup();
    void model.setPath('a.md');
    void model.setPath('a.md');
    expect(server.calls).toHaveLength(1);
  });

  it('refreshes on a document event for its path only', async () => {
    const { model, server, events } = setup();
    void model.setPath('a.md');
    await server.answer(outline('a.md'));

    events.emit({ type: 'document', data: { path: 'b.md', revision: 'x' } });
    events.emit({ type: 'checkpoint', data: { path: 'a.md' } });
    expect(server.calls).toHaveLength(1);

    // The revision it shows already: nothing to fetch.
    events.emit({
      type: 'document',
      data: { path: 'a.md', revision: 'rev-1' }
    });
    expect(server.calls).toHaveLength(1);

    events.emit({
      type: 'document',
      data: { path: 'a.md', revision: 'rev-2' }
    });
    expect(server.calls).toHaveLength(2);
    const added = outline('a.md', {
      revision: 'rev-2',
      headings: [...outline('a.md').headings, heading(2, 'Added', 5)]
    });
    await server.answer(added);
    // The old headings stayed while it loaded (no flicker), then the new ones.
    expect(model.state).toEqual({
      status: 'headings',
      path: 'a.md',
      outline: added
    });
  });

  it('coalesces refreshes during a fetch into one more fetch', async () => {
    const { model, server } = setup();
    const first = model.setPath('a.md');
    void model.refresh();
    void model.refresh();
    expect(server.calls).toHaveLength(1);
    await server.answer(outline('a.md'));
    expect(server.calls).toHaveLength(2); // the text may have changed meanwhile
    await server.answer(outline('a.md', { revision: 'rev-2' }));
    await first;
    expect(server.calls).toHaveLength(2);
    expect((model.state as any).outline.revision).toBe('rev-2');
  });

  it('does not announce an unchanged outline again', async () => {
    const { model, server, states } = setup();
    void model.setPath('a.md');
    await server.answer(outline('a.md'));
    void model.refresh(); // e.g. saved without a change
    await server.answer(outline('a.md'));
    expect(states.map(s => s.status)).toEqual(['loading', 'headings']);
    void model.refresh();
    await server.answer(outline('a.md', { revision: 'rev-2' }));
    expect(states.map(s => s.status)).toEqual([
      'loading',
      'headings',
      'headings'
    ]);
  });

  it('refresh without a document fetches nothing', async () => {
    const { model, server } = setup();
    await model.refresh();
    expect(server.calls).toEqual([]);
  });

  it('stops listening on dispose', async () => {
    const { model, server, events } = setup();
    void model.setPath('a.md');
    await server.answer(outline('a.md'));
    model.dispose();
    events.emit({
      type: 'document',
      data: { path: 'a.md', revision: 'rev-9' }
    });
    expect(server.calls).toHaveLength(1);
  });
});

describe('depths', () => {
  it('indents by level relative to the top one, one step at a time', () => {
    const hs = [
      heading(2, 'a', 1),
      heading(3, 'b', 2),
      heading(5, 'c', 3), // skips a level: one step deeper only
      heading(2, 'd', 4),
      heading(4, 'e', 5)
    ];
    expect(depths(hs)).toEqual([0, 1, 2, 0, 1]);
    expect(depths([])).toEqual([]);
  });
});

describe('headingLabel', () => {
  it('labels an empty heading', () => {
    expect(headingLabel(heading(1, 'Intro', 1))).toBe('Intro');
    expect(headingLabel(heading(1, '  ', 1))).toBe('(untitled heading)');
  });
});
