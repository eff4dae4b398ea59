/**
 * Inline review in one open file editor: fetch its document's located
 * pending suggestions, place them in the editor's text (inline_model.ts) and
 * hand them to the editor's field (inline_view.ts).
 */
import type { CodeEditor } from '@jupyterlab/codeeditor';
import type { IDocumentWidget } from '@jupyterlab/docregistry';
import type { EditorView } from '@codemirror/view';

import { Context, contextPath } from './documents';
import { ILocatedList, locateEndpoint, placeSuggestions } from './inline_model';
import { setInlineItems } from './inline_view';
import type { Request } from './request';
import { revisionOf } from './revision';

/** What a tracked editor needs of the inline review it belongs to. */
export interface IInlineOwner {
  /** Whether suggestions are shown inline (the toggle command). */
  readonly enabled: boolean;
  readonly request: Request;
  /** A refresh placed these suggestions in the editor of `path`. */
  placed?(path: string, ids: string[]): void;
  /** The editor's file was saved, reverted or renamed. */
  fileChanged?(path: string): void;
}

/** The EditorView of a JupyterLab CodeMirror editor, if it is one. */
export function viewOf(editor: CodeEditor.IEditor): EditorView | null {
  const view = (editor as any).editor;
  return view && view.state && typeof view.dispatch === 'function'
    ? (view as EditorView)
    : null;
}

/** One open file editor and its inline suggestions. */
export class TrackedEditor {
  constructor(
    private _owner: IInlineOwner,
    readonly widget: IDocumentWidget,
    readonly editor: CodeEditor.IEditor,
    readonly view: EditorView
  ) {
    this.context.fileChanged.connect(this._onFile);
    this.context.pathChanged.connect(this._onFile);
    void this.context.ready.then(() => this.schedule());
  }

  get context(): Context {
    return this.widget.context;
  }

  /** The document's path as the server names it. */
  get path(): string {
    return contextPath(this.context);
  }

  get disposed(): boolean {
    return this._disposed || this.widget.isDisposed;
  }

  /** Refresh soon; calls close together make one request. */
  schedule(delay = 100): void {
    if (this.disposed) {
      return;
    }
    if (this._timer !== null) {
      clearTimeout(this._timer);
    }
    this._timer = setTimeout(() => {
      this._timer = null;
      void this.refresh();
    }, delay);
  }

  /** Fetch the located suggestions and show the ones that fit the text. */
  async refresh(): Promise<void> {
    const seq = ++this._seq;
    if (!this._owner.enabled || this.disposed || !this.context.isReady) {
      return;
    }
    let list: ILocatedList;
    try {
      list = await this._owner.request<ILocatedList>(locateEndpoint(this.path));
    } catch (error) {
      console.warn(`MCP Lab: inline suggestions for ${this.path}`, error);
      return;
    }
    if (seq !== this._seq || this.disposed || !this._owner.enabled) {
      return; // a newer refresh, or switched off meanwhile
    }
    const text = this.view.state.doc.toString();
    const { items } = placeSuggestions(
      text,
      list,
      () => revisionOf(text) === list.revision
    );
    this.view.dispatch({ effects: setInlineItems.of(items) });
    this._owner.placed?.(
      this.path,
      items.map(item => item.id)
    );
  }

  /** Show nothing (switched off). */
  clear(): void {
    this._seq++;
    if (!this.disposed) {
      this.view.dispatch({ effects: setInlineItems.of([]) });
    }
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    if (this._timer !== null) {
      clearTimeout(this._timer);
    }
    this.context.fileChanged.disconnect(this._onFile);
    this.context.pathChanged.disconnect(this._onFile);
  }

  // Saved, reverted or renamed: the text (or name) the server reads changed.
  private _onFile = () => {
    this.schedule();
    this._owner.fileChanged?.(this.path);
  };
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _seq = 0;
  private _disposed = false;
}
