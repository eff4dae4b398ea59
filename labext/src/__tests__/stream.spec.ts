import { ServerEvents } from '../events';
import { EventStream } from '../stream';

/** What the stream uses of an EventSource: listeners by event name. */
class FakeSource {
  static last: FakeSource | null = null;
  static readonly CLOSED = 2;
  readyState = 1;
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (message: any) => void): void {
    (this.listeners[type] ??= []).push(listener);
  }
  close(): void {
    this.readyState = FakeSource.CLOSED;
  }
  send(type: string, data?: unknown, lastEventId = ''): void {
    const message = { data: JSON.stringify(data), lastEventId };
    for (const listener of this.listeners[type] ?? []) {
      listener(message);
    }
  }
  listeners: Record<string, ((message: any) => void)[]> = {};
}

describe('EventStream', () => {
  beforeEach(() => {
    (globalThis as any).EventSource = FakeSource;
  });
  afterEach(() => {
    delete (globalThis as any).EventSource;
  });

  it('catches up on open and when the server says the stream fell behind', () => {
    const events = new ServerEvents();
    const owner = { opened: jest.fn(), poll: jest.fn() };
    const caughtUp = jest.fn();
    events.onReconnect(caughtUp);
    const stream = new EventStream(events, owner);
    const source = FakeSource.last!;

    source.send('open');
    source.send('stream', { after: 7, latest: 7 });
    // Right after opening: `open` has already caught up.
    source.send('resync', { reason: 'new' }, '7');
    expect([
      owner.opened.mock.calls.length,
      caughtUp.mock.calls.length
    ]).toEqual([1, 1]);

    const seen: any[] = [];
    events.subscribe(['suggestion'], event => seen.push(event));
    source.send('suggestion', { action: 'created' }, '8');
    expect(seen).toEqual([
      {
        type: 'suggestion',
        data: { action: 'created' },
        id: 8,
        replayed: false
      }
    ]);

    // Live events were dropped: fetch again.
    source.send('resync', { reason: 'fell-behind' });
    expect([
      owner.opened.mock.calls.length,
      caughtUp.mock.calls.length
    ]).toEqual([2, 2]);
    stream.dispose();
    expect(source.readyState).toBe(FakeSource.CLOSED);
  });
});
