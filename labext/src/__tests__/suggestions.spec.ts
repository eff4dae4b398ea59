import { displayOrder } from '../selection';
import {
  groupByPath,
  ISuggestion,
  lineRange,
  SuggestionsModel
} from '../suggestions';
import { fakeServer, gate, ICall, suggestionRecord, tick } from './fakes';

function suggestion(over: Partial<ISuggestion>): ISuggestion {
  return suggestionRecord({ rationale: 'shorter', ...over });
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
      'GET suggestions?status=open&locate=true&context=2': () => ({
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
      'GET suggestions?status=open&locate=true&context=2': () => ({
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
      'GET suggestions?status=open&locate=true&context=2',
      'POST suggestions/a/accept',
      'GET suggestions?status=open&locate=true&context=2',
      'POST suggestions/b/reject',
      'GET suggestions?status=open&locate=true&context=2'
    ]);
    expect(model.busy.size).toBe(0);
  });

  it('keeps a conflict when accept answers status conflict, until dismissed', async () => {
    let open = [suggestion({ id: 'c' })];
    const conflicted = suggestion({
      id: 'c',
      status: 'conflict',
      reason: 'the original text is gone'
    });
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () => ({
        suggestions: open,
        count: open.length,
        counts: {}
      }),
      'POST suggestions/c/accept': () => {
        open = [conflicted]; // the server lists it until it is dismissed
        return conflicted;
      },
      'POST suggestions/c/reject': () => {
        open = [];
        return { ...conflicted, status: 'rejected' };
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    const result = await model.accept('c');
    expect(result?.status).toBe('conflict');
    expect(model.pendingCount).toBe(0);
    expect(model.conflicts).toHaveLength(1);
    expect(model.conflicts[0].suggestion.id).toBe('c');
    expect(model.conflicts[0].kind).toBe('conflict');
    expect(model.conflicts[0].reason).toBe('The original text is gone'); // as a sentence

    // Dismissing rejects it on the server, so a reload does not bring it back.
    await model.dismissConflict('c');
    expect(model.conflicts).toEqual([]);
    expect(calls.map(c => `${c.method} ${c.endPoint}`)).toContain(
      'POST suggestions/c/reject'
    );
  });

  it('drops a conflict dismissed elsewhere at the next list, not one a list older than it leaves out', async () => {
    let open = [suggestion({ id: 'c' })];
    const conflicted = suggestion({ id: 'c', status: 'conflict' });
    let hold: ReturnType<typeof gate> | null = null;
    let answered = open;
    const { request } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': async () => {
        answered = open; // what the server lists when the request arrives
        if (hold) {
          await hold.promise;
        }
        return { suggestions: answered, count: answered.length, counts: {} };
      },
      'POST suggestions/c/accept': () => {
        open = [conflicted];
        return conflicted;
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    // A list asked for before the accept answers after it, without the conflict.
    hold = gate();
    open = [];
    const older = model.refresh();
    await tick();
    open = [suggestion({ id: 'c' })];
    const accepted = model.accept('c');
    await tick();
    hold.release();
    hold = null;
    await older;
    expect(model.conflicts.map(c => c.suggestion.id)).toEqual(['c']);
    await accepted;
    expect(model.conflicts.map(c => c.suggestion.id)).toEqual(['c']); // listed as a conflict
    // Dismissed in another tab (rejected through REST): the next list leaves it out.
    open = [];
    await model.refresh();
    expect(model.conflicts).toEqual([]);
  });

  it('accepts all and rejects all of a document with its path', async () => {
    let open: ISuggestion[] = [];
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () => ({
        suggestions: open,
        count: open.length,
        counts: {}
      }),
      'POST suggestions/accept-all': () => {
        const conflict = suggestion({ id: 'b', status: 'conflict' });
        open = [conflict]; // listed until re-applied or dismissed
        return {
          accepted: [suggestion({ id: 'a', status: 'accepted' })],
          conflicts: [conflict],
          revision: 'r2'
        };
      },
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
      'GET suggestions?status=open&locate=true&context=2': () => ({
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
      'suggestions?status=open&locate=true&context=2'
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
    const hold = gate();
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': async () => {
        await hold.promise;
        return { suggestions: [], count: 0, counts: {} };
      }
    });
    const model = new SuggestionsModel(request);
    const first = model.refresh();
    const second = model.refresh();
    hold.release();
    await Promise.all([first, second]);
    // One in flight, one queued after it.
    await tick();
    expect(calls.length).toBeLessThanOrEqual(2);
  });
});

describe('SuggestionsModel selection and keys', () => {
  /** Three suggestions on two documents, with accept/reject routes. */
  function reviewServer(options: { hold?: Promise<void> } = {}) {
    let pending = [
      suggestion({ id: 'b1', path: 'b.md', start: 0 }),
      suggestion({ id: 'a2', path: 'a.md', start: 10 }),
      suggestion({ id: 'a1', path: 'a.md', start: 0 })
    ];
    const decide = (status: 'accepted' | 'rejected') => async (call: ICall) => {
      await options.hold;
      const id = call.endPoint.split('/')[1];
      pending = pending.filter(s => s.id !== id);
      return suggestion({ id, status });
    };
    const routes: Record<string, (call: ICall) => any> = {
      'GET suggestions?status=open&locate=true&context=2': () => ({
        suggestions: pending,
        count: pending.length,
        counts: {}
      })
    };
    for (const id of ['a1', 'a2', 'b1']) {
      routes[`POST suggestions/${id}/accept`] = decide('accepted');
      routes[`POST suggestions/${id}/reject`] = decide('rejected');
    }
    return fakeServer(routes);
  }

  const decisions = (calls: ICall[]) =>
    calls.filter(c => c.method === 'POST').map(c => c.endPoint);

  it('moves across documents in display order, stopping at the ends', async () => {
    const { request } = reviewServer();
    const model = new SuggestionsModel(request);
    await model.refresh();
    expect(displayOrder(model.groups)).toEqual(['a1', 'a2', 'b1']);
    expect(model.selected).toBeNull();

    model.moveSelection('next');
    expect(model.selected).toBe('a1');
    model.moveSelection('next');
    model.moveSelection('next');
    expect(model.selected).toBe('b1'); // from a.md into b.md
    model.moveSelection('next');
    expect(model.selected).toBe('b1');
    model.moveSelection('first');
    expect(model.selected).toBe('a1');
    model.moveSelection('previous');
    expect(model.selected).toBe('a1');
    model.moveSelection('last');
    expect(model.selected).toBe('b1');

    model.select(null);
    model.moveSelection('previous');
    expect(model.selected).toBe('b1'); // from nothing, up is the last
  });

  it('selects the first one when the list gets the focus, a clicked one on click', async () => {
    const { request } = reviewServer();
    const model = new SuggestionsModel(request);
    await model.refresh();
    model.selectFirstIfNone();
    expect(model.selected).toBe('a1');
    model.select('b1');
    model.selectFirstIfNone();
    expect(model.selected).toBe('b1');
    model.select('unknown');
    expect(model.selected).toBeNull();
  });

  it('accepts with Enter and rejects with Escape, the selection moving on', async () => {
    const { request, calls } = reviewServer();
    const model = new SuggestionsModel(request);
    await model.refresh();
    let changes = 0;
    model.onChange(() => changes++);

    model.selectFirstIfNone();
    expect(model.handleKey({ key: 'ArrowDown' })).toBe(true);
    expect(model.selected).toBe('a2');
    expect(changes).toBeGreaterThan(0);

    expect(model.handleKey({ key: 'Enter' })).toBe(true);
    expect(model.isBusy('a2')).toBe(true);
    await tick();
    expect(model.selected).toBe('b1');
    await model.refresh();
    expect(displayOrder(model.groups)).toEqual(['a1', 'b1']);
    expect(model.selected).toBe('b1');

    model.handleKey({ key: 'Escape' });
    await model.refresh();
    expect(decisions(calls)).toEqual([
      'suggestions/a2/accept',
      'suggestions/b1/reject'
    ]);
    // b1 was the last: back to the one before it.
    expect(model.selected).toBe('a1');
    expect(displayOrder(model.groups)).toEqual(['a1']);
  });

  it('ignores keys it does not own and does nothing without a selection', async () => {
    const { request, calls } = reviewServer();
    const model = new SuggestionsModel(request);
    await model.refresh();
    expect(model.handleKey({ key: 'x' })).toBe(false);
    expect(model.handleKey({ key: 'Enter', targetTag: 'INPUT' })).toBe(false);
    expect(model.selected).toBeNull();
    expect(model.handleKey({ key: 'Enter' })).toBe(true);
    expect(await model.acceptSelected()).toBeNull();
    expect(await model.rejectSelected()).toBeNull();
    expect(decisions(calls)).toEqual([]);
  });

  it('does nothing while a request for the selected suggestion is in flight', async () => {
    const hold = gate();
    const { request, calls } = reviewServer({ hold: hold.promise });
    const model = new SuggestionsModel(request);
    await model.refresh();
    model.select('a1');

    const first = model.acceptSelected();
    expect(model.isBusy('a1')).toBe(true);
    model.handleKey({ key: 'Enter' });
    model.handleKey({ key: 'Escape' });
    expect(await model.rejectSelected()).toBeNull();
    hold.release();
    expect((await first)?.status).toBe('accepted');
    expect(decisions(calls)).toEqual(['suggestions/a1/accept']);
    expect(model.isBusy('a1')).toBe(false);
    expect(model.selected).toBe('a2');
  });

  it('counts a document-wide request as in flight for its suggestions', async () => {
    const hold = gate();
    let pending = [
      suggestion({ id: 'a1' }),
      suggestion({ id: 'b1', path: 'b.md' })
    ];
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () => ({
        suggestions: pending,
        count: pending.length,
        counts: {}
      }),
      'POST suggestions/accept-all': async () => {
        await hold.promise;
        pending = pending.filter(s => s.path !== 'a.md');
        return {
          accepted: [suggestion({ id: 'a1', status: 'accepted' })],
          conflicts: [],
          revision: 'r'
        };
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    model.select('a1');
    const all = model.acceptAll('a.md');
    expect(model.isBusy('a1')).toBe(true);
    expect(model.isBusy('b1')).toBe(false);
    model.handleKey({ key: 'Enter' });
    hold.release();
    await all;
    expect(decisions(calls)).toEqual(['suggestions/accept-all']);
    expect(model.selected).toBe('b1');
  });

  it('does not show a decided suggestion again from a list fetched before the decision', async () => {
    const slowList = gate();
    const stale = [
      suggestion({ id: 'a1' }),
      suggestion({ id: 'a2', start: 9 })
    ];
    let current = stale;
    let listCalls = 0;
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': async () => {
        listCalls++;
        const answer = current; // what the server had when the request came in
        if (listCalls === 2) {
          await slowList.promise;
        }
        return { suggestions: answer, count: answer.length, counts: {} };
      },
      'POST suggestions/a1/accept': () => {
        current = current.filter(s => s.id !== 'a1');
        return suggestion({ id: 'a1', status: 'accepted' });
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    const inFlight = model.refresh(); // an event's refresh, answered late
    model.select('a1');
    const accepted = model.accept('a1');
    slowList.release();
    await inFlight;
    expect(displayOrder(model.groups)).toEqual(['a2']);
    await accepted;
    await tick();
    expect(displayOrder(model.groups)).toEqual(['a2']);
    expect(model.selected).toBe('a2');
    // A second Enter has nothing decided twice to send.
    model.handleKey({ key: 'Enter' });
    await tick();
    expect(decisions(calls)).toEqual([
      'suggestions/a1/accept',
      'suggestions/a2/accept'
    ]);
  });
});

describe('SuggestionsModel conflicts and re-applying', () => {
  const listed = (suggestions: ISuggestion[]) => ({
    suggestions,
    count: suggestions.length,
    counts: { 'a.md': { pending: suggestions.length, rejected: 2 } }
  });

  it('shows a pending suggestion whose text changed as a conflict, not pending', async () => {
    const { request } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () =>
        listed([
          suggestion({ id: 'here', currentStart: 0, currentEnd: 5 }),
          suggestion({
            id: 'gone',
            start: 10,
            end: 12,
            currentStart: null,
            currentEnd: null
          })
        ])
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    expect(displayOrder(model.groups)).toEqual(['here']);
    expect(model.pendingCount).toBe(1);
    expect(model.conflicts.map(c => [c.suggestion.id, c.kind])).toEqual([
      ['gone', 'changed']
    ]);
    expect(model.conflicts[0].reason).toMatch(/edited since/);
    expect(model.counts).toEqual({ 'a.md': { pending: 2, rejected: 2 } });
  });

  it('shows one typed over in an editor as a conflict at once, pending again once placed', async () => {
    const { request } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () =>
        listed([suggestion({ id: 's1', currentStart: 0, currentEnd: 5 })])
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    model.select('s1');
    model.markTypedOver(['s1', 'unknown']);
    expect(model.pendingCount).toBe(0);
    expect(model.selected).toBeNull();
    expect(model.conflicts.map(c => [c.suggestion.id, c.kind])).toEqual([
      ['s1', 'typed']
    ]);
    // A refresh from the server (the file is not saved) keeps it a conflict.
    await model.refresh();
    expect(model.conflicts.map(c => c.kind)).toEqual(['typed']);
    model.placedAgain(['s1']);
    expect(model.pendingCount).toBe(1);
    expect(model.conflicts).toEqual([]);
  });

  it('previews a re-application, then re-applies against the previewed revision', async () => {
    let open = [
      suggestion({ id: 'old', currentStart: null, currentEnd: null })
    ];
    const preview = {
      suggestionId: 'old',
      path: 'a.md',
      revision: 'rev-2',
      start: 0,
      end: 4,
      lineStart: 1,
      lineEnd: 1,
      current: 'hola',
      new: 'hi',
      clean: false,
      contextBefore: '',
      contextAfter: '\n'
    };
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () => listed(open),
      'GET suggestions/old/reapply': () => preview,
      'POST suggestions/old/reapply': () => {
        const fresh = suggestion({
          id: 'new',
          original: 'hola',
          currentStart: 0,
          currentEnd: 4
        });
        open = [fresh];
        return {
          previous: suggestion({ id: 'old', status: 'rejected' }),
          suggestion: fresh
        };
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    expect(model.preview('old')).toEqual({ state: 'loading' });
    await tick();
    expect(model.preview('old')).toEqual({ state: 'ready', preview });
    expect(
      calls.filter(c => c.endPoint === 'suggestions/old/reapply')
    ).toHaveLength(1);

    const result = await model.reapply('old');
    expect(result?.suggestion.id).toBe('new');
    const post = calls.find(c => c.method === 'POST')!;
    expect(post.body).toEqual({ expectedRevision: 'rev-2' });
    expect(model.conflicts).toEqual([]);
    expect(displayOrder(model.groups)).toEqual(['new']);
    expect(model.selected).toBe('new'); // the person reviews it next
  });

  it('shows why a re-application failed, and previews again', async () => {
    const { request } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () =>
        listed([suggestion({ id: 'x', status: 'conflict' })]),
      'GET suggestions/x/reapply': () => {
        throw new Error('the text there already reads as suggested');
      },
      'POST suggestions/x/reapply': () => {
        throw new Error('stale');
      }
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    model.preview('x');
    await tick();
    expect(model.preview('x')).toEqual({
      state: 'failed',
      message: 'the text there already reads as suggested'
    });
    expect(await model.reapply('x')).toBeNull();
    expect(model.error).toBe('stale');
    expect(model.conflicts.map(c => c.suggestion.id)).toEqual(['x']);
  });

  it('accepts all of a document as the ids that apply where they are', async () => {
    const { request, calls } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () =>
        listed([
          suggestion({ id: 'a', currentStart: 0, currentEnd: 5 }),
          suggestion({ id: 'b', start: 8, end: 9, currentStart: null })
        ]),
      'POST suggestions/accept-all': () => ({
        accepted: [],
        conflicts: [],
        revision: null
      })
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    await model.acceptAll('a.md');
    expect(calls.find(c => c.method === 'POST')?.body).toEqual({
      path: 'a.md',
      ids: ['a']
    });
  });
});
