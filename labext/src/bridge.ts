/**
 * The lab bridge: a websocket to the server through which this JupyterLab
 * reports presence (bridge_presence.ts) and carries out what agents ask for
 * (bridge_actions.ts). The protocol is described in the server's
 * `jupyter_mcp_lab/server/bridge/__init__.py`.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import { cancelRequest, runRequest } from './bridge_actions';
import { PresenceReporter } from './bridge_presence';
import {
  backoffDelay,
  BRIDGE_PATH,
  errorResponse,
  helloMessage,
  IBridgeRequest,
  okResponse,
  parseServerMessage
} from './bridge_protocol';

const CLIENT_ID_KEY = 'jupyter-mcp-lab:bridge-client-id';
/** A keep-alive the server counts as "last seen". */
const PING_MS = 30000;

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
    this.presence = new PresenceReporter(app, message => this.send(message));
  }

  start(): void {
    this.presence.start();
    this.pinger = window.setInterval(
      () => this.send({ type: 'ping' }),
      PING_MS
    );
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.presence.stop();
    window.clearInterval(this.pinger);
    window.clearTimeout(this.retry);
    this.socket?.close();
    this.socket = null;
  }

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
        this.presence.setListening(false);
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
        if (message.clientId !== this.clientId) {
          this.clientId = message.clientId;
          storeClientId(message.clientId);
        }
        this.presence.setListening(true);
        break;
      case 'request':
        await this.onRequest(message);
        break;
      case 'cancel':
        cancelRequest(message.id);
        break;
      case 'error':
        console.warn('MCP Lab: the lab bridge said:', message.message);
        break;
    }
  }

  private async onRequest(request: IBridgeRequest): Promise<void> {
    let reply: object;
    try {
      reply = okResponse(request.id, await runRequest(this.app, request));
    } catch (error) {
      reply = errorResponse(request.id, error);
    }
    // What the request changed (a tab opened, another one active) reaches the
    // server before the answer, so the agent's next call sees it.
    this.presence.update();
    this.presence.flush();
    this.send(reply);
  }

  private clientId: string;
  private presence: PresenceReporter;
  private socket: WebSocket | null = null;
  private stopped = false;
  private attempts = 0;
  private retry: number | undefined = undefined;
  private pinger: number | undefined = undefined;
}

/** Connect this JupyterLab to the server; returns a function that disconnects. */
export function startBridge(app: JupyterFrontEnd): () => void {
  const bridge = new Bridge(app);
  bridge.start();
  return () => bridge.stop();
}
