/**
 * The panel's connection card, compact: one line says whether the server
 * runs, its approval policy and how many agents work, and "Connect an
 * agent…" unfolds the rest — the MCP endpoints (each URL on one line, cut
 * with an ellipsis, with Copy and the chosen client's config), agent keys,
 * the server's facts and the agents connected lately. The panel folds it
 * when suggestions arrive, so they come first.
 *
 * Agent keys: a client config carries a key, never the Jupyter token. "Issue
 * a key for <client>" asks the server for one (`POST keys`) and shows the
 * configs carrying it, once; the server keeps only its hash.
 */
import { Clipboard } from '@jupyterlab/apputils';
import { ServerConnection } from '@jupyterlab/services';
import { checkIcon, copyIcon } from '@jupyterlab/ui-components';

import type { IIssuedKey } from './api_types';
import { button, el } from './dom';
import type { Request } from './request';
import {
  agentRows,
  clientChoices,
  configFor,
  failureMessage,
  glance,
  glanceTitle,
  IEndpoint,
  IStatus,
  safeHref
} from './status';

/** Where the chosen client is remembered (per browser). */
const CLIENT_KEY = 'jupyter-mcp-lab:client';

export class StatusCard {
  readonly node = el('section', 'jp-McpLab-connection');

  constructor(request: Request) {
    this._request = request;
    const line = el('div', 'jp-McpLab-connectionLine');
    this._dot.setAttribute('aria-hidden', 'true');
    this._toggle = el(
      'button',
      'jp-McpLab-link jp-McpLab-connectToggle',
      'Connect an agent…'
    );
    this._toggle.type = 'button';
    this._toggle.title = 'The MCP endpoints, client configs and agent keys';
    this._toggle.addEventListener('click', () =>
      this.setExpanded(!this.expanded)
    );
    this._toggle.setAttribute('aria-expanded', 'false');
    this._toggle.setAttribute('aria-controls', 'jp-McpLab-connectionDetails');
    line.append(this._dot, this._glance, this._toggle);
    this._details.id = 'jp-McpLab-connectionDetails';
    this._details.hidden = true;
    this.node.setAttribute('aria-label', 'Connection');
    this.node.append(line, this._details);
  }

  /** Whether the details are shown. */
  get expanded(): boolean {
    return !this._details.hidden;
  }

  setExpanded(expanded: boolean): void {
    this._details.hidden = !expanded;
    this._toggle.setAttribute('aria-expanded', String(expanded));
    this.node.classList.toggle('jp-mod-expanded', expanded);
  }

  showLoading(): void {
    if (this._status === null) {
      this._glance.textContent = 'Loading…';
    }
  }

  /** Fetch the status and redraw (the details keep their open state). */
  async load(): Promise<void> {
    try {
      this._status = await this._request<IStatus>('status');
      this._error = null;
    } catch (error) {
      this._status = null;
      this._error = describeError(error);
    }
    this.render();
  }

  render(): void {
    const status = this._status;
    this.node.classList.toggle('jp-mod-error', status === null);
    if (status === null) {
      this._glance.textContent = 'not available';
      this._dot.className = 'jp-McpLab-statusDot jp-mod-error';
      this._details.replaceChildren(
        el('p', 'jp-McpLab-error', this._error ?? 'Loading…')
      );
      if (this._error) {
        this.setExpanded(true); // what went wrong must be seen
      }
      return;
    }
    this._glance.textContent = glance(status);
    this._glance.title = glanceTitle(status);
    this._dot.className = `jp-McpLab-statusDot ${status.running === false ? 'jp-mod-error' : 'jp-mod-ok'}`;
    this._details.replaceChildren(...this._renderDetails(status));
  }

  private _renderDetails(status: IStatus): Node[] {
    const parts: Node[] = [];
    const choices = clientChoices(status.endpoints ?? []);
    if (choices.length > 0 && !choices.some(c => c.client === this._client)) {
      this._client = choices[0].client;
    }
    if (choices.length > 0) {
      const row = el('label', 'jp-McpLab-clientChoice');
      row.append(el('span', undefined, 'Client'));
      const select = el('select', 'jp-McpLab-clientSelect');
      for (const choice of choices) {
        const option = el('option', undefined, choice.label);
        option.value = choice.client;
        option.selected = choice.client === this._client;
        select.append(option);
      }
      select.addEventListener('change', () => {
        this._client = select.value;
        writeClient(select.value);
        this.render();
      });
      row.append(select);
      parts.push(row);
    }
    const issued = this._issued;
    const endpoints = issued?.endpoints ?? status.endpoints ?? [];
    const list = el('ul', 'jp-McpLab-endpoints');
    list.setAttribute('aria-label', 'MCP endpoints');
    for (const endpoint of endpoints) {
      list.append(this._renderEndpoint(endpoint, issued !== null));
    }
    if (endpoints.length === 0) {
      list.append(el('li', 'jp-McpLab-empty', 'No MCP endpoint configured.'));
    }
    parts.push(list);
    parts.push(this._renderKeys(status, choices));
    parts.push(renderFacts(status));
    return parts;
  }

  /** One endpoint on one line: profile, URL (ellipsis), Copy, Config. */
  private _renderEndpoint(endpoint: IEndpoint, withKey: boolean): HTMLElement {
    const item = el('li', 'jp-McpLab-endpoint');
    item.dataset.profile = endpoint.profile;
    const url = endpoint.url || endpoint.path;
    const href = safeHref(url);
    const link = el(href ? 'a' : 'span', 'jp-McpLab-endpointUrl', url);
    link.title = url;
    if (href && link instanceof HTMLAnchorElement) {
      link.href = href;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
    }
    const copy = copyButton('', `Copy ${url}`, url);
    copy.setAttribute(
      'aria-label',
      `Copy the ${endpoint.profile} endpoint URL`
    );
    copy.classList.add('jp-McpLab-copyUrl');
    item.append(
      el('span', 'jp-McpLab-endpointProfile', endpoint.profile),
      link,
      copy
    );
    const config = configFor(endpoint, this._client);
    if (config) {
      const copyConfig = copyButton(
        'Config',
        `Copy the ${config.label} configuration of this endpoint` +
          `${withKey ? ', with the new key' : ''} (${config.where})`,
        config.text
      );
      copyConfig.classList.add('jp-McpLab-copyConfig');
      copyConfig.dataset.client = config.client;
      copyConfig.setAttribute(
        'aria-label',
        `Copy the ${config.label} config of the ${endpoint.profile} endpoint`
      );
      item.append(copyConfig);
    }
    return item;
  }

  /** The agent key line: issue one for the chosen client, or the one just issued. */
  private _renderKeys(
    status: IStatus,
    choices: { client: string; label: string }[]
  ): HTMLElement {
    const box = el('div', 'jp-McpLab-keys');
    const issued = this._issued;
    if (issued !== null) {
      box.classList.add('jp-mod-issued');
      box.append(
        el(
          'p',
          'jp-McpLab-keyOnce',
          `A key for ${issued.key.name} is in the configs above: copy the config now, it is shown once. ` +
            'The server keeps only its hash; revoke it with `python -m jupyter_mcp_lab keys revoke ' +
            `${issued.key.name}\`.`
        ),
        button('Done', 'jp-mod-minimal', 'Hide the key', () => {
          this._issued = null;
          this.render();
        })
      );
      return box;
    }
    if (status.tokenPlaceholder === null || choices.length === 0) {
      return box; // a server without agent keys: its configs carry the token
    }
    const label =
      choices.find(c => c.client === this._client)?.label ?? this._client;
    box.append(
      el(
        'p',
        'jp-McpLab-keyHint',
        `The configs say ${status.tokenPlaceholder}: an agent connects with a key of its own.`
      )
    );
    const issue = button(
      `Issue a key for ${label}`,
      'jp-mod-accept',
      `Create an agent key named ${this._client} and show the configs carrying it`,
      () => void this._issue(this._client, false)
    );
    issue.classList.add('jp-McpLab-issueKey');
    box.append(issue);
    if (this._keyError) {
      const error = el('p', 'jp-McpLab-error', this._keyError);
      box.append(error);
      if (this._keyExists) {
        box.append(
          button(
            'Replace it',
            'jp-mod-warn',
            `Revoke the live key named ${this._client} and issue a new one`,
            () => void this._issue(this._client, true)
          )
        );
      }
    }
    return box;
  }

  private async _issue(name: string, replace: boolean): Promise<void> {
    try {
      this._issued = await this._request<IIssuedKey>('keys', {
        method: 'POST',
        body: JSON.stringify(replace ? { name, replace } : { name })
      });
      this._keyError = null;
      this._keyExists = false;
    } catch (error) {
      const status =
        error instanceof ServerConnection.ResponseError
          ? error.response.status
          : undefined;
      this._keyExists = status === 409;
      this._keyError =
        status === 409
          ? `A key named ${name} is live already: replace it (its agent is disconnected), or keep it.`
          : `No key was issued: ${(error as Error)?.message ?? error}`;
    }
    this.render();
  }

  private _request: Request;
  private _status: IStatus | null = null;
  private _error: string | null = null;
  private _client: string = readClient();
  private _issued: IIssuedKey | null = null;
  private _keyError: string | null = null;
  private _keyExists = false;
  private _dot = el('span', 'jp-McpLab-statusDot');
  private _glance = el('span', 'jp-McpLab-connectionGlance');
  private _toggle: HTMLButtonElement;
  private _details = el('div', 'jp-McpLab-connectionDetails');
}

/** Version, policy, read-only and the agents connected lately, compactly. */
function renderFacts(status: IStatus): HTMLElement {
  const facts = el('dl', 'jp-McpLab-rows');
  const add = (label: string, value: Node | string) => {
    const dd = el('dd');
    dd.append(value);
    facts.append(el('dt', undefined, label), dd);
  };
  add('Version', status.version || 'unknown');
  add('Approval policy', status.approval || 'unknown');
  add('Read-only', status.read_only ? 'yes' : 'no');
  const agents = agentRows(status.agents ?? [], Date.now() / 1000);
  if (agents.length === 0) {
    add('Connected agents', 'none in the last 30 minutes');
  } else {
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
    add('Connected agents', list);
  }
  return facts;
}

/** A minimal button copying `text`; it says "Copied" for a moment. */
function copyButton(
  label: string,
  title: string,
  text: string
): HTMLButtonElement {
  let timer: number | null = null;
  // No label: JupyterLab's copy icon (the button's aria-label names it).
  const show = (copied: boolean) => {
    if (label) {
      copy.textContent = copied ? 'Copied' : label;
    } else {
      copy.replaceChildren(
        (copied ? checkIcon : copyIcon).element({
          tag: 'span',
          elementSize: 'small'
        })
      );
    }
    copy.classList.toggle('jp-mod-copied', copied);
  };
  const copy = button(label, 'jp-mod-minimal jp-McpLab-copy', title, () => {
    Clipboard.copyToSystem(text);
    show(true);
    if (timer !== null) {
      window.clearTimeout(timer);
    }
    timer = window.setTimeout(() => {
      timer = null;
      show(false);
    }, 1500);
  });
  show(false);
  return copy;
}

function readClient(): string {
  try {
    return window.localStorage.getItem(CLIENT_KEY) ?? '';
  } catch {
    return '';
  }
}

function writeClient(client: string): void {
  try {
    window.localStorage.setItem(CLIENT_KEY, client);
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}

/** The friendly text for a failed status request. */
function describeError(error: unknown): string {
  if (error instanceof ServerConnection.ResponseError) {
    return failureMessage(error.response.status, error.message);
  }
  return failureMessage(undefined, (error as Error)?.message);
}
