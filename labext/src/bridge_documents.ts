/**
 * The lab bridge and JupyterLab's documents: which are open in the main area
 * and how presence describes them, the person's selection, and the agent's
 * `openFile` and `activate` requests.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { Widget } from '@lumino/widgets';

import {
  BridgeError,
  IOpenDocument,
  IPersonSelection,
  requireString
} from './bridge_protocol';
import { codePointOffset } from './offsets';
import { sleep } from './time';

/** A document widget as far as the bridge looks at it. */
export interface IDocumentLike extends Widget {
  context: {
    path: string;
    ready?: Promise<void>;
    model?: { dirty?: boolean };
  };
  content?: any;
}

/** A code editor (CodeEditor.IEditor, CodeMirror 6 underneath). */
export interface IEditorLike {
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

function hasContext(widget: Widget): widget is IDocumentLike {
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
export function mainDocuments(app: JupyterFrontEnd): IDocumentLike[] {
  return Array.from(app.shell.widgets('main')).filter(hasContext);
}

/** The open document at `path`, if any. */
export function findDocument(
  app: JupyterFrontEnd,
  path: string
): IDocumentLike | undefined {
  return mainDocuments(app).find(w => localPath(app, w.context.path) === path);
}

/** Open `path` (or show it, when it is open already), ready to read. */
export async function openDocument(
  app: JupyterFrontEnd,
  path: string
): Promise<IDocumentLike> {
  const widget = (await app.commands.execute('docmanager:open', {
    path
  })) as Widget | undefined;
  if (!widget || !hasContext(widget)) {
    throw new BridgeError('FAILED', `JupyterLab could not open ${path}`);
  }
  await widget.context.ready;
  return widget;
}

/** How presence describes a document widget. */
export function describeDocument(
  app: JupyterFrontEnd,
  widget: IDocumentLike
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

/**
 * The editor the person types in: a notebook's active cell's (with the
 * cell's index) or a file editor's.
 */
export function activeEditor(
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
  if (!widget || !hasContext(widget)) {
    return null;
  }
  const found = activeEditor(widget);
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

function goToLine(widget: IDocumentLike, line: number): void {
  const found = activeEditor(widget);
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

/** `openFile`: open a document (at a line) and make it the current tab. */
export async function openFile(
  app: JupyterFrontEnd,
  params: { path?: unknown; line?: unknown }
): Promise<object> {
  const path = requireString(params.path, 'path');
  const widget = await openDocument(app, path);
  if (typeof params.line === 'number' && params.line >= 1) {
    goToLine(widget, params.line);
  }
  app.shell.activateById(widget.id);
  await untilCurrent(app, widget);
  return { path, widgetId: widget.id };
}

/** `activate`: make an open document the current tab. */
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
