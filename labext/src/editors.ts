/**
 * Open editors follow agents' changes: a clean editor reloads when an agent
 * changes its file; a dirty one tells the person and lets them choose.
 *
 * Without jupyter-collaboration an agent's change reaches the file on disk,
 * not the editors showing it. What to do about each open document is decided
 * in editors_model.ts; this module is its JupyterLab host: the documents are
 * the shell's contexts, a reload keeps each editor's cursor on its line, and
 * the question is a warning notification with "Reload (discard my changes)"
 * and "Keep mine". Keeping records the disk's version as the one loaded, so
 * the next save goes through without JupyterLab's "File Changed" dialog (the
 * server sees that save as a person's edit).
 *
 * Live documents (jupyter-collaboration) are left alone: the shared model
 * brings the change to every editor already.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { CodeEditor } from '@jupyterlab/codeeditor';

import {
  Context,
  contextPath,
  documentWidgets,
  editorOf,
  restoreCursor
} from './documents';
import {
  AgentChangeFollower,
  IChoices,
  IDiskVersion,
  IFollowedDocument,
  IFollowerHost
} from './editors_model';
import type { ServerEvents } from './events';

/** The message of the notification for a dirty document. */
export function askMessage(path: string): string {
  return (
    `An agent changed "${path}" while you have unsaved changes in it. ` +
    'Reload the file (your changes are lost) or keep your version ' +
    '(your next save overwrites the agent’s change).'
  );
}

/** The notification's action labels. */
export const RELOAD_LABEL = 'Reload (discard my changes)';
export const KEEP_LABEL = 'Keep mine';

/** Start following; returns a function that stops. */
export function followAgentChanges(
  app: JupyterFrontEnd,
  events: ServerEvents
): () => void {
  const notices = new Notices();
  const host: IFollowerHost = {
    documents(path: string) {
      const contexts = new Set<Context>();
      for (const widget of documentWidgets(app)) {
        // A live (jupyter-collaboration) document gets the agent's change through
        // the shared model already: reloading it from disk could only go back.
        const live = (widget.context.model as { collaborative?: boolean })
          .collaborative;
        if (contextPath(widget.context) === path && !live) {
          contexts.add(widget.context);
        }
      }
      return [...contexts].map(context => new ContextDocument(context, app));
    },
    ask(doc: IFollowedDocument, choices: IChoices) {
      const context = (doc as ContextDocument).context;
      try {
        notices.show(context, doc.path, choices);
      } catch (error) {
        console.error('MCP Lab: could not show a notification', error);
      }
    }
  };
  const follower = new AgentChangeFollower(host, events);
  return () => {
    follower.dispose();
    notices.dispose();
  };
}

/** A context as the follower sees it. */
class ContextDocument implements IFollowedDocument {
  constructor(
    readonly context: Context,
    private _app: JupyterFrontEnd
  ) {}

  get path(): string {
    return contextPath(this.context);
  }

  get dirty(): boolean {
    return this.context.model.dirty;
  }

  get disposed(): boolean {
    return this.context.isDisposed;
  }

  text(): string {
    return this.context.model.toString();
  }

  base(): IDiskVersion | null {
    const model = this.context.contentsModel;
    return model
      ? { hash: model.hash ?? null, lastModified: model.last_modified ?? null }
      : null;
  }

  async disk(): Promise<IDiskVersion> {
    const model = await this._app.serviceManager.contents.get(
      this.context.path,
      { content: false, hash: true }
    );
    return { hash: model.hash ?? null, lastModified: model.last_modified };
  }

  async reload(): Promise<void> {
    // Reverting replaces the whole text: keep each editor's cursor where it was.
    const cursors = documentWidgets(this._app)
      .filter(widget => widget.context === this.context)
      .map(widget => editorOf(widget))
      .filter((editor): editor is CodeEditor.IEditor => editor !== null)
      .map(editor => ({ editor, position: editor.getCursorPosition() }));
    await this.context.revert();
    // The text is the file's now; reverting does not clear the flag by itself.
    this.context.model.dirty = false;
    for (const { editor, position } of cursors) {
      restoreCursor(editor, position);
    }
  }

  adopt(disk: IDiskVersion): void {
    // JupyterLab checks the file's hash (or time) against the version it last
    // loaded before it saves, and asks when they differ. Keeping one's own
    // version means that check should pass: record the disk's version as the
    // one loaded. There is no public setter; without it JupyterLab asks on
    // save, which still loses nothing.
    const context = this.context as any;
    const current = this.context.contentsModel;
    if (current && typeof context._updateContentsModel === 'function') {
      context._updateContentsModel({
        ...current,
        hash: disk.hash ?? current.hash,
        last_modified: disk.lastModified ?? current.last_modified
      });
    }
  }
}

/** One warning per context: a second change updates it rather than stacking. */
class Notices {
  show(context: Context, path: string, choices: IChoices): void {
    const options = {
      autoClose: false as const,
      actions: [
        {
          label: RELOAD_LABEL,
          caption:
            'Load the file as the agent left it; your unsaved changes are lost',
          displayType: 'warn' as const,
          callback: () => {
            void choices.reload();
          }
        },
        {
          label: KEEP_LABEL,
          caption:
            'Keep your version; your next save overwrites the agent’s change',
          callback: () => choices.keep()
        }
      ]
    };
    const message = askMessage(path);
    const shown = this._shown.get(context);
    if (shown && Notification.manager.has(shown.id)) {
      Notification.update({
        id: shown.id,
        message,
        type: 'warning',
        ...options
      });
      return;
    }
    shown?.forget();
    const id = Notification.warning(message, options);
    const forget = () => {
      context.disposed.disconnect(onDisposed);
      context.fileChanged.disconnect(onFileChanged);
      if (this._shown.get(context)?.id === id) {
        this._shown.delete(context);
      }
    };
    const onDisposed = () => {
      Notification.dismiss(id);
      forget();
    };
    // Saved or reloaded: the editor is in step with the disk, the question is moot.
    const onFileChanged = () => {
      if (!context.model.dirty) {
        onDisposed();
      }
    };
    context.disposed.connect(onDisposed);
    context.fileChanged.connect(onFileChanged);
    this._shown.set(context, { id, forget });
  }

  dispose(): void {
    for (const shown of [...this._shown.values()]) {
      shown.forget();
    }
  }

  private _shown = new Map<Context, { id: string; forget: () => void }>();
}
