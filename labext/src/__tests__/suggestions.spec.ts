import {
  groupByPath,
  ISuggestion,
  lineRange,
  Requester,
  SuggestionsModel
} from '../suggestions';

function suggestion(over: Partial<ISuggestion>): ISuggestion {
  return {
    id: 's1',
    path: 'a.md',
    kind: 'replace',
    start: 0,
    end: 5,
    original: 'hello',
    new: 'hi',
    author: 'agent',
    user: 'me',
    rationale: 'shorter',
    operation: 'anchored',
    group: null,
    created: 1,
    status: 'pending',
    reason: null,
    lineStart: 1,
    lineEnd: 1,
    ...over
  };
}

interface ICall {
  endPoint: string;
  method: string;
  body: any;
}

/** A fake requester: records calls, answers from a route table. */
function fakeServer(routes: Record<string, (call: ICall) => any>): {
  request: Requester;
  calls: ICall[];
} {
  const calls: ICall[] = [];
  const request = (async (endPoint: string, init: RequestInit = {}) => {
    const call: ICall = {
      endPoint,
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(init.body as string) : undefined
    };
    calls.push(call);
    const route = routes[`${call.method} ${endPoint}`];
    if (!route) {
      throw new Error(`no route for ${call.method} ${endPoint}`);
    }
    return route(call);
  }) as Requester;
  return { request, calls };
}

describe('groupByPath', () => {
  it('groups by document path, documents sorted, suggestions in document order', () => {
    const groups = groupByPath([
      suggestion({ id: 'b2', path: 'b.md', start: 40 }),
      suggestion({ id: 'a1', path: 'a.md', start: 10 }),
      suggestion({ id: 'b1', path: 'b.md', start: 3 }),
      suggestion({ id: 'a0', path: 'a.md', start: 0 })
    ]);
    expect(groups.map(g => g.path)).toEqual(['a.md', 'b.md']);
    expect(groups[0].suggestions.map(s => s.id)).toEqual(['a0', 'a1']);
    expect(groups[1].suggestions.map(s => s.id)).toEqual(['b1', 'b2']);
  });

  it('is empty for no suggestions', () => {
    expect(groupByPath([])).toEqual([]);
  });
});

describe('lineRange', () => {
  it('names one line or a range', () => {
    expect(lineRange(suggestion({ lineStart: 3, lineEnd: 3 }))).toBe('line 3');
    expect(lineRange(suggestion({ lineStart: 3, lineEnd: 5 }))).toBe(
      'lines 3–5'
    );
  });
});

describe('SuggestionsModel', () => {
  it('fetches the pending suggestions and groups them', async () => {
    const { request, calls } = fakeServer({
      'GET suggestions?status=pending': () => ({
        suggestions: [
          suggestion({ id: 'x', path: 'b.md' }),
          suggestion({ id: 'y', path: 'a.md' })
        ],
        count: 2,
        counts: {}
      })
    });
    const model = new SuggestionsModel(request);
    let changes = 0;
    model.onChange(() => changes++);
    await model.refresh();
    expect(calls).toHaveLength(1);
    expect(model.loaded).toBe(true);
    expect(model.pendingCount).toBe(2);
    expect(model.groups.map(g => g.path)).toEqual(['a.md', 'b.md']);
    expect(model.error).toBeNull();
    expect(changes).toBeGreaterThan(0);
  });

  it('keeps the failure message when the list cannot be fetched', async () => {
    const { request } = fakeServer({});
    const model = new SuggestionsModel(request);
    await model.refresh();
    expect(model.error).toContain('no route');
    expect(model.groups).toEqual([]);
  });

  it('accepts and rejects one suggestion, then refreshes', async () => {
    let pending = [suggestion({ id: 'a' }), suggestion({ id: 'b', start: 9 })];
    const { request, calls } = fakeServer({
      'GET suggestions?status=pending': () => ({
        suggestions: pending,
        count: pending.length,
        counts: {}
      }),
      'POST suggestions/a/accept': () => {
        pending = pending.filter(s => s.id !== 'a');
        return suggestion({ id: 'a', status: 'accepted' });
      },
      'POST suggestions/b/reject': () => {
        pending = pending.filter(s => s.id !== 'b');
        return suggestion({ id: 'b', status: 'rejected' });
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    expect(model.pendingCount).toBe(2);

    const accepted = await model.accept('a');
    expect(accepted?.status).toBe('accepted');
    expect(model.pendingCount).toBe(1);
    expect(model.conflicts).toEqual([]);

    await model.reject('b');
    expect(model.pendingCount).toBe(0);
    expect(calls.map(c => `${c.method} ${c.endPoint}`)).toEqual([
      'GET suggestions?status=pending',
      'POST suggestions/a/accept',
      'GET suggestions?status=pending',
      'POST suggestions/b/reject',
      'GET suggestions?status=pending'
    ]);
    expect(model.busy.size).toBe(0);
  });

  it('keeps a conflict when accept answers status conflict', async () => {
    let pending = [suggestion({ id: 'c' })];
    const { request } = fakeServer({
      'GET suggestions?status=pending': () => ({
        suggestions: pending,
        count: pending.length,
        counts: {}
      }),
      'POST suggestions/c/accept': () => {
        pending = [];
        return suggestion({
          id: 'c',
          status: 'conflict',
          reason: 'the original text is gone'
        });
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    const result = await model.accept('c');
    expect(result?.status).toBe('conflict');
    expect(model.pendingCount).toBe(0);
    expect(model.conflicts).toHaveLength(1);
    expect(model.conflicts[0].suggestion.id).toBe('c');
    expect(model.conflicts[0].reason).toBe('the original text is gone');

    model.dismissConflict('c');
    expect(model.conflicts).toEqual([]);
  });

  it('accepts all and rejects all of a document with its path', async () => {
    const { request, calls } = fakeServer({
      'GET suggestions?status=pending': () => ({
        suggestions: [],
        count: 0,
        counts: {}
      }),
      'POST suggestions/accept-all': () => ({
        accepted: [suggestion({ id: 'a', status: 'accepted' })],
        conflicts: [suggestion({ id: 'b', status: 'conflict' })],
        revision: 'r2'
      }),
      'POST suggestions/reject-all': () => ({ rejected: [] })
    });
    const model = new SuggestionsModel(request);
    const result = await model.acceptAll('docs/a.md');
    expect(result?.accepted).toHaveLength(1);
    expect(model.conflicts.map(c => c.suggestion.id)).toEqual(['b']);
    expect(model.conflicts[0].reason).toMatch(/original text changed/);
    await model.rejectAll('docs/a.md');
    const posts = calls.filter(c => c.method === 'POST');
    expect(posts).toEqual([
      {
        endPoint: 'suggestions/accept-all',
        method: 'POST',
        body: { path: 'docs/a.md' }
      },
      {
        endPoint: 'suggestions/reject-all',
        method: 'POST',
        body: { path: 'docs/a.md' }
      }
    ]);
  });

  it('records a failed action and still refreshes', async () => {
    const { request, calls } = fakeServer({
      'GET suggestions?status=pending': () => ({
        suggestions: [],
        count: 0,
        counts: {}
      }),
      'POST suggestions/gone/accept': () => {
        throw new Error('Suggestion gone is not pending.');
      }
    });
    const model = new SuggestionsModel(request);
    expect(await model.accept('gone')).toBeNull();
    // The refresh after the action succeeds; the action's failure stays shown.
    expect(model.error).toBe('Suggestion gone is not pending.');
    expect(calls.map(c => c.endPoint)).toEqual([
      'suggestions/gone/accept',
      'suggestions?status=pending'
    ]);
  });

  it('fetches the unified diff of one suggestion', async () => {
    const { request } = fakeServer({
      'GET suggestions/a%2Fb': () => ({
        ...suggestion({ id: 'a/b' }),
        diff: '--- a\n+++ b\n'
      })
    });
    const model = new SuggestionsModel(request);
    expect(await model.diff('a/b')).toBe('--- a\n+++ b\n');
  });

  it('shares one request between concurrent refreshes', async () => {
    let release!: () => void;
    const gate = new Promise<void>(resolve => (release = resolve));
    const { request, calls } = fakeServer({
      'GET suggestions?status=pending': async () => {
        await gate;
        return { suggestions: [], count: 0, counts: {} };
      }
    });
    const model = new SuggestionsModel(request);
    const first = model.refresh();
    const second = model.refresh();
    release();
    await Promise.all([first, second]);
    // One in flight, one queued after it.
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(calls.length).toBeLessThanOrEqual(2);
  });
});
