import {
  ILayoutRestorer,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import { ISettingRegistry } from '@jupyterlab/settingregistry';

import { startBridge } from './bridge';
import { reviewCommandsPlugin } from './commands';
import { followAgentChanges } from './editors';
import { mcpLabIcon } from './icon';
import { inlineReviewPlugin } from './inline';
import { notebookReviewPlugin } from './notebook_review';
import {
  DEFAULT_SETTINGS,
  INotice,
  INotifySettings,
  noticeText,
  SuggestionNotifier
} from './notify';
import { outlineTreePlugin } from './outline_tree_plugin';
import { StatusPanel } from './panel';
import { IMcpLab } from './tokens';
import { reviewViewsPlugin } from './views_plugin';

/** Command ids. */
export namespace CommandIDs {
  export const openPanel = 'jupyter-mcp-lab:open-panel';
}

const PLUGIN_ID = 'jupyter-mcp-lab:plugin';

/**
 * Adds the "MCP Lab" panel to the right side area and a command to open it;
 * tells the person about new suggestions as the settings say.
 */
const plugin: JupyterFrontEndPlugin<IMcpLab> = {
  id: PLUGIN_ID,
  description: 'Shows the MCP endpoint served by jupyter-mcp-lab.',
  autoStart: true,
  provides: IMcpLab,
  optional: [ICommandPalette, ILayoutRestorer, ISettingRegistry],
  activate: (
    app: JupyterFrontEnd,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null,
    registry: ISettingRegistry | null
  ): IMcpLab => {
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

    const settings: INotifySettings = { ...DEFAULT_SETTINGS };
    if (registry) {
      registry
        .load(PLUGIN_ID)
        .then(loaded => {
          const update = () => {
            Object.assign(settings, DEFAULT_SETTINGS, loaded.composite);
          };
          update();
          loaded.changed.connect(update);
        })
        .catch(error => {
          console.warn('MCP Lab: settings could not be loaded', error);
        });
    }
    new SuggestionNotifier(panel.events, (notices: INotice[]) => {
      if (settings.autoOpen) {
        app.shell.activateById(panel.id);
      }
      if (!settings.notifications) {
        return;
      }
      for (const notice of notices) {
        Notification.info(noticeText(notice), {
          autoClose: 8000,
          actions: [
            {
              label: 'Review',
              caption: `Open ${notice.path} at its suggestion, and the MCP Lab panel`,
              callback: () => {
                void app.commands.execute(CommandIDs.openPanel);
                void panel.reviewDocument(notice.path);
              }
            }
          ]
        });
      }
    });

    return {
      events: panel.events,
      suggestions: panel.suggestions,
      openPanel: () => app.shell.activateById(panel.id),
      openCompare: path => panel.openCompare(path),
      connectAgent: () => {
        app.shell.activateById(panel.id);
        panel.connectAgent();
      }
    };
  }
};

export default [
  plugin,
  inlineReviewPlugin,
  notebookReviewPlugin,
  reviewViewsPlugin,
  reviewCommandsPlugin,
  outlineTreePlugin
];
