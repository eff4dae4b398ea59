/**
 * What the lab bridge does in JupyterLab for an agent: open a file at a line,
 * show a tab, list and run commands, toggle a debugger breakpoint, type into a
 * new terminal, and ask the person whether a command may run.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Dialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

import {
  BridgeError,
  codePointOffset,
  confirmText,
  filterCommands,
  ICommandInfo,
  IConfirmParams,
  IOpenDocument,
  IPersonSelection,
  plainData
} from './bridge_protocol';

/** A document widget as far as the bridge looks at it. */
interface IDocumentWidget extends Widget {
  context: {
    path: string;
    ready?: Promise<void>;
    model?: { dirty?: boolean };
  };
  content?: any;
}

/** A code editor (CodeEditor.IEditor, CodeMirror 6 underneath). */
interface IEditorLike {
  model?: { sharedModel?: { getSource(): string } };
  lineCount?: number;
  getSelection?(): { start: IPosition; end: IPosition };
  getOffsetAt?(position: IPosition): number;
  setCursorPosition?(position: IPosition): void;
  revealPosition?(position: IPosition): void;
  focus?(): void;
  /** CodeMirror's EditorView: its selection keeps the direction. */
  editor?: {
    state?: { selection?: { main?: { anchor: number; head: number } } };
  };
}

interface IPosition {
  line: number;
  column: number;
}

function isDocumentWidget(widget: Widget): widget is IDocumentWidget {
  const context = (widget as any).context;
  return !!context && typeof context.path === 'string';
}

/** The root-relative path of a JupyterLab path (without a drive prefix). */
export function localPath(app: JupyterFrontEnd, path: string): string {
  try {
    return app.serviceManager.contents.localPath(path);
  } catch {
    return path;
  }
}

/** The document widgets in the main area, in the shell's order. */
export function documentWidgets(app: JupyterFrontEnd): IDocumentWidget[] {
  return Array.from(app.shell.widgets('main')).filter(isDocumentWidget);
}

/** The open document at `path`, if any. */
function findDocument(
  app: JupyterFrontEnd,
  path: string
): IDocumentWidget | undefined {
  return documentWidgets(app).find(
    w => localPath(app, w.context.path) === path
  );
}

/** How presence describes a document widget. */
export function describeDocument(
  app: JupyterFrontEnd,
  widget: IDocumentWidget
): IOpenDocument {
  const path = localPath(app, widget.context.path);
  let kind = 'file';
  try {
    kind = app.docRegistry.getFileTypesForPath(path)[0]?.name ?? 'file';
  } catch {
    // a registry without file types: keep "file"
  }
  return { path, kind, dirty: !!widget.context.model?.dirty };
}

/** The editor of a document widget (a notebook's active cell's) and the cell. */
export function editorOf(
  widget: Widget | null
): { editor: IEditorLike; cell?: number } | null {
  const content = widget && (widget as any).content;
  if (!content) {
    return null;
  }
  if (content.activeCell?.editor) {
    return { editor: content.activeCell.editor, cell: content.activeCellIndex };
  }
  if (content.editor) {
    return { editor: content.editor };
  }
  return null;
}

/** The person's selection in a document widget, in code points. */
export function selectionOf(
  app: JupyterFrontEnd,
  widget: Widget | null
): IPersonSelection | null {
  if (!widget || !isDocumentWidget(widget)) {
    return null;
  }
  const found = editorOf(widget);
  if (!found) {
    return null;
  }
  const { editor, cell } = found;
  const text = editor.model?.sharedModel?.getSource() ?? '';
  let anchor: number;
  let head: number;
  const main = editor.editor?.state?.selection?.main;
  if (main) {
    ({ anchor, head } = main);
  } else if (editor.getSelection && editor.getOffsetAt) {
    const range = editor.getSelection();
    anchor = editor.getOffsetAt(range.start);
    head = editor.getOffsetAt(range.end);
  } else {
    return null;
  }
  const selection: IPersonSelection = {
    path: localPath(app, widget.context.path),
    anchor: codePointOffset(text, anchor),
    head: codePointOffset(text, head)
  };
  if (cell !== undefined) {
    selection.cell = cell;
  }
  return selection;
}

function sleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms));
}

/** Wait (a little) until the shell's current widget is `widget`. */
async function untilCurrent(
  app: JupyterFrontEnd,
  widget: Widget,
  ms = 1500
): Promise<void> {
  const deadline = Date.now() + ms;
  while (app.shell.currentWidget !== widget && Date.now() < deadline) {
    await sleep(20);
  }
}

function goToLine(widget: IDocumentWidget, line: number): void {
  const found = editorOf(widget);
  if (!found || found.cell !== undefined || !found.editor.setCursorPosition) {
    return; // a notebook or a viewer: there is no single line to go to
  }
  const { editor } = found;
  const last = Math.max((editor.lineCount ?? line) - 1, 0);
  const position = { line: Math.min(line - 1, last), column: 0 };
  editor.setCursorPosition!(position);
  editor.revealPosition?.(position);
  editor.focus?.();
}

// --------------------------------------------------------------------- actions

export async function openFile(
  app: JupyterFrontEnd,
  params: { path?: unknown; line?: unknown }
): Promise<object> {
  const path = requireString(params.path, 'path');
  const widget = (await app.commands.execute('docmanager:open', {
    path
  })) as Widget | undefined;
  if (!widget || !isDocumentWidget(widget)) {
    throw new BridgeError('FAILED', `JupyterLab could not open ${path}`);
  }
  await widget.context.ready;
  if (typeof params.line === 'number' && params.line >= 1) {
    goToLine(widget, params.line);
  }
  app.shell.activateById(widget.id);
  await untilCurrent(app, widget);
  return { path, widgetId: widget.id };
}

export async function activate(
  app: JupyterFrontEnd,
  params: { path?: unknown }
): Promise<object> {
  const path = requireString(params.path, 'path');
  const widget = findDocument(app, path);
  if (!widget) {
    throw new BridgeError(
      'NOT_FOUND',
      `${path} is not open in this JupyterLab (open it with the open action)`
    );
  }
  app.shell.activateById(widget.id);
  await untilCurrent(app, widget);
  return { path, widgetId: widget.id };
}

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

// The debugger service's plugin. The service's token lives in
// @jupyterlab/debugger, whose ~40 packages this extension does not depend on:
// the token is taken from the plugin that provides it.
const DEBUGGER_PLUGIN = '@jupyterlab/debugger-extension:service';

interface IBreakpointLike {
  line?: number;
  verified?: boolean;
  source?: { path?: string };
}

interface IDebuggerLike {
  readonly isStarted: boolean;
  getCodeId(code: string): string;
  model: {
    breakpoints: { getBreakpoints(id: string): IBreakpointLike[] };
  };
  updateBreakpoints(
    code: string,
    breakpoints: IBreakpointLike[],
    path?: string
  ): Promise<void>;
}

async function debuggerService(
  app: JupyterFrontEnd
): Promise<IDebuggerLike | null> {
  if (!app.hasPlugin(DEBUGGER_PLUGIN)) {
    return null;
  }
  const registry = (app as any).pluginRegistry;
  const token = registry?._plugins?.get?.(DEBUGGER_PLUGIN)?.provides;
  if (!token) {
    return null;
  }
  const service = await app.resolveOptionalService(token);
  return (service as IDebuggerLike | null) ?? null;
}

export async function toggleBreakpoint(
  app: JupyterFrontEnd,
  params: { path?: unknown; line?: unknown }
): Promise<object> {
  const path = requireString(params.path, 'path');
  const line = params.line;
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) {
    throw new BridgeError('INVALID_ARGUMENT', 'line must be a number from 1');
  }
  const service = await debuggerService(app);
  if (!service) {
    throw new BridgeError(
      'UNAVAILABLE',
      'the JupyterLab debugger is not installed or is disabled'
    );
  }
  if (!service.isStarted) {
    throw new BridgeError(
      'UNAVAILABLE',
      'the debugger is not running: the person switches it on (the bug icon in the toolbar of a ' +
        'notebook or console whose kernel supports debugging), then retry'
    );
  }
  let widget: Widget | undefined = findDocument(app, path);
  if (!widget) {
    widget = (await app.commands.execute('docmanager:open', { path })) as
      Widget | undefined;
  }
  if (!widget || !isDocumentWidget(widget)) {
    throw new BridgeError('FAILED', `JupyterLab could not open ${path}`);
  }
  await widget.context.ready;
  const code = editorOf(widget)?.editor.model?.sharedModel?.getSource();
  if (code === undefined) {
    throw new BridgeError(
      'INVALID_ARGUMENT',
      `${path} is not shown in a code editor, where breakpoints go`
    );
  }
  const lines = code.split('\n').length;
  if (line > lines) {
    throw new BridgeError(
      'INVALID_ARGUMENT',
      `line ${line} is past the end (${lines} lines)`
    );
  }
  // Breakpoints are kept per source, under the id the kernel gives the code.
  const id = service.getCodeId(code);
  const current = service.model.breakpoints.getBreakpoints(id);
  const had = current.some(b => b.line === line);
  const next = had
    ? current.filter(b => b.line !== line)
    : [...current, { line, verified: true, source: { path: id } }];
  next.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  await service.updateBreakpoints(code, next);
  return {
    path,
    line,
    set: !had,
    lines: next.map(b => b.line).filter(n => typeof n === 'number')
  };
}

interface ITerminalSessionLike {
  readonly name: string;
  readonly connectionStatus: string;
  send(message: { type: 'stdin'; content: string[] }): void;
}

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

/** The open approval dialogs, by request id (the server may cancel them). */
const dialogs = new Map<string, Dialog<unknown>>();

/** Ask the person whether the agent's command may run: Allow or Deny. */
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
export function cancel(id: string): void {
  dialogs.get(id)?.reject();
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value) {
    throw new BridgeError('INVALID_ARGUMENT', `${name} is required`);
  }
  return value;
}
