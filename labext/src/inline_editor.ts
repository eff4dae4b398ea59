/**
 * Inline review in one open file editor: fetch its document's located
 * pending suggestions, place them in the editor's text (inline_model.ts) and
 * hand them to the editor's field (inline_view.ts); after an accept, make the
 * editor show the change, or tell the person why it cannot.
 */
import { Notification } from '@jupyterlab/apputils';
import type { CodeEditor } from '@jupyterlab/codeeditor';
import type { IDocumentWidget } from '@jupyterlab/docregistry';
import type { EditorView } from '@codemirror/view';

import { Context, contextPath, restoreCursor } from './documents';
import { askMessage, RELOAD_LABEL } from './editors';
import {
  acceptedDirtyMessage,
  ILocatedList,
  locateEndpoint,
  placeSuggestions
} from './inline_model';
import { setInlineItems } from './inline_view';
import type { Request } from './request';
import { revisionOf } from './revision';
import { sleep } from './time';

/** How long a clean editor waits for the follower to reload it after an accept. */
const FOLLOW_WAIT_MS = 1500;

/** What a tracked editor needs of the inline review it belongs to. */
export interface IInlineOwner {
  /** Whether suggestions are shown inline (the toggle command). */
  readonly enabled: boolean;
  readonly request: Request;
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
  }

  /** Show nothing (switched off). */
  clear(): void {
    this._seq++;
    if (!this.disposed) {
      this.view.dispatch({ effects: setInlineItems.of([]) });
    }
  }

  /** Make the editor show an accepted change, or tell the person why not. */
  async showAccepted(revision: string): Promise<void> {
    const context = this.context;
    if (context.model.collaborative) {
      return; // the shared document has it already
    }
    const shows = () => revisionOf(context.model.toString()) === revision;
    // The agent-change follower (editors.ts) reloads clean editors on the
    // server's `document` event: give it a moment rather than reload twice.
    for (let waited = 0; waited < FOLLOW_WAIT_MS; waited += 150) {
      if (context.isDisposed || shows()) {
        return;
      }
      await sleep(150);
    }
    if (context.isDisposed || shows()) {
      return;
    }
    if (!context.model.dirty) {
      await this.reload();
      return;
    }
    // Unsaved changes: the person decides. The follower may have asked already.
    const asked = Notification.manager.notifications.some(
      n => n.message === askMessage(this.path)
    );
    if (!asked) {
      Notification.warning(acceptedDirtyMessage(this.path), {
        autoClose: false,
        actions: [
          {
            label: RELOAD_LABEL,
            caption:
              'Load the file with the accepted change; your unsaved changes are lost',
            displayType: 'warn',
            callback: () => {
              void this.reload();
            }
          }
        ]
      });
    }
  }

  /** Reload the file from disk, keeping the cursor on its line. */
  async reload(): Promise<void> {
    if (this.disposed) {
      return;
    }
    const position = this.editor.getCursorPosition();
    await this.context.revert();
    restoreCursor(this.editor, position);
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
  private _onFile = () => this.schedule();
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _seq = 0;
  private _disposed = false;
}
