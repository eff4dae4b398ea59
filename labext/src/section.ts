/**
 * What every section of the MCP Lab panel gets and gives.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import type { IServerEvent, ServerEvents } from './events';
import type { Request } from './request';

/** Handed to each section when the panel builds it. */
export interface IPanelContext {
  /** The JupyterLab application (null in unit tests). */
  app: JupyterFrontEnd | null;
  request: Request;
  events: ServerEvents;
}

/** A part of the panel below the connection card. */
export interface IPanelSection {
  readonly node: HTMLElement;
  /** Fetch again (the panel was shown, or the stream reconnected). */
  refresh(): Promise<void>;
  dispose(): void;
}

/** What a section's model takes from the server's stream. */
export interface IEventModel {
  handleEvent(event: IServerEvent): void;
  reconnected(): unknown;
}

/**
 * Feed `model` the events of `types` and the stream's reconnects; returns
 * the function that stops.
 */
export function connectModel(
  events: ServerEvents,
  types: readonly string[],
  model: IEventModel
): () => void {
  const unsubscribe = events.subscribe(types, event =>
    model.handleEvent(event)
  );
  const unreconnect = events.onReconnect(() => void model.reconnected());
  return () => {
    unsubscribe();
    unreconnect();
  };
}
