/**
 * The lab bridge's pure parts: the messages (see the server's
 * `jupyter_mcp_lab/server/bridge/__init__.py` for the protocol), offsets as the
 * server counts them (code points, where CodeMirror counts UTF-16 units), the
 * reconnect backoff, command filtering and the approval dialog's text.
 */

/** The route of the bridge's websocket, below the server's base (ws) URL. */
export const BRIDGE_PATH = 'mcp-lab/api/bridge';

/** One document open in this JupyterLab. */
export interface IOpenDocument {
  /** Root-relative path (JupyterLab's local path). */
  path: string;
  /** JupyterLab's file type name (markdown, notebook, python, ...). */
  kind: string;
  dirty: boolean;
}

/** The person's selection in the active editor, in code points. */
export interface IPersonSelection {
  path: string;
  anchor: number;
  head: number;
  /** In a notebook: the cell the offsets are in. */
  cell?: number;
}

/** What this JupyterLab shows: sent whole whenever it changes. */
export interface IPresence {
  documents: IOpenDocument[];
  active: string | null;
  selection: IPersonSelection | null;
  focused: boolean;
  visible: boolean;
}

/** A request from the server. */
export interface IBridgeRequest {
  type: 'request';
  id: string;
  method: string;
  params: { [key: string]: any };
}

/** Any message the server sends. */
export type ServerMessage =
  | { type: 'welcome'; clientId: string; window: string; serverVersion: string }
  | IBridgeRequest
  | { type: 'cancel'; id: string }
  | { type: 'error'; message: string };

/** The codes a failed request answers with. */
export type BridgeErrorCode =
  | 'NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'UNAVAILABLE'
  | 'FAILED'
  | 'UNKNOWN_METHOD';

/** A failure to tell the agent about (the message is shown to it as is). */
export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string
  ) {
    super(message);
  }
}

/** A request's string parameter `name`, which it must have. */
export function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value) {
    throw new BridgeError('INVALID_ARGUMENT', `${name} is required`);
  }
  return value;
}

export function helloMessage(
  clientId: string,
  userAgent: string,
  version: string
): object {
  return { type: 'hello', clientId, userAgent, version };
}

export function presenceMessage(presence: IPresence): object {
  return { type: 'presence', ...presence };
}

export function okResponse(id: string, result: unknown): object {
  return { type: 'response', id, ok: true, result: plainData(result) };
}

/** The answer to a request that failed: a BridgeError's code, else FAILED. */
export function errorResponse(id: string, error: unknown): object {
  const code = error instanceof BridgeError ? error.code : 'FAILED';
  let message: string;
  if (error instanceof Error) {
    message = error.message;
  } else if (typeof error === 'string') {
    message = error;
  } else {
    message = 'the request failed in JupyterLab';
  }
  return {
    type: 'response',
    id,
    ok: false,
    error: { code, message: message || 'the request failed in JupyterLab' }
  };
}

/** A server message, or null when the text is not one. */
export function parseServerMessage(text: string): ServerMessage | null {
  let data: any;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || typeof data.type !== 'string') {
    return null;
  }
  switch (data.type) {
    case 'welcome':
      return typeof data.clientId === 'string' &&
        typeof data.window === 'string'
        ? data
        : null;
    case 'request':
      return typeof data.id === 'string' && typeof data.method === 'string'
        ? { ...data, params: isPlainObject(data.params) ? data.params : {} }
        : null;
    case 'cancel':
      return typeof data.id === 'string' ? data : null;
    case 'error':
      return { type: 'error', message: String(data.message ?? '') };
    default:
      return null;
  }
}

/** Options of the reconnect backoff. */
export interface IBackoff {
  /** The first delay, in ms. */
  base: number;
  /** The longest delay, in ms. */
  max: number;
  /** Spread: each delay is off by up to this fraction either way. */
  jitter: number;
}

export const DEFAULT_BACKOFF: IBackoff = {
  base: 1000,
  max: 30000,
  jitter: 0.2
};

/**
 * How long to wait before reconnect attempt `attempt` (0 first): doubling from
 * `base` up to `max`, spread by `jitter` so many tabs do not come back at once.
 */
export function backoffDelay(
  attempt: number,
  options: IBackoff = DEFAULT_BACKOFF,
  random: () => number = Math.random
): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const delay = Math.min(options.max, options.base * 2 ** exponent);
  const spread = 1 - options.jitter + 2 * options.jitter * random();
  return Math.round(delay * spread);
}

/** A JupyterLab command as agents see it. */
export interface ICommandInfo {
  id: string;
  label: string;
  caption: string;
}

/** Commands whose id or label contains `query` (any case), sorted by id. */
export function filterCommands(
  commands: ICommandInfo[],
  query: string
): ICommandInfo[] {
  const q = query.trim().toLowerCase();
  return commands
    .filter(
      c =>
        !q ||
        c.id.toLowerCase().includes(q) ||
        c.label.toLowerCase().includes(q)
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const MAX_RESULT = 2000;

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  if (!value || typeof value !== 'object') {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A command's return value as JSON the server can pass on: plain data up to
 * 2000 characters; anything else (a widget, a huge object) is null.
 */
export function plainData(value: unknown): unknown {
  if (value === undefined || value === null) {
    return null;
  }
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  ) {
    return typeof value === 'string' ? value.slice(0, MAX_RESULT) : value;
  }
  if (!Array.isArray(value) && !isPlainObject(value)) {
    return null;
  }
  try {
    const text = JSON.stringify(value);
    return text !== undefined && text.length <= MAX_RESULT
      ? JSON.parse(text)
      : null;
  } catch {
    return null; // cycles, BigInt, ...
  }
}

/** The question the server asks the person before an agent's command runs. */
export interface IConfirmParams {
  agent?: string;
  user?: string;
  action?: string;
  command?: string;
  args?: { [key: string]: unknown };
  /** execute, kernel: the notebook. */
  path?: string;
  timeoutSeconds?: number;
}

/** The approval dialog's text: what would run, who asks, what no answer means. */
export interface IConfirmText {
  title: string;
  intro: string;
  /** Shown as is (monospace): the command, exactly. */
  code: string;
  detail: string;
}

export function confirmText(
  params: IConfirmParams,
  label: string = ''
): IConfirmText {
  const agent = params.agent || 'An agent';
  const wait =
    typeof params.timeoutSeconds === 'number' && params.timeoutSeconds > 0
      ? ` No answer within ${Math.round(params.timeoutSeconds)} s counts as Deny.`
      : '';
  const where = params.path ? ` of “${params.path}”` : '';
  if (params.action === 'execute') {
    return {
      title: 'Allow running code?',
      intro: `The agent “${agent}” wants to run this code in the kernel${where}:`,
      code: params.command ?? '',
      detail: `It runs with your permissions in that kernel.${wait}`
    };
  }
  if (params.action === 'kernel') {
    const what = params.command === 'restart' ? 'restart' : 'interrupt';
    return {
      title: `Allow kernel ${what}?`,
      intro: `The agent “${agent}” wants to ${what} the kernel${where}:`,
      code: `${what} kernel`,
      detail:
        (what === 'restart'
          ? 'Its variables are lost.'
          : 'What it runs now stops.') + wait
    };
  }
  if (params.action === 'terminal') {
    return {
      title: 'Allow terminal command?',
      intro: `The agent “${agent}” wants to open a terminal and run:`,
      code: params.command ?? '',
      detail: `It runs with your permissions on the Jupyter server.${wait}`
    };
  }
  const args =
    params.args && Object.keys(params.args).length
      ? ` with arguments ${JSON.stringify(params.args)}`
      : '';
  const named = label ? ` (“${label}”)` : '';
  return {
    title: 'Allow JupyterLab command?',
    intro: `The agent “${agent}” wants to run the JupyterLab command${named}:`,
    code: `${params.command ?? ''}${args}`,
    detail: `It can do whatever that command does in JupyterLab.${wait}`
  };
}

/** Whether two presences say the same (only changes are sent). */
export function samePresence(a: IPresence | null, b: IPresence): boolean {
  return a !== null && JSON.stringify(a) === JSON.stringify(b);
}
