/**
 * The lab bridge and JupyterLab's terminals: open one for an agent, in the
 * directory the server names, and type its command in.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { Widget } from '@lumino/widgets';

import { BridgeError } from './bridge_protocol';
import { sleep } from './time';

interface ITerminalSessionLike {
  readonly name: string;
  readonly connectionStatus: string;
  send(message: { type: 'stdin'; content: string[] }): void;
}

/** `openTerminal`: a new terminal tab, running `command` if there is one. */
export async function openTerminal(
  app: JupyterFrontEnd,
  params: { command?: unknown; cwd?: unknown }
): Promise<object> {
  const command = params.command;
  if (
    command !== undefined &&
    command !== null &&
    typeof command !== 'string'
  ) {
    throw new BridgeError('INVALID_ARGUMENT', 'command must be a string');
  }
  if (
    !app.commands.hasCommand('terminal:create-new') ||
    !app.serviceManager.terminals.isAvailable()
  ) {
    throw new BridgeError(
      'UNAVAILABLE',
      'terminals are not available in this JupyterLab (switched off on the server?)'
    );
  }
  // JupyterLab's command takes a directory relative to the root and the
  // server resolves those against its own working directory first: start the
  // terminal in the absolute directory the server named, then show it.
  let name: string | undefined;
  if (typeof params.cwd === 'string' && params.cwd) {
    const started = await app.serviceManager.terminals.startNew({
      cwd: params.cwd
    });
    name = started.name;
    started.dispose(); // only this connection: the terminal lives on
  }
  const widget = (await app.commands.execute(
    'terminal:create-new',
    name ? { name } : {}
  )) as Widget | undefined;
  const session: ITerminalSessionLike | undefined = (widget as any)?.content
    ?.session;
  if (!widget || !session) {
    throw new BridgeError('FAILED', 'JupyterLab could not open a terminal');
  }
  const deadline = Date.now() + 5000;
  while (session.connectionStatus !== 'connected' && Date.now() < deadline) {
    await sleep(50);
  }
  if (session.connectionStatus !== 'connected') {
    throw new BridgeError(
      'FAILED',
      `the terminal ${session.name} did not connect`
    );
  }
  if (typeof command === 'string' && command) {
    session.send({ type: 'stdin', content: [command + '\r'] });
  }
  return { terminal: session.name, widgetId: widget.id };
}
