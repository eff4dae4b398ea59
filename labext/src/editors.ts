/**
 * Open editors follow agents' changes: a clean editor reloads when an agent
 * changes its file; a dirty one tells the person and lets them choose.
 *
 * Without jupyter-collaboration an agent's change reaches the file on disk,
 * not the editors showing it. The server sends a `document` event
 * `{path, revision}` for every applied agent change; for each open document
 * on that path:
 *
 * - the editor already shows `revision`, or the file on disk is still the
 *   version the editor last loaded or saved (the change has not reached the
 *   disk, or the editor reloaded already): nothing to do;
 * - the document is clean: reload it from disk (the cursor stays on its line);
 * - it has unsaved changes: a warning notification with "Reload (discard my
 *   changes)" and "Keep mine". Keeping takes the disk's version as the one
 *   the editor is based on, so the person's next save overwrites the agent's
 *   change without JupyterLab's "File Changed" dialog (the server sees that
 *   save as a person's edit).
 *
 * Live documents (jupyter-collaboration) are left alone: the shared model
 * brings the change to every editor already.
 *
 * The decision is pure (`decide`, `AgentChangeFollower` with an injected
 * host); `followAgentChanges` is the JupyterLab host.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { CodeEditor } from '@jupyterlab/codeeditor';
import type {
  DocumentRegistry,
  IDocumentWidget
} from '@jupyterlab/docregistry';
import type { Widget } from '@lumino/widgets';

import type { IServerEvent, ServerEvents } from './events';

// ---------------------------------------------------------------- revisions

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
  0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
]);

/**
 * SHA-256 of `bytes` as lowercase hex. Synchronous and available everywhere
 * (WebCrypto is not, on a Jupyter server reached over plain http).
 */
export function sha256Hex(bytes: Uint8Array): string {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const tail = new DataView(padded.buffer);
  tail.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  tail.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
    0x1f83d9ab, 0x5be0cd19
  ]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) {
      w[i] = tail.getUint32(offset + i * 4);
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 =
        ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 =
        ((e >>> 6) | (e << 26)) ^
        ((e >>> 11) | (e << 21)) ^
        ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) | 0;
      const S0 =
        ((a >>> 2) | (a << 30)) ^
        ((a >>> 13) | (a << 19)) ^
        ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  let hex = '';
  for (const word of h) {
    hex += word.toString(16).padStart(8, '0');
  }
  return hex;
}

/**
 * The server's revision token of a text (`core/revision.py`): `rev-` and the
 * first 12 hex digits of the SHA-256 of its UTF-8.
 */
export function revisionOf(text: string): string {
  return 'rev-' + sha256Hex(new TextEncoder().encode(text)).slice(0, 12);
}

// ---------------------------------------------------------------- decision

/** A version of a file on disk, as the contents API describes it. */
export interface IDiskVersion {
  hash?: string | null;
  lastModified?: string | null;
}

/** Whether two descriptions name the same version (unknown: assume not). */
export function sameVersion(
  a: IDiskVersion | null,
  b: IDiskVersion | null
): boolean {
  if (!a || !b) {
    return false;
  }
  if (a.hash && b.hash) {
    return a.hash === b.hash;
  }
  if (a.lastModified && b.lastModified) {
    return a.lastModified === b.lastModified;
  }
  return false;
}

/** What a follower needs of one open document (a context, or a fake). */
export interface IFollowedDocument {
  /** Root-relative, as the server's events name documents. */
  readonly path: string;
  /** Whether it has unsaved changes. */
  readonly dirty: boolean;
  /** Gone (closed): nothing more to do for it. */
  readonly disposed: boolean;
  /** The text the editor shows. */
  text(): string;
  /** The version on disk the editor last loaded or saved. */
  base(): IDiskVersion | null;
  /** The version on disk now. */
  disk(): Promise<IDiskVersion>;
  /** Load the file from disk. */
  reload(): Promise<void>;
  /** Take `disk` as the base: the next save overwrites it without asking. */
  adopt(disk: IDiskVersion): void;
}

/** What to do about one document after an agent changed its file. */
export type Decision = 'none' | 'reload' | 'ask';

/** The decision once the disk's version is known (see the module's doc). */
export function decide(
  doc: Pick<IFollowedDocument, 'dirty' | 'base'>,
  disk: IDiskVersion
): Decision {
  if (sameVersion(doc.base(), disk)) {
    return 'none';
  }
  return doc.dirty ? 'ask' : 'reload';
}

/** The person's choice for a dirty document. */
export interface IChoices {
  reload: () => Promise<void>;
  keep: () => void;
}

/** Where the follower finds documents and asks the person. */
export interface IFollowerHost {
  /** The open documents on `path` (one per context). */
  documents(path: string): IFollowedDocument[];
  /** Tell the person an agent changed `doc` under their unsaved changes. */
  ask(doc: IFollowedDocument, choices: IChoices): void;
}

/** Follows `document` events for the documents a host has open. */
export class AgentChangeFollower {
  constructor(host: IFollowerHost, events: ServerEvents) {
    this._host = host;
    this._unsubscribe = events.subscribe(['document'], event => {
      void this.handle(event);
    });
  }

  /**
   * Act on one `document` event; resolves when its documents are handled.
   * Events for one path are handled in order, one at a time.
   */
  handle(event: IServerEvent): Promise<void> {
    const path = normalizePath(event.data?.path);
    if (!path) {
      return Promise.resolve();
    }
    const revision =
      typeof event.data?.revision === 'string' ? event.data.revision : null;
    const previous = this._queues.get(path) ?? Promise.resolve();
    const next = previous.then(() => this._process(path, revision));
    this._queues.set(path, next);
    void next.then(() => {
      if (this._queues.get(path) === next) {
        this._queues.delete(path);
      }
    });
    return next;
  }

  dispose(): void {
    this._unsubscribe();
  }

  private async _process(path: string, revision: string | null) {
    for (const doc of this._host.documents(path)) {
      try {
        await this._follow(doc, revision);
      } catch (error) {
        console.error(`MCP Lab: could not follow the change to ${path}`, error);
      }
    }
  }

  private async _follow(doc: IFollowedDocument, revision: string | null) {
    if (doc.disposed || (revision && revisionOf(doc.text()) === revision)) {
      return; // it shows that revision already (e.g. the person's own save)
    }
    const disk = await doc.disk();
    if (doc.disposed) {
      return;
    }
    switch (decide(doc, disk)) {
      case 'reload':
        await doc.reload();
        break;
      case 'ask':
        this._host.ask(doc, {
          reload: () => (doc.disposed ? Promise.resolve() : doc.reload()),
          keep: () => {
            if (!doc.disposed) {
              doc.adopt(disk);
            }
          }
        });
        break;
    }
  }

  private _host: IFollowerHost;
  private _unsubscribe: () => void;
  private _queues = new Map<string, Promise<void>>();
}

/** A path as events name it: root-relative, no leading "/". */
export function normalizePath(path: unknown): string {
  return typeof path === 'string' ? path.replace(/^\/+/, '') : '';
}

// ---------------------------------------------------------------- JupyterLab

type Context = DocumentRegistry.IContext<DocumentRegistry.IModel>;

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

/** Whether `widget` shows a document (has a context with a path). */
export function isDocumentWidget(
  widget: Widget | null | undefined
): widget is IDocumentWidget {
  const context = (widget as any)?.context;
  return !!context && typeof context.path === 'string' && !!context.model;
}

/** The code editor a document widget shows (a file editor's), if any. */
export function editorOf(widget: IDocumentWidget): CodeEditor.IEditor | null {
  const editor = (widget.content as any)?.editor;
  return editor && typeof editor.setCursorPosition === 'function'
    ? (editor as CodeEditor.IEditor)
    : null;
}

/** The path of a context as the server names it (no drive, no leading "/"). */
export function contextPath(context: Context): string {
  return normalizePath(context.localPath ?? context.path);
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
      const line = Math.min(position.line, Math.max(editor.lineCount - 1, 0));
      const length = editor.getLine(line)?.length ?? 0;
      editor.setCursorPosition({
        line,
        column: Math.min(position.column, length)
      });
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
      notices.show(context, doc.path, choices).catch(error => {
        console.error('MCP Lab: could not show a notification', error);
      });
    }
  };
  const follower = new AgentChangeFollower(host, events);
  return () => {
    follower.dispose();
    notices.dispose();
  };
}

/** One warning per context: a second change updates it rather than stacking. */
class Notices {
  async show(context: Context, path: string, choices: IChoices) {
    // Loaded on first use: this module's logic stays importable where
    // JupyterLab's UI packages are not (unit tests in plain Node).
    const { Notification } = await import('@jupyterlab/apputils');
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
