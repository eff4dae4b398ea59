/**
 * The server's event stream (`GET events`, Server-Sent Events, authenticated
 * by the login cookie) into the in-page bus (events.ts). When the stream
 * cannot be opened, polling stands in: every POLL_INTERVAL_MS the owner
 * refetches and the bus's listeners are told to catch up.
 */
import { EVENT_TYPES, ServerEvents } from './events';
import { apiURL } from './request';

/** How often to poll when the event stream is unavailable. */
export const POLL_INTERVAL_MS = 3000;

/** What the stream's owner does besides feeding the bus. */
export interface IStreamOwner {
  /** The stream (re)opened: events may have been missed. */
  opened(): void;
  /** A poll, in place of the stream. */
  poll(): void;
}

export class EventStream {
  constructor(events: ServerEvents, owner: IStreamOwner) {
    this._events = events;
    this._owner = owner;
    if (typeof EventSource === 'undefined') {
      this._startPolling();
    } else {
      this._open();
    }
  }

  dispose(): void {
    this._disposed = true;
    this._source?.close();
    this._source = null;
    if (this._poll !== null) {
      window.clearInterval(this._poll);
      this._poll = null;
    }
  }

  private _open(): void {
    const source = new EventSource(apiURL('events'), { withCredentials: true });
    // The server first says where its replay of recent events ends.
    let replayEnd = 0;
    source.addEventListener('stream', message => {
      replayEnd = parseEvent(message as MessageEvent)?.latest ?? 0;
    });
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, message => {
        const id = Number((message as MessageEvent).lastEventId) || 0;
        const data = parseEvent(message as MessageEvent);
        this._events.emit({ type, data, id, replayed: id <= replayEnd });
      });
    }
    source.addEventListener('resync', message => {
      // The server dropped events this stream was too slow to take: catch up as
      // after a reconnect. (A resync right after opening follows `open`, which
      // catches up already.)
      if (parseEvent(message as MessageEvent)?.reason === 'fell-behind') {
        this._owner.opened();
        this._events.reconnected();
      }
    });
    source.addEventListener('open', () => {
      // Reconnected after a drop: catch up on what was missed.
      this._owner.opened();
      this._events.reconnected();
    });
    source.addEventListener('error', () => {
      // A closed source (an HTTP error, e.g. 403) does not reconnect by itself.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        this._source = null;
        this._startPolling();
      }
    });
    this._source = source;
  }

  private _startPolling(): void {
    if (this._poll === null && !this._disposed) {
      this._poll = window.setInterval(() => {
        this._owner.poll();
        this._events.reconnected();
      }, POLL_INTERVAL_MS);
    }
  }

  private _events: ServerEvents;
  private _owner: IStreamOwner;
  private _source: EventSource | null = null;
  private _poll: number | null = null;
  private _disposed = false;
}

/** The JSON data of a server event, or null when it is not JSON. */
function parseEvent(message: MessageEvent): any {
  try {
    return JSON.parse(message.data);
  } catch {
    return null;
  }
}
