import {
  checkpointLines,
  CheckpointsModel,
  httpStatus,
  ICheckpoint,
  sourceLabel
} from '../checkpoints_model';
import { sentence } from '../dom';
import { fakeServer, gate, responseError, tick } from './fakes';

function checkpoint(over: Partial<ICheckpoint>): ICheckpoint {
  return {
    id: 'cp-1',
    path: 'notes.md',
    beforeRevision: 'r1',
    afterRevision: 'r2',
    start: 0,
    old: 'brown',
    new: 'red',
    author: 'agent',
    user: 'me',
    session: 's',
    source: 'grant',
    suggestionId: null,
    grantId: 'grant-1',
    created: 1000,
    revertedBy: null,
    label: 'edit',
    lineStart: 3,
    lineEnd: 3,
    rationale: '',
    cells: null,
    ...over
  };
}

describe('checkpoint helpers', () => {
  it('names the lines, or nothing once they are unknown', () => {
    expect(checkpointLines(checkpoint({ lineStart: 3, lineEnd: 3 }))).toBe(
      'line 3'
    );
    expect(checkpointLines(checkpoint({ lineStart: 3, lineEnd: 5 }))).toBe(
      'lines 3–5'
    );
    expect(
      checkpointLines(checkpoint({ lineStart: null, lineEnd: null }))
    ).toBe('');
  });

  it('makes a server message a sentence', () => {
    expect(sentence("the checkpoint's change was edited since")).toBe(
      "The checkpoint's change was edited since"
    );
    expect(sentence('')).toBe('');
  });

  it('labels the sources and reads the HTTP status of an error', () => {
    expect(['auto', 'grant', 'accepted'].map(sourceLabel)).toEqual([
      'auto',
      'grant',
      'accepted'
    ]);
    expect(httpStatus(responseError(409, 'x'))).toBe(409);
    expect(httpStatus(new Error('network'))).toBeUndefined();
  });
});

describe('CheckpointsModel', () => {
  it('fetches the newest page first and shows more on request', async () => {
    const all = Array.from({ length: 5 }, (_, i) =>
      checkpoint({ id: `cp-${5 - i}`, created: 100 - i })
    );
    const { request, calls } = fakeServer({
      'GET checkpoints?limit=2': () => ({
        checkpoints: all.slice(0, 2),
        count: 2
      }),
      'GET checkpoints?limit=4': () => ({
        checkpoints: all.slice(0, 4),
        count: 4
      }),
      'GET checkpoints?limit=6': () => ({ checkpoints: all, count: 5 })
    });
    const model = new CheckpointsModel(request, 2);
    expect(model.loaded).toBe(false);
    await model.refresh();
    expect(model.checkpoints.map(c => c.id)).toEqual(['cp-5', 'cp-4']);
    expect(model.hasMore).toBe(true);
    await model.showMore();
    expect(model.checkpoints).toHaveLength(4);
    await model.showMore();
    expect(model.checkpoints).toHaveLength(5);
    expect(model.hasMore).toBe(false);
    expect(calls.map(c => c.endPoint)).toEqual([
      'checkpoints?limit=2',
      'checkpoints?limit=4',
      'checkpoints?limit=6'
    ]);
  });

  it('refreshes on checkpoint events once it was shown, and on reconnect', async () => {
    const { request, calls } = fakeServer({
      'GET checkpoints?limit=50': () => ({ checkpoints: [], count: 0 })
    });
    const model = new CheckpointsModel(request);
    // Not shown yet: events fetch nothing.
    model.handleEvent({ type: 'checkpoint', data: {} });
    model.reconnected();
    expect(calls).toHaveLength(0);

    await model.refresh();
    model.handleEvent({ type: 'grant', data: {} });
    expect(calls).toHaveLength(1);
    model.handleEvent({ type: 'checkpoint', data: {} });
    await tick();
    expect(calls).toHaveLength(2);
    model.reconnected();
    await tick();
    expect(calls).toHaveLength(3);
  });

  it('keeps a failed list fetch as the error', async () => {
    const { request } = fakeServer({});
    const model = new CheckpointsModel(request);
    await model.refresh();
    expect(model.loaded).toBe(true);
    expect(model.error).toContain('no route');
  });

  it('reverts: busy while in flight, then shown as reverted', async () => {
    let list = [checkpoint({ id: 'cp-1' })];
    const hold = gate();
    const { request, calls } = fakeServer({
      'GET checkpoints?limit=50': () => ({
        checkpoints: list,
        count: list.length
      }),
      'POST checkpoints/cp-1/revert': async () => {
        await hold.promise;
        const undo = checkpoint({
          id: 'cp-2',
          source: 'revert',
          old: 'red',
          new: 'brown'
        });
        list = [undo, checkpoint({ id: 'cp-1', revertedBy: 'cp-2' })];
        return undo;
      }
    });
    const model = new CheckpointsModel(request);
    await model.refresh();
    const done = model.revert('cp-1');
    expect(model.busy.has('cp-1')).toBe(true);
    expect(await model.revert('cp-1')).toBeNull(); // a second click: nothing sent
    hold.release();
    const undo = await done;
    expect(undo?.id).toBe('cp-2');
    expect(model.busy.size).toBe(0);
    expect(model.rowError('cp-1')).toBeNull();
    expect(model.checkpoints.map(c => [c.id, c.revertedBy])).toEqual([
      ['cp-2', null],
      ['cp-1', 'cp-2']
    ]);
    expect(calls.filter(c => c.method === 'POST')).toHaveLength(1);
  });

  it('keeps a conflict on its row, and nothing is shown as reverted', async () => {
    const { request } = fakeServer({
      'GET checkpoints?limit=50': () => ({
        checkpoints: [checkpoint({ id: 'cp-1' })],
        count: 1
      }),
      'POST checkpoints/cp-1/revert': () => {
        throw responseError(
          409,
          "the checkpoint's change was edited since; revert it by hand"
        );
      }
    });
    const model = new CheckpointsModel(request);
    await model.refresh();
    expect(await model.revert('cp-1')).toBeNull();
    expect(model.rowError('cp-1')).toEqual({
      conflict: true,
      message: "the checkpoint's change was edited since; revert it by hand"
    });
    expect(model.checkpoints[0].revertedBy).toBeNull();
    expect(model.error).toBeNull();
  });

  it('tells other failures from conflicts and clears the error on retry', async () => {
    let fail = true;
    const { request } = fakeServer({
      'GET checkpoints?limit=50': () => ({
        checkpoints: [checkpoint({ id: 'cp-1' })],
        count: 1
      }),
      'POST checkpoints/cp-1/revert': () => {
        if (fail) {
          throw responseError(403, 'This server is read-only.');
        }
        return checkpoint({ id: 'cp-9', source: 'revert' });
      }
    });
    const model = new CheckpointsModel(request);
    await model.refresh();
    await model.revert('cp-1');
    expect(model.rowError('cp-1')?.conflict).toBe(false);
    fail = false;
    await model.revert('cp-1');
    expect(model.rowError('cp-1')).toBeNull();
  });

  it('fetches the diff of one checkpoint', async () => {
    const { request } = fakeServer({
      'GET checkpoints/cp%2F1': () => ({
        ...checkpoint({ id: 'cp/1' }),
        diff: '--- a/notes.md\n+++ b/notes.md\n'
      })
    });
    const model = new CheckpointsModel(request);
    expect(await model.diff('cp/1')).toBe('--- a/notes.md\n+++ b/notes.md\n');
  });
});
