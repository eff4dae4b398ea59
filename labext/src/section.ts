/**
 * What every section of the MCP Lab panel gets and gives.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import type { ServerEvents } from './events';

/** The REST client, `requestAPI` in production, a fake in unit tests. */
export type Request = <T>(endPoint: string, init?: RequestInit) => Promise<T>;

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
