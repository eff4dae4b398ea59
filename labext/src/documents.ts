/**
 * JupyterLab's open documents as the extension sees them: which widgets show
 * a document, their paths as the server names them (root-relative, no drive),
 * and their code editors. Type imports only: importable in plain Node.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { CodeEditor } from '@jupyterlab/codeeditor';
import type {
  DocumentRegistry,
  IDocumentWidget
} from '@jupyterlab/docregistry';
import type { Widget } from '@lumino/widgets';

export type Context = DocumentRegistry.IContext<DocumentRegistry.IModel>;

/** A path as events name it: root-relative, no leading "/". */
export function normalizePath(path: unknown): string {
  return typeof path === 'string' ? path.replace(/^\/+/, '') : '';
}

/** The path of a context as the server names it (no drive, no leading "/"). */
export function contextPath(context: Context): string {
  return normalizePath(context.localPath ?? context.path);
}

/** Whether `widget` shows a document (has a context with a path). */
export function isDocumentWidget(
  widget: Widget | null | undefined
): widget is IDocumentWidget {
  const context = (widget as any)?.context;
  return !!context && typeof context.path === 'string' && !!context.model;
}

/** The document widgets open in the shell (main and bottom areas). */
export function documentWidgets(app: JupyterFrontEnd): IDocumentWidget[] {
  const found: IDocumentWidget[] = [];
  for (const area of ['main', 'down']) {
    let widgets: Iterable<Widget>;
    try {
      widgets = app.shell.widgets(area);
    } catch {
      continue; // a shell without that area
    }
    for (const widget of widgets) {
      if (isDocumentWidget(widget)) {
        found.push(widget);
      }
    }
  }
  return found;
}

/** The code editor a document widget shows (a file editor's), if any. */
export function editorOf(widget: IDocumentWidget): CodeEditor.IEditor | null {
  const editor = (widget.content as any)?.editor;
  return editor && typeof editor.setCursorPosition === 'function'
    ? (editor as CodeEditor.IEditor)
    : null;
}

/**
 * Put the cursor back where it was before the text was replaced (a reload),
 * clamped to the new text.
 */
export function restoreCursor(
  editor: CodeEditor.IEditor,
  position: CodeEditor.IPosition
): void {
  const line = Math.min(position.line, Math.max(editor.lineCount - 1, 0));
  editor.setCursorPosition({
    line,
    column: Math.min(position.column, editor.getLine(line)?.length ?? 0)
  });
}

/**
 * The workspace path of any widget with a context (`widget.context.path`),
 * without a drive prefix such as "RTC:"; null for anything else.
 */
export function documentPath(
  widget: unknown,
  localPath: (path: string) => string = path => path
): string | null {
  const path = (widget as any)?.context?.path;
  return typeof path === 'string' && path !== '' ? localPath(path) : null;
}

/** The path of the document in the main area's current widget, if any. */
export function activeDocumentPath(app: JupyterFrontEnd | null): string | null {
  if (!app) {
    return null;
  }
  const contents = (app.serviceManager as any)?.contents;
  return documentPath(app.shell.currentWidget, path =>
    typeof contents?.localPath === 'function' ? contents.localPath(path) : path
  );
}
