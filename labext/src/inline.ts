/**
 * Inline review: pending suggestions shown in the open text and markdown
 * editors (struck-through deletions, ghost insertions) with accept/reject.
 *
 * For every open file editor the plugin fetches its document's pending
 * suggestions as the server places them now (`GET suggestions?path=&locate=
 * true`), refreshing on the server's `suggestion`, `document` and `checkpoint`
 * events and when the file is saved or reloaded; `inline_model` places them in
 * the editor's text (which may hold unsaved typing) and `inline_view` draws
 * them. Nothing is written into the document: the person's file changes only
 * when they accept.
 *
 * Accepting changes the file on disk. A collaborative editor shows it at once
 * (the shared document); a clean one is reloaded (by the agent-change follower
 * of `editors.ts` on the `document` event, or here if that has not happened
 * shortly); a dirty one keeps the person's text and they are told how to get
 * the change.
 */
import {
  ILabShell,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import type { CodeEditor } from '@jupyterlab/codeeditor';
import type {
  DocumentRegistry,
  IDocumentWidget
} from '@jupyterlab/docregistry';
import type { EditorView } from '@codemirror/view';

import {
  askMessage,
  contextPath,
  documentWidgets,
  editorOf,
  RELOAD_LABEL,
  revisionOf
} from './editors';
import type { IServerEvent } from './events';
import {
  acceptedDirtyMessage,
  eventPath,
  ILocatedList,
  locateEndpoint,
  placeSuggestions
} from './inline_model';
import {
  InlineField,
  removeInlineItem,
  setInlineBusy,
  setInlineItems
} from './inline_view';
import { requestAPI } from './request';
import { conflictReason, ISuggestion } from './suggestions';
import { IMcpLab } from './tokens';

/** Command ids. */
export namespace InlineCommandIDs {
  export const toggle = 'jupyter-mcp-lab:toggle-inline-review';
}

type Context = DocumentRegistry.IContext<DocumentRegistry.IModel>;

/** A decided suggestion as the accept/reject routes answer it. */
interface IDecided extends ISuggestion {
  resultRevision?: string | null;
}

/** How long a clean editor waits for the follower to reload it after an accept. */
const FOLLOW_WAIT_MS = 1500;

/** The EditorView of a JupyterLab CodeMirror editor, if it is one. */
function viewOf(editor: CodeEditor.IEditor): EditorView | null {
  const view = (editor as any).editor;
  return view && view.state && typeof view.dispatch === 'function'
    ? (view as EditorView)
    : null;
}

function sleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms));
}

/** One open file editor and its inline suggestions. */
class TrackedEditor {
  constructor(
    private _owner: InlineReview,
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

/** Inline review for every open file editor of one JupyterLab. */
export class InlineReview {
  constructor(
    private _app: JupyterFrontEnd,
    private _mcpLab: IMcpLab,
    readonly request: <T>(
      endPoint: string,
      init?: RequestInit
    ) => Promise<T> = requestAPI
  ) {
    this._field = new InlineField({
      decide: (view, id, action) => {
        void this.decide(view, id, action);
      }
    });
    _mcpLab.events.subscribe(['suggestion', 'document', 'checkpoint'], event =>
      this._onEvent(event)
    );
    _mcpLab.events.onReconnect(() => this.refreshAll());
  }

  /** Whether suggestions are shown inline (the toggle command). */
  get enabled(): boolean {
    return this._enabled;
  }

  set enabled(value: boolean) {
    if (value === this._enabled) {
      return;
    }
    this._enabled = value;
    for (const tracked of this._tracked.values()) {
      if (value) {
        tracked.schedule(0);
      } else {
        tracked.clear();
      }
    }
  }

  /** Start following the file editors that opened since the last scan. */
  scan(): void {
    for (const widget of documentWidgets(this._app)) {
      if (
        this._tracked.has(widget) ||
        !widget.content.hasClass('jp-FileEditor')
      ) {
        continue;
      }
      const editor = editorOf(widget);
      const view = editor ? viewOf(editor) : null;
      if (!editor || !view || this._failed.has(view)) {
        continue;
      }
      if (!this._field.installed(view)) {
        // JupyterLab's way to add an extension to one editor; CodeMirror's otherwise.
        const inject = (editor as any).injectExtension;
        if (typeof inject === 'function') {
          inject.call(editor, this._field.extension);
        } else {
          this._field.install(view);
        }
      }
      if (!this._field.installed(view)) {
        console.warn('MCP Lab: could not add inline review to an editor');
        this._failed.add(view);
        continue;
      }
      const tracked = new TrackedEditor(this, widget, editor, view);
      this._tracked.set(widget, tracked);
      widget.disposed.connect(() => {
        tracked.dispose();
        this._tracked.delete(widget);
      });
    }
  }

  /** Refresh every editor. */
  refreshAll(): void {
    for (const tracked of this._tracked.values()) {
      tracked.schedule();
    }
  }

  /** Accept or reject one suggestion from an editor's buttons. */
  async decide(
    view: EditorView,
    id: string,
    action: 'accept' | 'reject'
  ): Promise<void> {
    const tracked = [...this._tracked.values()].find(t => t.view === view);
    const model = this._mcpLab.suggestions;
    if (!tracked || model.isBusy(id)) {
      return;
    }
    view.dispatch({ effects: setInlineBusy.of({ id, busy: true }) });
    const result = (await (action === 'accept'
      ? model.accept(id)
      : model.reject(id))) as IDecided | null;
    if (tracked.disposed) {
      return;
    }
    if (!result) {
      view.dispatch({ effects: setInlineBusy.of({ id, busy: false }) });
      Notification.error(
        `Could not ${action} the suggestion: ${model.error ?? 'the server did not answer'}`,
        { autoClose: 8000 }
      );
      tracked.schedule();
      return;
    }
    view.dispatch({ effects: removeInlineItem.of(id) });
    if (result.status === 'conflict') {
      Notification.warning(conflictReason(result), { autoClose: 8000 });
    } else if (result.status === 'accepted' && result.resultRevision) {
      await this._showAccepted(tracked, result.resultRevision);
    }
    tracked.schedule();
  }

  /** Make the editor show an accepted change, or tell the person why not. */
  private async _showAccepted(tracked: TrackedEditor, revision: string) {
    const context = tracked.context;
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
      await this._reload(tracked);
      return;
    }
    // Unsaved changes: the person decides. The follower may have asked already.
    const path = tracked.path;
    const asked = Notification.manager.notifications.some(
      n => n.message === askMessage(path)
    );
    if (!asked) {
      Notification.warning(acceptedDirtyMessage(path), {
        autoClose: false,
        actions: [
          {
            label: RELOAD_LABEL,
            caption:
              'Load the file with the accepted change; your unsaved changes are lost',
            displayType: 'warn',
            callback: () => {
              void this._reload(tracked);
            }
          }
        ]
      });
    }
  }

  /** Reload the file from disk, keeping the cursor on its line. */
  private async _reload(tracked: TrackedEditor): Promise<void> {
    if (tracked.disposed) {
      return;
    }
    const { editor, context } = tracked;
    const position = editor.getCursorPosition();
    await context.revert();
    const line = Math.min(position.line, Math.max(editor.lineCount - 1, 0));
    editor.setCursorPosition({
      line,
      column: Math.min(position.column, editor.getLine(line)?.length ?? 0)
    });
  }

  private _onEvent(event: IServerEvent): void {
    if (!this._enabled) {
      return;
    }
    const path = eventPath(event.data);
    for (const tracked of this._tracked.values()) {
      if (path === null || tracked.path === path) {
        tracked.schedule();
      }
    }
  }

  private _field: InlineField;
  private _tracked = new Map<IDocumentWidget, TrackedEditor>();
  private _failed = new WeakSet<EditorView>();
  private _enabled = true;
}

export const inlineReviewPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp-lab:inline-review',
  description: 'Shows pending suggestions inside the open editors.',
  autoStart: true,
  requires: [IMcpLab],
  optional: [ILabShell, ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    mcpLab: IMcpLab,
    labShell: ILabShell | null,
    palette: ICommandPalette | null
  ) => {
    const review = new InlineReview(app, mcpLab);
    app.commands.addCommand(InlineCommandIDs.toggle, {
      label: 'Show Suggestions Inline in Editors',
      caption:
        'Show agents’ pending suggestions in the open text and markdown editors',
      isToggled: () => review.enabled,
      execute: () => {
        review.enabled = !review.enabled;
        app.commands.notifyCommandChanged(InlineCommandIDs.toggle);
      }
    });
    palette?.addItem({ command: InlineCommandIDs.toggle, category: 'MCP Lab' });

    // New editors: the dock's layout changes when one opens.
    const scan = () => review.scan();
    labShell?.layoutModified.connect(scan);
    labShell?.currentChanged.connect(scan);
    app.shell.currentChanged?.connect(scan);
    void app.restored.then(scan);
  }
};
