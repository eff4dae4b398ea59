/**
 * The server's events (`GET mcp-lab/api/events`, Server-Sent Events) as an
 * in-page bus: the panel owns the one EventSource and emits every event here;
 * sections and editor helpers subscribe to the types they care about.
 */

/** The `event:` names the server sends; EventSource needs each one by name. */
export const EVENT_TYPES = [
  'suggestion',
  'checkpoint',
  'grant',
  'document',
  'activity',
  'presence'
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** One server event: its type and its decoded JSON data. */
export interface IServerEvent {
  type: string;
  data: any;
  /** The stream's event id (0 when unknown, e.g. while polling). */
  id?: number;
  /**
   * Replayed when the stream (re)connected rather than happening now: a
   * notification about it would be stale (the server's `stream` event says
   * where the replay ends).
   */
  replayed?: boolean;
}

export type EventListener = (event: IServerEvent) => void;

/** A minimal pub/sub; `reconnected` listeners are told to catch up. */
export class ServerEvents {
  /** Listen to events of `types` (all when empty); returns the unsubscribe. */
  subscribe(types: readonly string[], listener: EventListener): () => void {
    const entry = { types: new Set(types), listener };
    this._listeners.add(entry);
    return () => this._listeners.delete(entry);
  }

  /** Called after the stream (re)opens or polling stands in for it. */
  onReconnect(listener: () => void): () => void {
    this._reconnect.add(listener);
    return () => this._reconnect.delete(listener);
  }

  emit(event: IServerEvent): void {
    for (const { types, listener } of [...this._listeners]) {
      if (types.size === 0 || types.has(event.type)) {
        try {
          listener(event);
        } catch (error) {
          console.error('MCP Lab: an event listener failed', error);
        }
      }
    }
  }

  reconnected(): void {
    for (const listener of [...this._reconnect]) {
      listener();
    }
  }

  private _listeners = new Set<{
    types: Set<string>;
    listener: EventListener;
  }>();
  private _reconnect = new Set<() => void>();
}
