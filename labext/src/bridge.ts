/**
 * The lab bridge: a websocket to the server through which this JupyterLab
 * reports presence (open documents, the active one, the person's selection)
 * and carries out what agents ask for (see `bridge_actions.ts`). The protocol
 * is described in the server's `jupyter_mcp_lab/server/bridge/__init__.py`.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import * as actions from './bridge_actions';
import {
  backoffDelay,
  BRIDGE_PATH,
  BridgeError,
  errorResponse,
  helloMessage,
  IBridgeRequest,
  IPresence,
  okResponse,
  parseServerMessage,
  presenceMessage,
  samePresence
} from './bridge_protocol';

const CLIENT_ID_KEY = 'jupyter-mcp-lab:bridge-client-id';
/** Selection changes are sent at most this often (ms). */
const THROTTLE_MS = 250;
/** Presence is also checked this often, for changes no signal announced. */
const POLL_MS = 2000;
/** A keep-alive the server counts as "last seen". */
const PING_MS = 30000;

interface ISignalLike {
  connect(slot: (...args: any[]) => void, thisArg?: unknown): boolean;
  disconnect(slot: (...args: any[]) => void, thisArg?: unknown): boolean;
}

function newClientId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return (
    random ??
    `lab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  );
}

/** This browser tab's id: kept across reloads (session storage), so a reload gets its window back. */
function storedClientId(): string {
  try {
    const known = window.sessionStorage.getItem(CLIENT_ID_KEY);
    if (known) {
      return known;
    }
    const id = newClientId();
    window.sessionStorage.setItem(CLIENT_ID_KEY, id);
    return id;
  } catch {
    return newClientId(); // storage refused (privacy settings)
  }
}

function storeClientId(id: string): void {
  try {
    window.sessionStorage.setItem(CLIENT_ID_KEY, id);
  } catch {
    // not kept: a reload gets a new window
  }
}

/**
 * A socket to the bridge, as JupyterLab's own websockets connect: the server's
 * ws URL, the token appended where the settings say so (else the login cookie
 * authenticates).
 */
function openSocket(): WebSocket {
  const settings = ServerConnection.makeSettings();
  let url = URLExt.join(settings.wsUrl, BRIDGE_PATH);
  if (settings.appendToken && settings.token !== '') {
    url += `?token=${encodeURIComponent(settings.token)}`;
  }
  return new settings.WebSocket(url);
}

class Bridge {
  constructor(private readonly app: JupyterFrontEnd) {
    this.clientId = storedClientId();
  }

  start(): void {
    const shell = this.app.shell as any;
    for (const signal of [
      shell.currentChanged,
      shell.layoutModified,
      shell.activeChanged
    ] as (ISignalLike | undefined)[]) {
      signal?.connect(this.onShellChanged, this);
    }
    window.addEventListener('focus', this.schedule);
    window.addEventListener('blur', this.schedule);
    document.addEventListener('visibilitychange', this.schedule);
    this.poll = window.setInterval(() => this.flush(), POLL_MS);
    this.pinger = window.setInterval(
      () => this.send({ type: 'ping' }),
      PING_MS
    );
    this.onShellChanged();
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    const shell = this.app.shell as any;
    for (const signal of [
      shell.currentChanged,
      shell.layoutModified,
      shell.activeChanged
    ] as (ISignalLike | undefined)[]) {
      signal?.disconnect(this.onShellChanged, this);
    }
    this.unhookEditor();
    window.removeEventListener('focus', this.schedule);
    window.removeEventListener('blur', this.schedule);
    document.removeEventListener('visibilitychange', this.schedule);
    window.clearInterval(this.poll);
    window.clearInterval(this.pinger);
    window.clearTimeout(this.timer);
    window.clearTimeout(this.retry);
    this.socket?.close();
    this.socket = null;
  }

  // ------------------------------------------------------------------ socket

  private connect(): void {
    if (this.stopped) {
      return;
    }
    let socket: WebSocket;
    try {
      socket = openSocket();
    } catch (error) {
      console.warn('MCP Lab: the lab bridge could not connect', error);
      this.reconnectLater();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      const version = PageConfig.getOption('appVersion');
      this.send(helloMessage(this.clientId, navigator.userAgent, version));
    };
    socket.onmessage = event => {
      void this.onMessage(String(event.data));
    };
    socket.onclose = () => {
      if (this.socket === socket) {
        this.socket = null;
        this.welcomed = false;
        this.reconnectLater();
      }
    };
  }

  private reconnectLater(): void {
    if (this.stopped) {
      return;
    }
    const delay = backoffDelay(this.attempts++);
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(() => this.connect(), delay);
  }

  private send(message: object): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  private async onMessage(text: string): Promise<void> {
    const message = parseServerMessage(text);
    if (!message) {
      return;
    }
    switch (message.type) {
      case 'welcome':
        this.attempts = 0;
        this.welcomed = true;
        if (message.clientId !== this.clientId) {
          this.clientId = message.clientId;
          storeClientId(message.clientId);
        }
        this.sent = null; // the server starts from nothing: tell it everything
        this.flush();
        break;
      case 'request':
        await this.onRequest(message);
        break;
      case 'cancel':
        actions.cancel(message.id);
        break;
      case 'error':
        console.warn('MCP Lab: the lab bridge said:', message.message);
        break;
    }
  }

  private async onRequest(request: IBridgeRequest): Promise<void> {
    const { app } = this;
    const { id, method, params } = request;
    let reply: object;
    try {
      let result: unknown;
      switch (method) {
        case 'openFile':
          result = await actions.openFile(app, params);
          break;
        case 'activate':
          result = await actions.activate(app, params);
          break;
        case 'listCommands':
          result = actions.listCommands(app, params);
          break;
        case 'runCommand':
          result = await actions.runCommand(app, params);
          break;
        case 'toggleBreakpoint':
          result = await actions.toggleBreakpoint(app, params);
          break;
        case 'openTerminal':
          result = await actions.openTerminal(app, params);
          break;
        case 'confirm':
          result = await actions.confirm(app, id, params);
          break;
        default:
          throw new BridgeError('UNKNOWN_METHOD', `unknown method ${method}`);
      }
      reply = okResponse(id, result);
    } catch (error) {
      reply = errorResponse(id, error);
    }
    // What the request changed (a tab opened, another one active) reaches the
    // server before the answer, so the agent's next call sees it.
    this.onShellChanged();
    this.flush();
    this.send(reply);
  }

  // ------------------------------------------------------------------ presence

  /** The shell changed: follow the active editor's selection, tell the server soon. */
  private onShellChanged(): void {
    const current = this.app.shell.currentWidget;
    const found = actions.editorOf(current);
    const notebook = (current as any)?.content?.activeCellChanged as
      ISignalLike | undefined;
    const selections = (found?.editor as any)?.model?.selections?.changed as
      ISignalLike | undefined;
    if (notebook !== this.hookedNotebook) {
      this.hookedNotebook?.disconnect(this.onShellChanged, this);
      notebook?.connect(this.onShellChanged, this);
      this.hookedNotebook = notebook;
    }
    if (selections !== this.hookedSelections) {
      this.hookedSelections?.disconnect(this.schedule, this);
      selections?.connect(this.schedule, this);
      this.hookedSelections = selections;
    }
    this.schedule();
  }

  private unhookEditor(): void {
    this.hookedNotebook?.disconnect(this.onShellChanged, this);
    this.hookedSelections?.disconnect(this.schedule, this);
    this.hookedNotebook = this.hookedSelections = undefined;
  }

  /** Send presence soon (at most every THROTTLE_MS). */
  private schedule = (): void => {
    if (this.timer === undefined) {
      this.timer = window.setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, THROTTLE_MS);
    }
  };

  private presence(): IPresence {
    const { app } = this;
    const current = app.shell.currentWidget;
    const documents = actions
      .documentWidgets(app)
      .map(w => actions.describeDocument(app, w));
    const active =
      current && (current as any).context
        ? actions.describeDocument(app, current as any).path
        : null;
    return {
      documents,
      active,
      selection: actions.selectionOf(app, current),
      focused: document.hasFocus(),
      visible: document.visibilityState === 'visible'
    };
  }

  /** Send presence now if it changed since last sent. */
  private flush(): void {
    if (!this.welcomed) {
      return;
    }
    let presence: IPresence;
    try {
      presence = this.presence();
    } catch (error) {
      console.warn('MCP Lab: reading presence failed', error);
      return;
    }
    if (samePresence(this.sent, presence)) {
      return;
    }
    if (this.send(presenceMessage(presence))) {
      this.sent = presence;
    }
  }

  private clientId: string;
  private socket: WebSocket | null = null;
  private welcomed = false;
  private stopped = false;
  private attempts = 0;
  private sent: IPresence | null = null;
  private timer: number | undefined = undefined;
  private retry: number | undefined = undefined;
  private poll: number | undefined = undefined;
  private pinger: number | undefined = undefined;
  private hookedNotebook: ISignalLike | undefined = undefined;
  private hookedSelections: ISignalLike | undefined = undefined;
}

/** Connect this JupyterLab to the server; returns a function that disconnects. */
export function startBridge(app: JupyterFrontEnd): () => void {
  const bridge = new Bridge(app);
  bridge.start();
  return () => bridge.stop();
}
