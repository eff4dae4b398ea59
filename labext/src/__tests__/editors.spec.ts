import { normalizePath } from '../documents';
import {
  AgentChangeFollower,
  decide,
  IChoices,
  IDiskVersion,
  IFollowedDocument,
  IFollowerHost,
  sameVersion
} from '../editors_model';
import { ServerEvents } from '../events';
import { revisionOf } from '../revision';
import { tick } from './fakes';

describe('sameVersion and decide', () => {
  it('compares hashes first, then modification times, and never guesses', () => {
    expect(sameVersion({ hash: 'h1' }, { hash: 'h1' })).toBe(true);
    expect(
      sameVersion(
        { hash: 'h1', lastModified: 't' },
        { hash: 'h2', lastModified: 't' }
      )
    ).toBe(false);
    expect(sameVersion({ lastModified: 't' }, { lastModified: 't' })).toBe(
      true
    );
    expect(sameVersion({ lastModified: 't' }, { hash: 'h' })).toBe(false);
    expect(sameVersion(null, { hash: 'h' })).toBe(false);
  });

  it('does nothing while the disk has the version the editor is based on', () => {
    const base = { hash: 'h1' };
    expect(decide({ dirty: false, base: () => base }, { hash: 'h1' })).toBe(
      'none'
    );
    expect(decide({ dirty: true, base: () => base }, { hash: 'h1' })).toBe(
      'none'
    );
  });

  it('reloads a clean document and asks about a dirty one', () => {
    const base = () => ({ hash: 'h1' });
    expect(decide({ dirty: false, base }, { hash: 'h2' })).toBe('reload');
    expect(decide({ dirty: true, base }, { hash: 'h2' })).toBe('ask');
  });
});

describe('normalizePath', () => {
  it('makes paths root-relative', () => {
    expect(normalizePath('/a/b.md')).toBe('a/b.md');
    expect(normalizePath('a.md')).toBe('a.md');
    expect(normalizePath(undefined)).toBe('');
  });
});

/** An open document: its text, the disk version it is based on, the disk. */
class FakeDocument implements IFollowedDocument {
  constructor(
    readonly path: string,
    public shown: string,
    public onDisk: string,
    public dirty = false
  ) {
    this.loaded = shown; // as opened: the editor shows what it loaded
  }

  loaded: string;
  disposed = false;
  reloads = 0;
  diskReads = 0;

  text(): string {
    return this.shown;
  }

  base(): IDiskVersion {
    return { hash: revisionOf(this.loaded) };
  }

  async disk(): Promise<IDiskVersion> {
    this.diskReads++;
    await Promise.resolve();
    return { hash: revisionOf(this.onDisk) };
  }

  async reload(): Promise<void> {
    this.reloads++;
    await Promise.resolve();
    this.shown = this.loaded = this.onDisk;
    this.dirty = false;
  }

  adopt(disk: IDiskVersion): void {
    expect(disk.hash).toBe(revisionOf(this.onDisk));
    this.loaded = this.onDisk;
  }
}

class FakeHost implements IFollowerHost {
  docs: FakeDocument[] = [];
  asked: { doc: IFollowedDocument; choices: IChoices }[] = [];

  documents(path: string): IFollowedDocument[] {
    return this.docs.filter(d => d.path === path && !d.disposed);
  }

  ask(doc: IFollowedDocument, choices: IChoices): void {
    this.asked.push({ doc, choices });
  }
}

function setup() {
  const host = new FakeHost();
  const events = new ServerEvents();
  const follower = new AgentChangeFollower(host, events);
  return { host, events, follower };
}

function change(path: string, text: string) {
  return { type: 'document', data: { path, revision: revisionOf(text) } };
}

describe('AgentChangeFollower', () => {
  const BEFORE = '# A\n';
  const AFTER = '# A\n\n## Added by an agent\n';

  it('reloads a clean editor when an agent changed its file', async () => {
    const { host, follower } = setup();
    const doc = new FakeDocument('a.md', BEFORE, AFTER);
    host.docs.push(doc);
    await follower.handle(change('a.md', AFTER));
    expect(doc.reloads).toBe(1);
    expect(doc.shown).toBe(AFTER);
    expect(host.asked).toEqual([]);
  });

  it('is subscribed to the bus', async () => {
    const { host, events } = setup();
    const doc = new FakeDocument('a.md', BEFORE, AFTER);
    host.docs.push(doc);
    events.emit(change('/a.md', AFTER));
    await tick();
    expect(doc.shown).toBe(AFTER);
  });

  it('does nothing when the editor shows that revision already', async () => {
    const { host, follower } = setup();
    const doc = new FakeDocument('a.md', AFTER, AFTER);
    doc.loaded = BEFORE; // e.g. saved by the person, base not yet updated
    host.docs.push(doc);
    await follower.handle(change('a.md', AFTER));
    expect(doc.reloads).toBe(0);
    expect(doc.diskReads).toBe(0);
  });

  it('does nothing when the disk still has the version the editor loaded', async () => {
    // An agent's change to its own unsaved buffer: nothing on disk moved.
    const { host, follower } = setup();
    const doc = new FakeDocument('a.md', BEFORE + 'typing', BEFORE, true);
    doc.loaded = BEFORE;
    host.docs.push(doc);
    await follower.handle(change('a.md', AFTER));
    expect(doc.reloads).toBe(0);
    expect(host.asked).toEqual([]);
  });

  it('ignores files that are not open', async () => {
    const { host, follower } = setup();
    const doc = new FakeDocument('a.md', BEFORE, AFTER);
    host.docs.push(doc);
    await follower.handle(change('b.md', AFTER));
    await follower.handle({ type: 'document', data: {} });
    expect(doc.reloads).toBe(0);
    expect(doc.diskReads).toBe(0);
  });

  it('asks about a dirty editor; Reload discards, Keep adopts', async () => {
    const { host, follower } = setup();
    const mine = BEFORE + 'my words\n';
    const doc = new FakeDocument('a.md', mine, AFTER, true);
    doc.loaded = BEFORE;
    host.docs.push(doc);
    await follower.handle(change('a.md', AFTER));
    expect(doc.reloads).toBe(0);
    expect(host.asked).toHaveLength(1);
    expect(host.asked[0].doc).toBe(doc);

    // Keep mine: the disk's version becomes the base, the text stays.
    host.asked[0].choices.keep();
    expect(doc.shown).toBe(mine);
    expect(doc.dirty).toBe(true);
    expect(sameVersion(doc.base(), { hash: revisionOf(AFTER) })).toBe(true);
    // The same change again is no news now.
    await follower.handle(change('a.md', AFTER));
    expect(host.asked).toHaveLength(1);

    // Another change: asked again; Reload takes the file.
    doc.onDisk = AFTER + 'more\n';
    await follower.handle(change('a.md', doc.onDisk));
    expect(host.asked).toHaveLength(2);
    await host.asked[1].choices.reload();
    expect(doc.shown).toBe(AFTER + 'more\n');
    expect(doc.dirty).toBe(false);
  });

  it('handles the events of one path in order, one at a time', async () => {
    const { host, follower } = setup();
    const doc = new FakeDocument('a.md', BEFORE, AFTER);
    host.docs.push(doc);
    const first = follower.handle(change('a.md', AFTER));
    const second = follower.handle(change('a.md', AFTER));
    await Promise.all([first, second]);
    // The second saw the first's reload: the editor showed AFTER by then.
    expect(doc.reloads).toBe(1);
  });

  it('leaves a closed document alone, and keeps going after a failure', async () => {
    const { host, follower } = setup();
    const closed = new FakeDocument('a.md', BEFORE, AFTER);
    const failing = new FakeDocument('a.md', BEFORE, AFTER);
    failing.disk = async () => {
      throw new Error('offline');
    };
    const open = new FakeDocument('a.md', BEFORE, AFTER);
    host.docs.push(closed, failing, open);
    closed.disposed = true;
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    await follower.handle(change('a.md', AFTER));
    error.mockRestore();
    expect(closed.reloads).toBe(0);
    expect(failing.reloads).toBe(0);
    expect(open.reloads).toBe(1);
  });

  it('stops on dispose', async () => {
    const { host, events, follower } = setup();
    const doc = new FakeDocument('a.md', BEFORE, AFTER);
    host.docs.push(doc);
    follower.dispose();
    events.emit(change('a.md', AFTER));
    await tick();
    expect(doc.reloads).toBe(0);
  });
});
