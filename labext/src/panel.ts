import { Clipboard } from '@jupyterlab/apputils';
import { ServerConnection } from '@jupyterlab/services';
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { mcpLabIcon } from './icon';
import { requestAPI } from './request';
import { failureMessage, IStatus, IStatusRow, statusRows } from './status';

/** The DOM id of the side panel. */
export const PANEL_ID = 'jupyter-mcp-lab-panel';

/**
 * The "MCP Lab" side panel: asks the server for its status and shows the
 * MCP endpoint URLs, the server version and the approval policy.
 */
export class StatusPanel extends Widget {
  constructor() {
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
    this.node.append(header, this._body);
  }

  /** Fetch the status again and redraw. */
  async refresh(): Promise<void> {
    this._loaded = true;
    this._refreshButton.disabled = true;
    this._showMessage('Loading…', 'jp-McpLab-loading');
    try {
      const status = await requestAPI<IStatus>('status');
      this._showRows(statusRows(status));
    } catch (error) {
      this._showMessage(describeError(error), 'jp-McpLab-error');
    } finally {
      this._refreshButton.disabled = false;
    }
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    if (!this._loaded) {
      void this.refresh();
    }
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
}

/** A URL row gets a link and a copy button; other rows plain text. */
function renderValue(row: IStatusRow): Node {
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
  const copy = document.createElement('button');
  copy.className = 'jp-Button jp-mod-styled jp-mod-minimal';
  copy.textContent = 'Copy';
  copy.title = 'Copy the URL to the clipboard';
  copy.addEventListener('click', () => Clipboard.copyToSystem(row.value));
  wrapper.append(link, copy);
  return wrapper;
}

/** The friendly text for a failed status request. */
function describeError(error: unknown): string {
  if (error instanceof ServerConnection.ResponseError) {
    return failureMessage(error.response.status, error.message);
  }
  return failureMessage(undefined, (error as Error)?.message);
}
