import { activeDocumentPath, documentPath } from '../documents';
import {
  agentNames,
  DURATIONS,
  GrantsModel,
  IGrant,
  scopeLabel
} from '../grants_model';
import { fakeServer, gate, tick } from './fakes';

function grant(over: Partial<IGrant>): IGrant {
  return {
    id: 'grant-1',
    scope: 'notes.md',
    agent: 'claude-code',
    agentKind: 'client',
    created: 1000,
    expires: 1000 + 3600,
    createdBy: 'me',
    revoked: null,
    active: true,
    ...over
  };
}

describe('grant helpers', () => {
  it('offers the five durations, up to the server limit of a week', () => {
    expect(DURATIONS.map(d => d.minutes)).toEqual([15, 60, 480, 1440, 10080]);
  });

  it('names the whole-workspace scope', () => {
    expect(scopeLabel('')).toBe('the whole workspace');
    expect(scopeLabel('notes/')).toBe('notes/');
  });

  it('lists the distinct client names seen, most recent first', () => {
    const seen = (client: string, lastActivity: number) => ({
      session: `s-${lastActivity}`,
      client,
      user: 'me',
      lastActivity,
      calls: 1
    });
    expect(
      agentNames([
        seen('cursor', 5),
        seen('claude-code', 9),
        seen('cursor', 7),
        seen('', 8)
      ])
    ).toEqual(['claude-code', 'cursor']);
  });

  it('finds the path of the active document widget', () => {
    expect(documentPath({ context: { path: 'notes/a.md' } })).toBe(
      'notes/a.md'
    );
    expect(
      documentPath({ context: { path: 'RTC:notes/a.md' } }, p =>
        p.replace(/^RTC:/, '')
      )
    ).toBe('notes/a.md');
    expect(documentPath({ title: 'Launcher' })).toBeNull();
    expect(documentPath(null)).toBeNull();
    expect(activeDocumentPath(null)).toBeNull();
    const app = {
      shell: { currentWidget: { context: { path: 'RTC:b.md' } } },
      serviceManager: {
        contents: { localPath: (p: string) => p.replace(/^RTC:/, '') }
      }
    };
    expect(activeDocumentPath(app as any)).toBe('b.md');
  });
});

describe('GrantsModel', () => {
  it('fetches the active grants and the agents seen', async () => {
    const { request, calls } = fakeServer({
      'GET grants?active=true': () => ({
        grants: [grant({ id: 'g1' }), grant({ id: 'g2', active: false })]
      }),
      'GET status': () => ({
        agents: [
          {
            session: 's',
            client: 'claude-code',
            user: 'me',
            lastActivity: 1,
            calls: 3
          }
        ]
      })
    });
    const model = new GrantsModel(request);
    await model.refresh();
    expect(model.loaded).toBe(true);
    expect(model.grants.map(g => g.id)).toEqual(['g1']);
    expect(model.agents).toEqual(['claude-code']);
    expect(calls.map(c => c.endPoint).sort()).toEqual([
      'grants?active=true',
      'status'
    ]);
  });

  it('shows the grants even when the status cannot be fetched', async () => {
    const { request } = fakeServer({
      'GET grants?active=true': () => ({ grants: [grant({})] })
    });
    const model = new GrantsModel(request);
    await model.refresh();
    expect(model.grants).toHaveLength(1);
    expect(model.agents).toEqual([]);
    expect(model.error).toBeNull();
  });

  it('drops grants that ran out on the clock', async () => {
    const { request } = fakeServer({
      'GET grants?active=true': () => ({
        grants: [
          grant({ id: 'short', expires: 1100 }),
          grant({ id: 'long', expires: 5000 })
        ]
      }),
      'GET status': () => ({ agents: [] })
    });
    const model = new GrantsModel(request);
    await model.refresh();
    expect(model.activeAt(1050).map(g => g.id)).toEqual(['short', 'long']);
    expect(model.activeAt(1100).map(g => g.id)).toEqual(['long']);
  });

  it('creates a client grant from the form and lists it', async () => {
    let grants: IGrant[] = [];
    const { request, calls } = fakeServer({
      'GET grants?active=true': () => ({ grants }),
      'GET status': () => ({ agents: [] }),
      'POST grants': call => {
        const created = grant({ id: 'g-new', ...call.body });
        grants = [created];
        return created;
      }
    });
    const model = new GrantsModel(request);
    await model.refresh();
    const pending = model.create('  claude-code ', ' notes.md ', 15);
    expect(model.creating).toBe(true);
    expect(await model.create('other', 'x', 15)).toBeNull(); // one at a time
    const created = await pending;
    expect(created?.id).toBe('g-new');
    expect(model.creating).toBe(false);
    expect(model.formError).toBeNull();
    expect(model.grants.map(g => g.id)).toEqual(['g-new']);
    expect(calls.filter(c => c.method === 'POST')).toEqual([
      {
        endPoint: 'grants',
        method: 'POST',
        body: {
          scope: 'notes.md',
          agent: 'claude-code',
          agentKind: 'client',
          minutes: 15
        }
      }
    ]);
  });

  it("keeps the server's validation message for the form", async () => {
    const { request } = fakeServer({
      'GET grants?active=true': () => ({ grants: [] }),
      'GET status': () => ({ agents: [] }),
      'POST grants': () => {
        throw new Error("scope '../x' contains '..'");
      }
    });
    const model = new GrantsModel(request);
    expect(await model.create('a', '../x', 60)).toBeNull();
    expect(model.formError).toBe("scope '../x' contains '..'");
    expect(model.grants).toEqual([]);
  });

  it('revokes a grant: busy while in flight, gone after', async () => {
    let grants = [grant({ id: 'g1' })];
    const hold = gate();
    const { request, calls } = fakeServer({
      'GET grants?active=true': () => ({ grants }),
      'GET status': () => ({ agents: [] }),
      'DELETE grants/g1': async () => {
        await hold.promise;
        grants = [];
        return grant({ id: 'g1', revoked: 1500, active: false });
      }
    });
    const model = new GrantsModel(request);
    await model.refresh();
    const done = model.revoke('g1');
    expect(model.busy.has('g1')).toBe(true);
    expect(await model.revoke('g1')).toBeNull();
    hold.release();
    expect((await done)?.revoked).toBe(1500);
    expect(model.busy.size).toBe(0);
    expect(model.grants).toEqual([]);
    expect(calls.filter(c => c.method === 'DELETE')).toHaveLength(1);
  });

  it('keeps a failed revoke as the error until the next one succeeds', async () => {
    const { request } = fakeServer({
      'GET grants?active=true': () => ({ grants: [grant({ id: 'g1' })] }),
      'GET status': () => ({ agents: [] }),
      'DELETE grants/g1': () => {
        throw new Error("grant 'g1' is already revoked");
      }
    });
    const model = new GrantsModel(request);
    await model.refresh();
    await model.revoke('g1');
    // The refresh after it succeeded; the revoke's failure stays shown.
    expect(model.error).toBe("grant 'g1' is already revoked");
    // A failing list has its own error.
    const broken = new GrantsModel(fakeServer({}).request);
    await broken.refresh();
    expect(broken.error).toContain('no route');
  });

  it('refreshes on grant events once it was shown', async () => {
    const { request, calls } = fakeServer({
      'GET grants?active=true': () => ({ grants: [] }),
      'GET status': () => ({ agents: [] })
    });
    const model = new GrantsModel(request);
    model.handleEvent({ type: 'grant', data: {} });
    model.reconnected();
    expect(calls).toHaveLength(0);
    await model.refresh();
    model.handleEvent({ type: 'checkpoint', data: {} });
    expect(calls).toHaveLength(2);
    model.handleEvent({ type: 'grant', data: { action: 'revoked' } });
    await tick();
    expect(calls).toHaveLength(4);
  });
});
