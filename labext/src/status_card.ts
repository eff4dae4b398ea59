/**
 * The panel's connection card: `GET status` as label/value rows (status.ts
 * makes them): the MCP endpoints with their link, a copy button and the
 * client configs to copy, and the agents connected lately.
 */
import { Clipboard } from '@jupyterlab/apputils';
import { ServerConnection } from '@jupyterlab/services';

import { button, el } from './dom';
import type { Request } from './request';
import { failureMessage, IStatus, IStatusRow, statusRows } from './status';

export class StatusCard {
  readonly node = el('div', 'jp-McpLab-body');

  constructor(request: Request) {
    this._request = request;
  }

  showLoading(): void {
    this.node.replaceChildren(el('p', 'jp-McpLab-loading', 'Loading…'));
  }

  /** Fetch the status and redraw (no "Loading…" flash: see `showLoading`). */
  async load(): Promise<void> {
    try {
      const status = await this._request<IStatus>('status');
      this.node.replaceChildren(renderRows(statusRows(status)));
    } catch (error) {
      this.node.replaceChildren(
        el('p', 'jp-McpLab-error', describeError(error))
      );
    }
  }

  private _request: Request;
}

function renderRows(rows: IStatusRow[]): HTMLElement {
  const list = el('dl', 'jp-McpLab-rows');
  for (const row of rows) {
    const value = el('dd');
    value.append(renderValue(row));
    list.append(el('dt', undefined, row.label), value);
  }
  return list;
}

/**
 * A URL row gets a link, a copy button and its client configs; the agents row
 * lists them; other rows are plain text.
 */
function renderValue(row: IStatusRow): Node {
  if (row.agents) {
    return renderAgents(row);
  }
  if (!row.href) {
    return document.createTextNode(row.value);
  }
  const wrapper = el('span', 'jp-McpLab-url');
  const link = el('a', undefined, row.value);
  link.href = row.href;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  const copy = copyButton('Copy', 'Copy the URL to the clipboard', row.value);
  wrapper.append(link, copy);
  if (!row.configs?.length) {
    return wrapper;
  }
  const value = document.createDocumentFragment();
  const configs = el('div', 'jp-McpLab-configs');
  configs.append(el('span', 'jp-McpLab-configsCaption', 'Copy config:'));
  for (const config of row.configs) {
    const copyConfig = copyButton(
      config.label,
      `Copy the ${config.label} configuration of this endpoint (${config.where})`,
      config.text
    );
    copyConfig.classList.add('jp-McpLab-copyConfig');
    copyConfig.dataset.client = config.client;
    configs.append(copyConfig);
  }
  value.append(wrapper, configs);
  return value;
}

/** A minimal button copying `text`; it says "Copied" for a moment. */
function copyButton(
  label: string,
  title: string,
  text: string
): HTMLButtonElement {
  let timer: number | null = null;
  const copy = button(label, 'jp-mod-minimal', title, () => {
    Clipboard.copyToSystem(text);
    copy.textContent = 'Copied';
    copy.classList.add('jp-mod-copied');
    if (timer !== null) {
      window.clearTimeout(timer);
    }
    timer = window.setTimeout(() => {
      timer = null;
      copy.textContent = label;
      copy.classList.remove('jp-mod-copied');
    }, 1500);
  });
  return copy;
}

/** The connected agents: client name, calls and last activity, one line each. */
function renderAgents(row: IStatusRow): Node {
  const agents = row.agents ?? [];
  if (agents.length === 0) {
    return document.createTextNode(row.value);
  }
  const list = el('ul', 'jp-McpLab-agents');
  for (const agent of agents) {
    const item = el('li', 'jp-McpLab-agent');
    item.dataset.client = agent.client;
    item.title = agent.title;
    item.append(
      el('span', 'jp-McpLab-agentClient', agent.client),
      el('span', 'jp-McpLab-agentCalls', agent.calls),
      el('span', 'jp-McpLab-agentLast', agent.lastActivity)
    );
    list.append(item);
  }
  return list;
}

/** The friendly text for a failed status request. */
function describeError(error: unknown): string {
  if (error instanceof ServerConnection.ResponseError) {
    return failureMessage(error.response.status, error.message);
  }
  return failureMessage(undefined, (error as Error)?.message);
}
