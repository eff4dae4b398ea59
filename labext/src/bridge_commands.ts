/**
 * The lab bridge and JupyterLab's commands: list them, run one for an agent,
 * and ask the person first (Allow or Deny) when the server says so.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Dialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

import {
  BridgeError,
  confirmText,
  filterCommands,
  ICommandInfo,
  IConfirmParams,
  plainData,
  requireString
} from './bridge_protocol';
import { sleep } from './time';

/** `listCommands`: the commands whose id or label contains the query. */
export function listCommands(
  app: JupyterFrontEnd,
  params: { query?: unknown }
): object {
  const commands: ICommandInfo[] = app.commands.listCommands().map(id => {
    let label = '';
    let caption = '';
    try {
      label = app.commands.label(id);
      caption = app.commands.caption(id);
    } catch {
      // a command whose label needs arguments
    }
    return { id, label, caption };
  });
  const query = typeof params.query === 'string' ? params.query : '';
  return { commands: filterCommands(commands, query) };
}

/** How long a command may take before the answer says it is still running. */
const COMMAND_SETTLE_MS = 3000;

/** `runCommand`: run a command with its arguments; answers with its result. */
export async function runCommand(
  app: JupyterFrontEnd,
  params: { command?: unknown; args?: unknown }
): Promise<object> {
  const command = requireString(params.command, 'command');
  if (!app.commands.hasCommand(command)) {
    throw new BridgeError(
      'NOT_FOUND',
      `there is no command ${command} (see the commands action)`
    );
  }
  const args =
    params.args && typeof params.args === 'object' ? (params.args as any) : {};
  let label = '';
  try {
    label = app.commands.label(command, args);
  } catch {
    // a label that needs other arguments
  }
  if (!app.commands.isEnabled(command, args)) {
    throw new BridgeError(
      'UNAVAILABLE',
      `the command ${command} is disabled in JupyterLab's current state`
    );
  }
  // Commands that open a dialog resolve when the person closes it: answer
  // before that, so the agent is not left waiting for the person.
  const running = app.commands.execute(command, args);
  const settled = await Promise.race([
    running.then(value => ({ value })),
    sleep(COMMAND_SETTLE_MS).then(() => null)
  ]);
  if (settled === null) {
    running.catch(error => {
      console.warn(`MCP Lab: the command ${command} failed`, error);
    });
    return { command, label, result: null, running: true };
  }
  return { command, label, result: plainData(settled.value) };
}

/** The open approval dialogs, by request id (the server may cancel them). */
const dialogs = new Map<string, Dialog<unknown>>();

/** `confirm`: ask the person whether the agent's command may run. */
export async function confirm(
  app: JupyterFrontEnd,
  id: string,
  params: IConfirmParams
): Promise<object> {
  let label = '';
  if (params.action === 'runCommand' && params.command) {
    try {
      label = app.commands.hasCommand(params.command)
        ? app.commands.label(params.command, (params.args ?? {}) as any)
        : '';
    } catch {
      // no label without other arguments
    }
  }
  const text = confirmText(params, label);
  const body = document.createElement('div');
  body.className = 'jp-McpLab-confirm';
  for (const [tag, content] of [
    ['p', text.intro],
    ['pre', text.code],
    ['p', text.detail]
  ]) {
    const node = document.createElement(tag);
    node.textContent = content; // the agent's text, never markup
    body.appendChild(node);
  }
  const dialog = new Dialog({
    title: text.title,
    body: new Widget({ node: body }),
    buttons: [
      Dialog.cancelButton({ label: 'Deny' }),
      Dialog.okButton({ label: 'Allow' })
    ],
    // Enter denies: allowing takes a deliberate click.
    defaultButton: 0,
    hasClose: false
  });
  dialogs.set(id, dialog);
  try {
    const result = await dialog.launch();
    return { allowed: result.button.accept };
  } finally {
    dialogs.delete(id);
  }
}

/** The server stopped waiting for request `id`: close its dialog (a Deny). */
export function cancelConfirm(id: string): void {
  dialogs.get(id)?.reject();
}
