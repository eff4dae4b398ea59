/**
 * The lab bridge and JupyterLab's debugger: toggle a breakpoint for an agent.
 *
 * The debugger service's token lives in @jupyterlab/debugger, whose ~40
 * packages this extension does not depend on: the token is taken from the
 * plugin that provides it, and the service is used through the little of it
 * described here.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import { activeEditor, findDocument, openDocument } from './bridge_documents';
import { BridgeError, requireString } from './bridge_protocol';

/** The debugger service's plugin. */
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

/** `toggleBreakpoint`: set or clear the breakpoint on a line of a document. */
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
  const widget = findDocument(app, path) ?? (await openDocument(app, path));
  await widget.context.ready;
  const code = activeEditor(widget)?.editor.model?.sharedModel?.getSource();
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
  // What the kernel took: it may move a breakpoint (off a blank line or a
  // comment) or drop it, and JupyterLab keeps (and shows) its answer.
  const taken = service.model.breakpoints
    .getBreakpoints(id)
    .map(b => b.line)
    .filter((n): n is number => typeof n === 'number');
  return { path, line, set: taken.includes(line), lines: taken };
}
