import {
  actionOf,
  ActivityModel,
  IActivityEntry,
  IActivityList,
  isError,
  isPerson,
  matchesFilter,
  MAX_ENTRIES,
  prettyArguments,
  toolLabel
} from '../activity_model';
import { tick } from './fakes';

function entry(
  seq: number,
  extra: Partial<IActivityEntry> = {}
): IActivityEntry {
  return {
    seq,
    time: 1_700_000_000 + seq,
    profile: 'lab',
    tool: 'document.read',
    client: 'claude-code',
    user: 'me',
    session: 'sess-1',
    arguments: "path='notes.md'",
    status: 'ok',
    durationMs: 2.5,
    actor: 'agent',
    fullArguments: '{"path": "notes.md"}',
    result: '{"revision": "rev-1"}',
    ...extra
  };
}

function list(entries: IActivityEntry[], latest?: number): IActivityList {
  return {
    entries,
    count: entries.length,
    latest: latest ?? (entries.length ? entries[entries.length - 1].seq : 0)
  };
}

/** A fake REST client: answers queued per call, remembers the routes asked. */
class FakeServer {
  calls: string[] = [];
  answers: Array<IActivityList | Error> = [];
  pending: Array<() => void> = [];
  /** When set, each answer waits until `release()`. */
  hold = false;

  request = async <T>(endPoint: string): Promise<T> => {
    this.calls.push(endPoint);
    const answer = this.answers.shift() ?? list([]);
    if (this.hold) {
      await new Promise<void>(resolve => this.pending.push(resolve));
    }
    if (answer instanceof Error) {
      throw answer;
    }
    return answer as T;
  };

  release(): void {
    const pending = this.pending;
    this.pending = [];
    pending.forEach(resolve => resolve());
  }
}

const seqs = (entries: readonly IActivityEntry[]) => entries.map(e => e.seq);

describe('row helpers', () => {
  it('finds the action argument in a summary', () => {
    expect(actionOf("action='read', path='a.md'")).toBe('read');
    expect(actionOf("path='a.md', action='edit'")).toBe('edit');
    expect(actionOf("path='a.md'")).toBeNull();
    expect(actionOf("reaction='x'")).toBeNull();
  });

  it('names the tool with its action once', () => {
    expect(toolLabel(entry(1))).toBe('document.read');
    expect(toolLabel(entry(1, { arguments: "action='read'" }))).toBe(
      'document.read'
    );
    expect(
      toolLabel(
        entry(1, { tool: 'vault', arguments: "action='search', q='x'" })
      )
    ).toBe('vault search');
  });

  it('tells errors by status', () => {
    expect(isError(entry(1))).toBe(false);
    expect(isError(entry(1, { status: 'NOT_FOUND' }))).toBe(true);
    expect(isError(entry(1, { status: 'INTERNAL' }))).toBe(true);
  });

  it('filters on tool, client and arguments, case-insensitively', () => {
    const e = entry(1, { client: 'Cursor', arguments: "path='Notes/plan.md'" });
    expect(matchesFilter(e, '', false)).toBe(true);
    expect(matchesFilter(e, 'DOCUMENT', false)).toBe(true);
    expect(matchesFilter(e, 'cursor', false)).toBe(true);
    expect(matchesFilter(e, 'plan.md', false)).toBe(true);
    expect(matchesFilter(e, '  plan  ', false)).toBe(true);
    expect(matchesFilter(e, 'sess-1', false)).toBe(false); // nor session nor user
    expect(matchesFilter(e, '', true)).toBe(false);
    const failed = { ...e, status: 'STALE' };
    expect(matchesFilter(failed, 'plan', true)).toBe(true);
    expect(matchesFilter(failed, 'vault', true)).toBe(false);
  });
});

describe('whole arguments, results and the person', () => {
  // An edit whose op comes after a long rationale: the one-line summary cut it off.
  const edit = entry(1, {
    tool: 'document.edit',
    arguments:
      "action='edit', path='notes.md', rationale='Why: because it r…' (480 chars), edits=[…",
    fullArguments:
      '{"action": "edit", "path": "notes.md", "rationale": "Why", "edits": [{"op": "find_replace", "find": "a"}]}',
    result: '{"mode": "suggest", "suggestionIds": ["sug-1"]}'
  });

  it('filters on the full arguments and the result, not only the summary', () => {
    expect(edit.arguments.includes('find_replace')).toBe(false);
    expect(matchesFilter(edit, 'find_replace', false)).toBe(true);
    expect(matchesFilter(edit, 'sug-1', false)).toBe(true);
    expect(matchesFilter(edit, 'move_block', false)).toBe(false);
  });

  it('lays the arguments out over lines, and shows a cut text as kept', () => {
    expect(prettyArguments(edit)).toContain('\n  "edits": [\n');
    const cut = entry(2, { fullArguments: '{"text": "abc…' });
    expect(prettyArguments(cut)).toBe('{"text": "abc…');
    expect(prettyArguments(entry(3, { fullArguments: '' }))).toBe(
      "path='notes.md'"
    );
  });

  it("tells the person's decisions from agents' calls", () => {
    expect(isPerson(edit)).toBe(false);
    expect(
      isPerson(entry(4, { actor: 'person', tool: 'suggestion.reject' }))
    ).toBe(true);
  });

  it('opens and closes entries, and forgets the ones it no longer keeps', () => {
    const model = new ActivityModel(new FakeServer().request, 2);
    model.merge([entry(1), entry(2)]);
    model.toggleExpanded(2);
    expect(model.isExpanded(2)).toBe(true);
    model.toggleExpanded(2);
    expect(model.isExpanded(2)).toBe(false);
    model.toggleExpanded(1);
    model.merge([entry(3)]); // keeps 2 and 3: entry 1 is gone
    expect(model.isExpanded(1)).toBe(false);
  });
});

describe('ActivityModel', () => {
  it('fetches the newest entries and shows them newest first', async () => {
    const server = new FakeServer();
    server.answers.push(list([entry(1), entry(2), entry(3)]));
    const model = new ActivityModel(server.request);
    let changes = 0;
    model.onChange(() => changes++);
    await model.refresh();
    expect(server.calls).toEqual([`activity?limit=${MAX_ENTRIES}`]);
    expect(model.loaded).toBe(true);
    expect(seqs(model.entries)).toEqual([1, 2, 3]);
    expect(seqs(model.visible)).toEqual([3, 2, 1]);
    expect(model.lastSeq).toBe(3);
    expect(changes).toBeGreaterThan(0);
  });

  it('merges fetched and live entries by seq, once each', async () => {
    const server = new FakeServer();
    server.answers.push(list([entry(1), entry(3)]));
    const model = new ActivityModel(server.request);
    model.handleEvent({ type: 'activity', data: { entry: entry(4) } });
    model.handleEvent({ type: 'activity', data: { entry: entry(3) } });
    await model.refresh();
    model.handleEvent({ type: 'activity', data: { entry: entry(2) } });
    model.handleEvent({ type: 'activity', data: { entry: entry(4) } });
    expect(seqs(model.entries)).toEqual([1, 2, 3, 4]);
    expect(model.merge([entry(1), entry(2)])).toBe(false); // nothing new
  });

  it('ignores other events and malformed data', () => {
    const model = new ActivityModel(new FakeServer().request);
    model.handleEvent({ type: 'suggestion', data: { entry: entry(1) } });
    model.handleEvent({ type: 'activity', data: null });
    model.handleEvent({ type: 'activity', data: { entry: { seq: 'x' } } });
    model.handleEvent({
      type: 'activity',
      data: { entry: { ...entry(2), seq: 1.5 } }
    });
    expect(model.entries).toEqual([]);
  });

  it('keeps only the newest entries', () => {
    const model = new ActivityModel(new FakeServer().request);
    const many = Array.from({ length: MAX_ENTRIES + 50 }, (_, i) =>
      entry(i + 1)
    );
    model.merge(many.slice().reverse());
    expect(model.entries.length).toBe(MAX_ENTRIES);
    expect(model.entries[0].seq).toBe(51);
    expect(model.lastSeq).toBe(MAX_ENTRIES + 50);
    model.merge([entry(10)]); // older than everything kept: in, then trimmed again
    expect(model.entries[0].seq).toBe(51);
  });

  it('filters by text and errors only', () => {
    const model = new ActivityModel(new FakeServer().request);
    model.merge([
      entry(1),
      entry(2, { status: 'NOT_FOUND', arguments: "path='missing.md'" }),
      entry(3, { tool: 'review.list', client: 'cursor', arguments: '' })
    ]);
    let changes = 0;
    model.onChange(() => changes++);
    model.setFilter('missing');
    expect(seqs(model.visible)).toEqual([2]);
    model.setFilter('CURSOR');
    expect(seqs(model.visible)).toEqual([3]);
    model.setFilter('');
    model.setErrorsOnly(true);
    expect(seqs(model.visible)).toEqual([2]);
    model.setFilter('review');
    expect(seqs(model.visible)).toEqual([]);
    model.setErrorsOnly(true); // unchanged: no redraw
    expect(changes).toBe(5);
    expect(model.filterText).toBe('review');
    expect(model.errorsOnly).toBe(true);
  });

  it('catches up after the last seq on reconnect, once shown', async () => {
    const server = new FakeServer();
    const model = new ActivityModel(server.request);
    await model.reconnected();
    expect(server.calls).toEqual([]); // never shown: nothing fetched
    server.answers.push(list([]));
    await model.refresh();
    server.answers.push(list([entry(1), entry(2)]));
    await model.reconnected(); // nothing kept yet: all
    server.answers.push(list([entry(3)]));
    await model.reconnected();
    expect(server.calls).toEqual([
      'activity?limit=200',
      'activity?limit=200',
      'activity?after=2&limit=200'
    ]);
    expect(seqs(model.entries)).toEqual([1, 2, 3]);
  });

  it('starts over when the server restarted', async () => {
    const server = new FakeServer();
    const model = new ActivityModel(server.request);
    server.answers.push(list([entry(7), entry(8)]));
    await model.refresh();
    // After a restart the server's seqs are behind ours: "after 8" finds nothing,
    // so the model drops the old run's entries and fetches everything.
    const fresh = [entry(1, { time: 1 }), entry(2, { time: 2 })];
    server.answers.push(list([], 2), list(fresh));
    await model.reconnected();
    await tick();
    expect(server.calls.slice(1)).toEqual([
      'activity?after=8&limit=200',
      'activity?limit=200'
    ]);
    expect(model.entries).toEqual(fresh);
  });

  it("keeps the new run's live entries when it finds a restart", async () => {
    const server = new FakeServer();
    const model = new ActivityModel(server.request);
    server.answers.push(list([entry(7), entry(8)]));
    await model.refresh();
    server.hold = true;
    const live = entry(1, { time: 1 });
    server.answers.push(list([], 1), list([live]));
    const done = model.reconnected();
    await tick();
    model.handleEvent({ type: 'activity', data: { entry: live } });
    server.release();
    await done;
    // The old run is gone; the live call of the new one stays while all is fetched.
    expect(model.entries).toEqual([live]);
    expect(server.calls.length).toBe(3);
    server.release();
    await tick();
    expect(model.entries).toEqual([live]);
  });

  it('drops an earlier run when a live entry reuses a seq', () => {
    const model = new ActivityModel(new FakeServer().request);
    model.merge([entry(1), entry(2), entry(3)]);
    const reborn = entry(2, { time: 5, tool: 'session.info' });
    model.handleEvent({ type: 'activity', data: { entry: reborn } });
    expect(model.entries).toEqual([reborn]);
  });

  it('keeps live entries that arrive during a fetch', async () => {
    const server = new FakeServer();
    server.hold = true;
    server.answers.push(list([entry(1)]));
    const model = new ActivityModel(server.request);
    const done = model.refresh();
    await tick();
    model.handleEvent({ type: 'activity', data: { entry: entry(2) } });
    server.release();
    await done;
    expect(seqs(model.entries)).toEqual([1, 2]);
  });

  it('shares a fetch in flight and fetches once more after it', async () => {
    const server = new FakeServer();
    server.hold = true;
    server.answers.push(list([entry(1)]), list([entry(1), entry(2)]));
    const model = new ActivityModel(server.request);
    const first = model.refresh();
    const second = model.refresh();
    await tick();
    expect(server.calls.length).toBe(1);
    server.release();
    await Promise.all([first, second]);
    await tick();
    server.release();
    await tick();
    expect(server.calls).toEqual(['activity?limit=200', 'activity?limit=200']);
    expect(seqs(model.entries)).toEqual([1, 2]);
  });

  it('keeps the entries and says why when a fetch fails', async () => {
    const server = new FakeServer();
    server.answers.push(list([entry(1)]), new Error('Bad Gateway'));
    const model = new ActivityModel(server.request);
    await model.refresh();
    await model.refresh();
    expect(model.error).toBe('Bad Gateway');
    expect(seqs(model.entries)).toEqual([1]);
    server.answers.push(list([entry(1)]));
    await model.refresh();
    expect(model.error).toBeNull();
  });
});
