import {
  ILayoutRestorer,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';

import { startBridge } from './bridge';
import { followAgentChanges } from './editors';
import { mcpLabIcon } from './icon';
import { StatusPanel } from './panel';

/** Command ids. */
export namespace CommandIDs {
  export const openPanel = 'jupyter-mcp-lab:open-panel';
}

/**
 * Adds the "MCP Lab" panel to the right side area and a command to open it.
 */
const plugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp-lab:plugin',
  description: 'Shows the MCP endpoint served by jupyter-mcp-lab.',
  autoStart: true,
  optional: [ICommandPalette, ILayoutRestorer],
  activate: (
    app: JupyterFrontEnd,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null
  ) => {
    const panel = new StatusPanel(app);
    app.shell.add(panel, 'right', { rank: 1000 });
    // Remember whether the panel was open across reloads.
    restorer?.add(panel, panel.id);

    app.commands.addCommand(CommandIDs.openPanel, {
      label: 'Open MCP Lab panel',
      caption: 'Show the MCP Lab side panel',
      icon: mcpLabIcon,
      execute: () => {
        app.shell.activateById(panel.id);
      }
    });

    palette?.addItem({ command: CommandIDs.openPanel, category: 'MCP Lab' });

    // Presence and the agents' requests (open a file, run a command, ...).
    startBridge(app);
    // Clean editors reload after an agent's change; dirty ones ask.
    followAgentChanges(app, panel.events);
  }
};

export default plugin;
