/**
 * What this JupyterLab tells the server over the lab bridge: its presence
 * (open documents, the active one, the person's selection, focus and
 * visibility), sent whole whenever it changed and at most every THROTTLE_MS.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import {
  activeEditor,
  describeDocument,
  mainDocuments,
  selectionOf
} from './bridge_documents';
import { IPresence, presenceMessage, samePresence } from './bridge_protocol';

/** Selection changes are sent at most this often (ms). */
const THROTTLE_MS = 250;
/** Presence is also checked this often, for changes no signal announced. */
const POLL_MS = 2000;

interface ISignalLike {
  connect(slot: (...args: any[]) => void, thisArg?: unknown): boolean;
  disconnect(slot: (...args: any[]) => void, thisArg?: unknown): boolean;
}

/** The shell's signals that may change what presence says. */
function shellSignals(app: JupyterFrontEnd): (ISignalLike | undefined)[] {
  const shell = app.shell as any;
  return [shell.currentChanged, shell.layoutModified, shell.activeChanged];
}

/** What this JupyterLab shows now. */
export function readPresence(app: JupyterFrontEnd): IPresence {
  const current = app.shell.currentWidget;
  const documents = mainDocuments(app).map(w => describeDocument(app, w));
  const active =
    current && (current as any).context
      ? describeDocument(app, current as any).path
      : null;
  return {
    documents,
    active,
    selection: selectionOf(app, current),
    focused: document.hasFocus(),
    visible: document.visibilityState === 'visible'
  };
}

/**
 * Follows the shell, the active editor's selection and the window's focus,
 * and sends presence through `send` (false: not sent, the socket is down)
 * while the server listens.
 */
export class PresenceReporter {
  constructor(
    private readonly _app: JupyterFrontEnd,
    private readonly _send: (message: object) => boolean
  ) {}

  start(): void {
    for (const signal of shellSignals(this._app)) {
      signal?.connect(this.update, this);
    }
    window.addEventListener('focus', this._schedule);
    window.addEventListener('blur', this._schedule);
    document.addEventListener('visibilitychange', this._schedule);
    this._poll = window.setInterval(() => this.flush(), POLL_MS);
    this.update();
  }

  stop(): void {
    for (const signal of shellSignals(this._app)) {
      signal?.disconnect(this.update, this);
    }
    this._hookedNotebook?.disconnect(this.update, this);
    this._hookedSelections?.disconnect(this._schedule, this);
    this._hookedNotebook = this._hookedSelections = undefined;
    window.removeEventListener('focus', this._schedule);
    window.removeEventListener('blur', this._schedule);
    document.removeEventListener('visibilitychange', this._schedule);
    window.clearInterval(this._poll);
    window.clearTimeout(this._timer);
  }

  /**
   * The server listens from now on (welcomed) or no longer (disconnected).
   * A new listener starts from nothing: it is told everything.
   */
  setListening(listening: boolean): void {
    this._listening = listening;
    if (listening) {
      this._sent = null;
      this.flush();
    }
  }

  /** The shell changed: follow the active editor's selection, tell the server soon. */
  update(): void {
    const current = this._app.shell.currentWidget;
    const found = activeEditor(current);
    const notebook = (current as any)?.content?.activeCellChanged as
      ISignalLike | undefined;
    const selections = (found?.editor as any)?.model?.selections?.changed as
      ISignalLike | undefined;
    if (notebook !== this._hookedNotebook) {
      this._hookedNotebook?.disconnect(this.update, this);
      notebook?.connect(this.update, this);
      this._hookedNotebook = notebook;
    }
    if (selections !== this._hookedSelections) {
      this._hookedSelections?.disconnect(this._schedule, this);
      selections?.connect(this._schedule, this);
      this._hookedSelections = selections;
    }
    this._schedule();
  }

  /** Send presence now if it changed since last sent. */
  flush(): void {
    if (!this._listening) {
      return;
    }
    let presence: IPresence;
    try {
      presence = readPresence(this._app);
    } catch (error) {
      console.warn('MCP Lab: reading presence failed', error);
      return;
    }
    if (samePresence(this._sent, presence)) {
      return;
    }
    if (this._send(presenceMessage(presence))) {
      this._sent = presence;
    }
  }

  /** Send presence soon (at most every THROTTLE_MS). */
  private _schedule = (): void => {
    if (this._timer === undefined) {
      this._timer = window.setTimeout(() => {
        this._timer = undefined;
        this.flush();
      }, THROTTLE_MS);
    }
  };

  private _listening = false;
  private _sent: IPresence | null = null;
  private _timer: number | undefined = undefined;
  private _poll: number | undefined = undefined;
  private _hookedNotebook: ISignalLike | undefined = undefined;
  private _hookedSelections: ISignalLike | undefined = undefined;
}
