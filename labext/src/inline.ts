/**
 * Inline review: pending suggestions shown in the open text and markdown
 * editors (struck-through deletions, ghost insertions) with accept/reject.
 *
 * For every open file editor (inline_editor.ts) the plugin fetches its
 * document's pending suggestions as the server places them now (`GET
 * suggestions?path=&locate=true`), refreshing on the server's `suggestion`,
 * `document` and `checkpoint` events and when the file is saved or reloaded;
 * `inline_model` places them in the editor's text (which may hold unsaved
 * typing) and `inline_view` draws them. Nothing is written into the document:
 * the person's file changes only when they accept.
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
import type { IDocumentWidget } from '@jupyterlab/docregistry';
import type { EditorView } from '@codemirror/view';

import { documentWidgets, editorOf } from './documents';
import type { IServerEvent } from './events';
import { IInlineOwner, TrackedEditor, viewOf } from './inline_editor';
import { eventPath } from './inline_model';
import { InlineField, removeInlineItem, setInlineBusy } from './inline_view';
import { Request, requestAPI } from './request';
import { conflictReason, ISuggestion } from './suggestions';
import { IMcpLab } from './tokens';

/** Command ids. */
export namespace InlineCommandIDs {
  export const toggle = 'jupyter-mcp-lab:toggle-inline-review';
}

/** Inline review for every open file editor of one JupyterLab. */
export class InlineReview implements IInlineOwner {
  constructor(
    private _app: JupyterFrontEnd,
    private _mcpLab: IMcpLab,
    readonly request: Request = requestAPI
  ) {
    this._field = new InlineField({
      decide: (view, id, action) => {
        void this.decide(view, id, action);
      },
      // Typed over: a conflict in the panel at once, before the file is saved.
      typedOver: (_view, ids) => _mcpLab.suggestions.markTypedOver(ids)
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

  /** A refresh placed these suggestions again: they apply as shown. */
  placed(_path: string, ids: string[]): void {
    this._mcpLab.suggestions.placedAgain(ids);
  }

  /** A saved file: the panel's list places its suggestions in the new text. */
  fileChanged(): void {
    void this._mcpLab.suggestions.refresh();
  }

  /**
   * Where the editor of `widget` shows suggestion `id` now (UTF-16 offsets
   * into its text), or null when it does not show it.
   */
  placedRange(
    widget: IDocumentWidget,
    id: string
  ): { from: number; to: number } | null {
    const tracked = this._tracked.get(widget);
    const item = tracked
      ? this._field.items(tracked.view).find(i => i.id === id)
      : undefined;
    return item ? { from: item.from, to: item.to } : null;
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
      : model.reject(id))) as ISuggestion | null;
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
    }
    // An accepted change reaches the editor like any agent change: the follower
    // (editors.ts) reloads a clean editor and asks in a dirty one.
    tracked.schedule();
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
