/**
 * The status model: the shape of `GET {baseUrl}mcp-lab/api/status` and the
 * pure helpers that turn it into what the panel's connection card shows. No
 * JupyterLab imports here, so it stays unit-testable in plain Node.
 */
import type { IAgent, IClientConfig, IEndpoint, IStatus } from './api_types';
import { relativeTime } from './time';

// The status route's answer: endpoints with their ready-to-paste client
// configs, and the MCP sessions with tool calls in the last 30 minutes.
export type { IAgent, IClientConfig, IEndpoint, IStatus };

/** One MCP client as the connection card lists it (its sessions together). */
export interface IAgentRow {
  client: string;
  /** "3 calls", or "5 calls in 2 sessions". */
  calls: string;
  lastActivity: string;
  /** The full detail, for the tooltip. */
  title: string;
}

/** One label/value line of the panel. */
export interface IStatusRow {
  label: string;
  value: string;
  /** Set when the value is a URL that may be opened and copied. */
  href?: string;
  /** An endpoint's client configs, each with a copy button. */
  configs?: IClientConfig[];
  /** The connected agents, one line each. */
  agents?: IAgentRow[];
}

/** Shown when the status route is missing (404) or cannot be reached. */
export const NOT_ENABLED_MESSAGE =
  'The jupyter-mcp-lab server extension is not installed or not enabled. ' +
  'Run `jupyter server extension enable jupyter_mcp_lab` and restart.';

/** Return the URL only when it is a plain http(s) URL that is safe to link. */
export function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/**
 * The agents as the card lists them: one line per MCP client name, most recent
 * first. The server counts per MCP session; a client that opens a session per
 * call (a script, a kernel helper) would otherwise fill the card.
 */
export function agentRows(agents: IAgent[], now: number): IAgentRow[] {
  const byClient = new Map<string, IAgent[]>();
  for (const agent of agents) {
    const client = agent.client || 'unnamed client';
    byClient.set(client, [...(byClient.get(client) ?? []), agent]);
  }
  const rows = [...byClient.entries()].map(([client, sessions]) => {
    const calls = sessions.reduce((n, a) => n + a.calls, 0);
    const last = Math.max(...sessions.map(a => a.lastActivity));
    const users = [...new Set(sessions.map(a => a.user))].join(', ');
    const inSessions =
      sessions.length > 1 ? ` in ${sessions.length} sessions` : '';
    return {
      last,
      row: {
        client,
        calls: `${calls} call${calls === 1 ? '' : 's'}${inSessions}`,
        lastActivity: relativeTime(last, now),
        title:
          `${client}, user ${users}: MCP session` +
          `${sessions.length > 1 ? 's' : ''} ` +
          sessions.map(a => a.session).join(', ')
      }
    };
  });
  return rows.sort((a, b) => b.last - a.last).map(r => r.row);
}

/** Turn a status answer into the rows the panel displays, in order. */
export function statusRows(
  status: IStatus,
  now: number = Date.now() / 1000
): IStatusRow[] {
  const rows: IStatusRow[] = [
    { label: 'Server extension', value: 'running' },
    { label: 'Version', value: status.version || 'unknown' },
    { label: 'Approval policy', value: status.approval || 'unknown' },
    { label: 'Read-only', value: status.read_only ? 'yes' : 'no' }
  ];
  const endpoints = status.endpoints ?? [];
  if (endpoints.length === 0) {
    rows.push({ label: 'MCP endpoint', value: 'none configured' });
  }
  for (const endpoint of endpoints) {
    const url = endpoint.url || endpoint.path;
    const row: IStatusRow = {
      label: `MCP endpoint (${endpoint.profile})`,
      value: url,
      href: safeHref(url)
    };
    if (endpoint.configs?.length) {
      row.configs = endpoint.configs;
    }
    rows.push(row);
  }
  if (status.tokenPlaceholder) {
    rows.push({
      label: 'Token',
      value:
        `The configs say ${status.tokenPlaceholder}: replace it with your ` +
        'Jupyter (or JupyterHub) API token.'
    });
  }
  if (status.agents) {
    const agents = agentRows(status.agents, now);
    rows.push({
      label: 'Connected agents',
      value:
        agents.length === 0
          ? 'none in the last 30 minutes'
          : `${agents.length} in the last 30 minutes`,
      agents
    });
  }
  return rows;
}

/** "running · suggest · 2 agents": the card's one line (`glanceTitle` says it in full). */
export function glance(status: IStatus): string {
  const agents = new Set((status.agents ?? []).map(a => a.client)).size;
  const parts = [
    status.running === false ? 'stopped' : 'running',
    status.approval || 'unknown'
  ];
  if (status.read_only) {
    parts.push('read-only');
  }
  parts.push(agents === 1 ? '1 agent' : `${agents} agents`);
  return parts.join(' · ');
}

/** The card's line in words, for its tooltip and screen readers. */
export function glanceTitle(status: IStatus): string {
  const agents = new Set((status.agents ?? []).map(a => a.client)).size;
  return (
    `The MCP server is ${status.running === false ? 'stopped' : 'running'}; ` +
    `approval policy: ${status.approval || 'unknown'}` +
    `${status.read_only ? ' (read-only)' : ''}; ` +
    `${agents} agent${agents === 1 ? '' : 's'} in the last 30 minutes.`
  );
}

/** A client configs are offered for: its id and its name as people know it. */
export interface IClientChoice {
  client: IClientConfig['client'];
  label: string;
}

/** The clients the endpoints have configs for, in the order the server lists them. */
export function clientChoices(
  endpoints: readonly IEndpoint[]
): IClientChoice[] {
  const seen = new Map<string, IClientChoice>();
  for (const endpoint of endpoints) {
    for (const config of endpoint.configs ?? []) {
      if (!seen.has(config.client)) {
        seen.set(config.client, { client: config.client, label: config.label });
      }
    }
  }
  return [...seen.values()];
}

/** An endpoint's config for `client`, if it has one. */
export function configFor(
  endpoint: IEndpoint,
  client: string
): IClientConfig | undefined {
  return (endpoint.configs ?? []).find(c => c.client === client);
}

/**
 * The message for a failed status request: the friendly "not enabled" text,
 * followed by what went wrong when it was not a plain 404.
 */
export function failureMessage(httpStatus?: number, detail?: string): string {
  if (httpStatus === 404 || !detail) {
    return NOT_ENABLED_MESSAGE;
  }
  const code = httpStatus ? `HTTP ${httpStatus}: ` : '';
  return `${NOT_ENABLED_MESSAGE} (${code}${detail})`;
}
