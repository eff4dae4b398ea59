/**
 * What the MCP Lab plugin provides to its other plugins (e.g. inline review in
 * the editors): the server's events and the pending suggestions, one copy each.
 */
import { Token } from '@lumino/coreutils';

import type { ServerEvents } from './events';
import type { SuggestionsModel } from './suggestions';

export interface IMcpLab {
  /** Every event of the server's stream. */
  readonly events: ServerEvents;
  /** The pending suggestions (refreshed on events). */
  readonly suggestions: SuggestionsModel;
  /** Show the MCP Lab side panel. */
  openPanel(): void;
  /** Open the side-by-side review of a document's pending suggestions. */
  openCompare(path: string): void;
  /** Show the panel with its connection card unfolded ("Connect an agent…"). */
  connectAgent(): void;
}

export const IMcpLab = new Token<IMcpLab>(
  'jupyter-mcp-lab:IMcpLab',
  'The MCP Lab panel: server events and pending suggestions.'
);
