/**
 * The panel's "Review board" link: the Panel review board served by Panel's
 * own Jupyter server extension at `{baseUrl}panel-preview/render/<app>`,
 * under Jupyter's auth. The app is a tiny file at the server's root, written
 * through the contents API only when the person first opens the board (the
 * same text `kernel_tools.board_app` writes).
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import { el } from './dom';

/** The app file, root-relative. */
export const BOARD_APP = 'mcp-lab-review-board.py';

/** Its text: keep equal to `APP_SOURCE` in kernel_tools/board_app.py. */
export const BOARD_SOURCE = `"""The jupyter-mcp-lab review board, served by Panel (written by kernel_tools; safe to delete)."""
from kernel_tools.board_app import main

main()
`;

/** A fetch with Jupyter's auth (ServerConnection.makeRequest in the panel). */
export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** The served board's URL. */
export function boardUrl(baseUrl: string): string {
  return URLExt.join(baseUrl, 'panel-preview/render', BOARD_APP);
}

/**
 * Write the app file unless it exists (a person's edits to it are kept).
 *
 * @throws ServerConnection.ResponseError when the contents API refuses
 */
export async function ensureBoardApp(
  fetch: Fetch,
  baseUrl: string
): Promise<void> {
  const url = URLExt.join(baseUrl, 'api/contents', BOARD_APP);
  const found = await fetch(`${url}?content=0`, { method: 'GET' });
  if (found.ok) {
    return;
  }
  if (found.status !== 404) {
    throw new ServerConnection.ResponseError(found);
  }
  const body = { type: 'file', format: 'text', content: BOARD_SOURCE };
  const written = await fetch(url, {
    method: 'PUT',
    body: JSON.stringify(body)
  });
  if (!written.ok) {
    throw new ServerConnection.ResponseError(written);
  }
}

/**
 * Open the board in a new tab, writing the app file first if needed (the tab
 * is opened at once, so no popup blocker stops it; it navigates when the file
 * is there). Rejects, with the tab closed, when the file cannot be written.
 */
export async function openReviewBoard(
  settings: ServerConnection.ISettings = ServerConnection.makeSettings(),
  fetch: Fetch = (url, init) =>
    ServerConnection.makeRequest(url, init ?? {}, settings)
): Promise<void> {
  const href = boardUrl(settings.baseUrl);
  const tab = window.open('', '_blank');
  try {
    await ensureBoardApp(fetch, settings.baseUrl);
  } catch (error) {
    tab?.close();
    throw error;
  }
  if (tab) {
    tab.location.href = href;
  } else {
    window.open(href, '_blank');
  }
}

/** The link: a click opens the board (`openReviewBoard`). */
export function boardLink(
  settings: ServerConnection.ISettings = ServerConnection.makeSettings(),
  fetch: Fetch = (url, init) =>
    ServerConnection.makeRequest(url, init ?? {}, settings)
): HTMLAnchorElement {
  const href = boardUrl(settings.baseUrl);
  const link = el('a', 'jp-McpLab-boardLink', 'Review board');
  link.href = href;
  link.target = '_blank';
  link.title =
    'Every pending suggestion in a table, with filters and the agents’ activity (a Panel app in a new tab)';
  link.addEventListener('click', event => {
    event.preventDefault();
    openReviewBoard(settings, fetch).catch(error => {
      link.title = `The review board could not be set up: ${(error as Error).message}`;
      link.classList.add('jp-mod-error');
    });
  });
  return link;
}
