/**
 * Commands for the review's views, in the command palette (category "MCP
 * Lab"): the side-by-side review of the current document (or of the
 * suggestion selected in the panel), and "Connect an agent…", which shows the
 * panel with its connection card unfolded.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';

import { activeDocumentPath } from './documents';
import { IMcpLab } from './tokens';

/** Command ids: stable, people bind keys to them. */
export namespace ViewCommandIDs {
  export const compare = 'jupyter-mcp-lab:compare-document';
  export const connect = 'jupyter-mcp-lab:connect-agent';
}

export const reviewViewsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp-lab:review-views',
  description:
    'Side-by-side review of a document and the connection card, as commands.',
  autoStart: true,
  requires: [IMcpLab],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    mcpLab: IMcpLab,
    palette: ICommandPalette | null
  ) => {
    app.commands.addCommand(ViewCommandIDs.compare, {
      label: 'Review Suggestions Side by Side',
      caption:
        'Open the current document (or the selected suggestion’s) with its pending suggestions side by side',
      execute: args => {
        const model = mcpLab.suggestions;
        const selected = model.selected
          ? model.find(model.selected)
          : undefined;
        const path =
          (typeof args.path === 'string' && args.path) ||
          activeDocumentPath(app) ||
          selected?.path ||
          model.groups[0]?.path;
        if (!path) {
          Notification.info('No suggestion is waiting for review.', {
            autoClose: 4000
          });
          return;
        }
        mcpLab.openCompare(path);
      }
    });
    app.commands.addCommand(ViewCommandIDs.connect, {
      label: 'Connect an Agent…',
      caption:
        'Show the MCP endpoints, client configs and agent keys in the MCP Lab panel',
      execute: () => mcpLab.connectAgent()
    });
    for (const command of [ViewCommandIDs.compare, ViewCommandIDs.connect]) {
      palette?.addItem({ command, category: 'MCP Lab' });
    }
  }
};
