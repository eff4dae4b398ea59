/**
 * What the lab bridge does in JupyterLab for an agent, by request method:
 * open a file at a line and show a tab (bridge_documents.ts), list and run
 * commands and ask the person whether one may run (bridge_commands.ts),
 * toggle a debugger breakpoint (bridge_debugger.ts), type into a new
 * terminal (bridge_terminal.ts).
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import {
  cancelConfirm,
  confirm,
  listCommands,
  runCommand
} from './bridge_commands';
import { toggleBreakpoint } from './bridge_debugger';
import { activate, openFile } from './bridge_documents';
import { BridgeError, IBridgeRequest } from './bridge_protocol';
import { openTerminal } from './bridge_terminal';

type Action = (
  app: JupyterFrontEnd,
  params: IBridgeRequest['params'],
  id: string
) => unknown;

const ACTIONS: Record<string, Action> = {
  openFile,
  activate,
  listCommands,
  runCommand,
  toggleBreakpoint,
  openTerminal,
  confirm: (app, params, id) => confirm(app, id, params)
};

/**
 * Carry out one request; resolves with its result, rejects with the
 * BridgeError (or any error) to answer.
 */
export async function runRequest(
  app: JupyterFrontEnd,
  request: IBridgeRequest
): Promise<unknown> {
  const { id, method, params } = request;
  const action = Object.prototype.hasOwnProperty.call(ACTIONS, method)
    ? ACTIONS[method]
    : undefined;
  if (!action) {
    throw new BridgeError('UNKNOWN_METHOD', `unknown method ${method}`);
  }
  return await action(app, params, id);
}

/** The server stopped waiting for request `id`: close what asks the person. */
export function cancelRequest(id: string): void {
  cancelConfirm(id);
}
