import type { IOutline, IOutlineRow } from '../api_types';
import { ServerEvents } from '../events';
import { OutlineRows } from '../outline_rows';
import { fakeServer, gate, tick } from './fakes';

function outline(revision: string, rows: [string, string][]): IOutline {
  return {
    path: 'plan.opml',
    revision,
    kind: 'outline',
    headings: [],
    rows: rows.map(([id, topic]): IOutlineRow => ({
      id,
      topic,
      note: null,
      state: 'none',
      level: 0,
      parent: null,
      children: []
    }))
  };
}

describe('OutlineRows', () => {
  const route = 'GET outline?path=plan.opml';

  it('reads an outline once when a card asks, and tells the cards', async () => {
    const { request, calls } = fakeServer({
      [route]: () => outline('r1', [['a', 'Research']])
    });
    const rows = new OutlineRows(request);
    let told = 0;
    rows.onChange(() => told++);
    expect(rows.index('/plan.opml')).toBeNull();
    expect(rows.index('plan.opml')).toBeNull(); // asked once
    await tick();
    expect(calls).toHaveLength(1);
    expect(told).toBe(1);
    expect(rows.index('plan.opml')!.topic('a')).toBe('Research');
    expect(rows.index('plan.opml')!.topic('zz')).toBeUndefined();
  });

  it('reads it again when the document changes, also during a read', async () => {
    let answer = outline('r1', [['a', 'Research']]);
    const held = gate();
    let hold = false;
    const { request, calls } = fakeServer({
      [route]: async () => {
        const now = answer;
        if (hold) {
          await held.promise;
        }
        return now;
      }
    });
    const events = new ServerEvents();
    const rows = new OutlineRows(request, events);
    rows.index('plan.opml');
    await tick();
    // Another document, or the revision it has: nothing to read.
    events.emit({ type: 'document', data: { path: 'b.opml', revision: 'x' } });
    events.emit({
      type: 'document',
      data: { path: 'plan.opml', revision: 'r1' }
    });
    expect(calls).toHaveLength(1);
    // A change while the next read is on its way: read once more after it.
    hold = true;
    events.emit({
      type: 'document',
      data: { path: 'plan.opml', revision: 'r2' }
    });
    answer = outline('r3', [['a', 'Study']]);
    hold = false;
    events.emit({
      type: 'document',
      data: { path: 'plan.opml', revision: 'r3' }
    });
    expect(rows.index('plan.opml')!.topic('a')).toBe('Research'); // kept meanwhile
    held.release();
    await tick();
    await tick();
    expect(calls).toHaveLength(3);
    expect(rows.index('plan.opml')!.topic('a')).toBe('Study');
  });

  it('a failed read leaves the cards as they are and is retried on a change', async () => {
    let fail = true;
    const { request, calls } = fakeServer({
      [route]: () => {
        if (fail) {
          throw new Error('gone');
        }
        return outline('r2', [['a', 'Back']]);
      }
    });
    const events = new ServerEvents();
    const rows = new OutlineRows(request, events);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    rows.index('plan.opml');
    await tick();
    expect(rows.index('plan.opml')).toBeNull();
    expect(calls).toHaveLength(1);
    fail = false;
    events.emit({
      type: 'document',
      data: { path: 'plan.opml', revision: 'r2' }
    });
    await tick();
    expect(rows.index('plan.opml')!.topic('a')).toBe('Back');
    warn.mockRestore();
  });
});
