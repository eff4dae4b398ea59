import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Clipboard } from '@jupyterlab/apputils';
import { ServerConnection } from '@jupyterlab/services';
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { ActivitySection } from './activity';
import { CheckpointsSection } from './checkpoints';
import { EVENT_TYPES, ServerEvents } from './events';
import { GrantsSection } from './grants';
import { mcpLabIcon } from './icon';
import { OutlineSection } from './outline';
import { ReviewSection } from './review';
import { apiURL, requestAPI } from './request';
import { IPanelContext, IPanelSection } from './section';
import { failureMessage, IStatus, IStatusRow, statusRows } from './status';
import { SuggestionsModel } from './suggestions';

/** How often to poll the suggestions when the event stream is unavailable. */
export const POLL_INTERVAL_MS = 3000;

/** The DOM id of the side panel. */
export const PANEL_ID = 'jupyter-mcp-lab-panel';

/**
 * The "MCP Lab" side panel: asks the server for its status and shows the
 * MCP endpoint URLs, the server version and the approval policy, then the
 * pending suggestions with their accept/reject actions, and the sections
 * below them (outline, activity, checkpoints, trust grants).
 */
export class StatusPanel extends Widget {
  constructor(app: JupyterFrontEnd | null = null) {
    super();
    this.id = PANEL_ID;
    this.addClass('jp-McpLab-panel');
    this.title.icon = mcpLabIcon;
    this.title.caption = 'MCP Lab';
    this.title.label = 'MCP Lab';

    const header = document.createElement('div');
    header.className = 'jp-McpLab-header';
    const heading = document.createElement('h2');
    heading.textContent = 'MCP Lab';
    this._refreshButton = document.createElement('button');
    this._refreshButton.className = 'jp-Button jp-mod-styled jp-mod-accept';
    this._refreshButton.textContent = 'Refresh';
    this._refreshButton.addEventListener('click', () => void this.refresh());
    header.append(heading, this._refreshButton);

    this._body = document.createElement('div');
    this._body.className = 'jp-McpLab-body';

    this.suggestions = new SuggestionsModel(requestAPI);
    this._review = new ReviewSection(this.suggestions);
    this.suggestions.onChange(() => this._updateBadge());
    const context: IPanelContext = {
      app,
      request: requestAPI,
      events: this.events
    };
    this._sections = [
      new OutlineSection(context),
      new ActivitySection(context),
      new CheckpointsSection(context),
      new GrantsSection(context)
    ];
    this.node.append(
      header,
      this._body,
      this._review.node,
      ...this._sections.map(section => section.node)
    );

    // Keep the count badge current even while the panel is closed.
    void this.suggestions.refresh();
    this._watchEvents();
    // Connected agents on the card follow the agents' calls (a burst makes one fetch).
    this.events.subscribe(['activity'], () => this._scheduleStatus());
  }

  /** The pending suggestions shown by the panel. */
  readonly suggestions: SuggestionsModel;

  /** Every event of the server's stream, for the sections and editor helpers. */
  readonly events = new ServerEvents();

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._events?.close();
    this._events = null;
    for (const section of this._sections) {
      section.dispose();
    }
    if (this._poll !== null) {
      window.clearInterval(this._poll);
      this._poll = null;
    }
    if (this._refreshTimer !== null) {
      window.clearTimeout(this._refreshTimer);
    }
    if (this._statusTimer !== null) {
      window.clearTimeout(this._statusTimer);
    }
    super.dispose();
  }

  /** Fetch the status again and redraw. */
  async refresh(): Promise<void> {
    this._loaded = true;
    this._refreshButton.disabled = true;
    this._showMessage('Loading…', 'jp-McpLab-loading');
    void this.suggestions.refresh();
    this._refreshSections();
    try {
      await this._loadStatus();
    } finally {
      this._refreshButton.disabled = false;
    }
  }

  /** Fetch the status and redraw the connection card (no "Loading…" flash). */
  private async _loadStatus(): Promise<void> {
    try {
      const status = await requestAPI<IStatus>('status');
      this._showRows(statusRows(status));
    } catch (error) {
      this._showMessage(describeError(error), 'jp-McpLab-error');
    }
  }

  private _scheduleStatus(): void {
    if (!this._loaded || !this.isVisible || this._statusTimer !== null) {
      return;
    }
    this._statusTimer = window.setTimeout(() => {
      this._statusTimer = null;
      void this._loadStatus();
    }, 1000);
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    if (!this._loaded) {
      void this.refresh();
    } else {
      void this.suggestions.refresh();
      this._refreshSections();
    }
  }

  private _refreshSections(): void {
    for (const section of this._sections) {
      section.refresh().catch(error => {
        console.error('MCP Lab: a panel section failed to refresh', error);
      });
    }
  }

  /**
   * Refresh the suggestions on the server's event stream (`GET events`,
   * Server-Sent Events, authenticated by the login cookie). When the stream
   * cannot be opened, poll every POLL_INTERVAL_MS instead.
   */
  private _watchEvents(): void {
    if (typeof EventSource === 'undefined') {
      this._startPolling();
      return;
    }
    const source = new EventSource(apiURL('events'), { withCredentials: true });
    // The server first says where its replay of recent events ends.
    let replayEnd = 0;
    source.addEventListener('stream', message => {
      replayEnd = parseEvent(message as MessageEvent)?.latest ?? 0;
    });
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, message => {
        const id = Number((message as MessageEvent).lastEventId) || 0;
        const data = parseEvent(message as MessageEvent);
        this.events.emit({ type, data, id, replayed: id <= replayEnd });
      });
    }
    source.addEventListener('suggestion', () => this._scheduleRefresh());
    source.addEventListener('open', () => {
      // Reconnected after a drop: catch up on what was missed.
      this._scheduleRefresh();
      this.events.reconnected();
    });
    source.addEventListener('error', () => {
      // A closed source (an HTTP error, e.g. 403) does not reconnect by itself.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        this._events = null;
        this._startPolling();
      }
    });
    this._events = source;
  }

  private _startPolling(): void {
    if (this._poll === null && !this.isDisposed) {
      this._poll = window.setInterval(() => {
        void this.suggestions.refresh();
        this.events.reconnected();
      }, POLL_INTERVAL_MS);
    }
  }

  /** Coalesce a burst of events (e.g. the replay on connect) into one fetch. */
  private _scheduleRefresh(): void {
    if (this._refreshTimer !== null) {
      return;
    }
    this._refreshTimer = window.setTimeout(() => {
      this._refreshTimer = null;
      void this.suggestions.refresh();
    }, 150);
  }

  /** Show the pending count on the panel's tab. */
  private _updateBadge(): void {
    const count = this.suggestions.pendingCount;
    this.title.caption =
      count > 0
        ? `MCP Lab: ${count} pending suggestion${count === 1 ? '' : 's'}`
        : 'MCP Lab';
    this.title.dataset =
      count > 0
        ? { 'mcp-lab-pending': count > 99 ? '99+' : String(count) }
        : {};
    this.title.label = count > 0 ? `MCP Lab (${count})` : 'MCP Lab';
    this.title.className = count > 0 ? 'jp-McpLab-hasPending' : '';
  }

  private _showMessage(text: string, className: string): void {
    const message = document.createElement('p');
    message.className = className;
    message.textContent = text;
    this._body.replaceChildren(message);
  }

  private _showRows(rows: IStatusRow[]): void {
    const list = document.createElement('dl');
    list.className = 'jp-McpLab-rows';
    for (const row of rows) {
      const label = document.createElement('dt');
      label.textContent = row.label;
      const value = document.createElement('dd');
      value.append(renderValue(row));
      list.append(label, value);
    }
    this._body.replaceChildren(list);
  }

  private _body: HTMLDivElement;
  private _refreshButton: HTMLButtonElement;
  private _loaded = false;
  private _review: ReviewSection;
  private _sections: IPanelSection[];
  private _events: EventSource | null = null;
  private _poll: number | null = null;
  private _refreshTimer: number | null = null;
  private _statusTimer: number | null = null;
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
  const wrapper = document.createElement('span');
  wrapper.className = 'jp-McpLab-url';
  const link = document.createElement('a');
  link.href = row.href;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.textContent = row.value;
  const copy = copyButton('Copy', 'Copy the URL to the clipboard', row.value);
  wrapper.append(link, copy);
  if (!row.configs?.length) {
    return wrapper;
  }
  const value = document.createDocumentFragment();
  const configs = document.createElement('div');
  configs.className = 'jp-McpLab-configs';
  const caption = document.createElement('span');
  caption.className = 'jp-McpLab-configsCaption';
  caption.textContent = 'Copy config:';
  configs.append(caption);
  for (const config of row.configs) {
    const button = copyButton(
      config.label,
      `Copy the ${config.label} configuration of this endpoint (${config.where})`,
      config.text
    );
    button.classList.add('jp-McpLab-copyConfig');
    button.dataset.client = config.client;
    configs.append(button);
  }
  value.append(wrapper, configs);
  return value;
}

/** A minimal button copying `text`; it says "Copied" for a moment. */
function copyButton(label: string, title: string, text: string): HTMLElement {
  const button = document.createElement('button');
  button.className = 'jp-Button jp-mod-styled jp-mod-minimal';
  button.textContent = label;
  button.title = title;
  let timer: number | null = null;
  button.addEventListener('click', () => {
    Clipboard.copyToSystem(text);
    button.textContent = 'Copied';
    button.classList.add('jp-mod-copied');
    if (timer !== null) {
      window.clearTimeout(timer);
    }
    timer = window.setTimeout(() => {
      timer = null;
      button.textContent = label;
      button.classList.remove('jp-mod-copied');
    }, 1500);
  });
  return button;
}

/** The connected agents: client name, calls and last activity, one line each. */
function renderAgents(row: IStatusRow): Node {
  const agents = row.agents ?? [];
  if (agents.length === 0) {
    return document.createTextNode(row.value);
  }
  const list = document.createElement('ul');
  list.className = 'jp-McpLab-agents';
  for (const agent of agents) {
    const item = document.createElement('li');
    item.className = 'jp-McpLab-agent';
    item.dataset.client = agent.client;
    item.title = agent.title;
    const name = document.createElement('span');
    name.className = 'jp-McpLab-agentClient';
    name.textContent = agent.client;
    const calls = document.createElement('span');
    calls.className = 'jp-McpLab-agentCalls';
    calls.textContent = agent.calls;
    const last = document.createElement('span');
    last.className = 'jp-McpLab-agentLast';
    last.textContent = agent.lastActivity;
    item.append(name, calls, last);
    list.append(item);
  }
  return list;
}

/** The JSON data of a server event, or null when it is not JSON. */
function parseEvent(message: MessageEvent): any {
  try {
    return JSON.parse(message.data);
  } catch {
    return null;
  }
}

/** The friendly text for a failed status request. */
function describeError(error: unknown): string {
  if (error instanceof ServerConnection.ResponseError) {
    return failureMessage(error.response.status, error.message);
  }
  return failureMessage(undefined, (error as Error)?.message);
}
