import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import type { ApiResponse } from './api_types';

/** The server extension's REST namespace, relative to the server base URL. */
export const API_NAMESPACE = 'mcp-lab/api';

/**
 * The REST client: `requestAPI` in production, a fake in unit tests. `T` is
 * one of the bodies the API documents (api_types.ts, generated from the
 * server's openapi.yaml), so a caller reading a field the server does not send
 * fails to compile.
 */
export type Request = <T extends ApiResponse>(
  endPoint: string,
  init?: RequestInit
) => Promise<T>;

/**
 * Call the jupyter-mcp-lab REST API and return the decoded JSON body.
 *
 * @param endPoint path below `{baseUrl}mcp-lab/api/`, e.g. `status`
 * @param init the fetch options (method, body, ...)
 * @throws ServerConnection.NetworkError when the server cannot be reached
 * @throws ServerConnection.ResponseError when it answers with an error status
 */
export async function requestAPI<T extends ApiResponse>(
  endPoint = '',
  init: RequestInit = {}
): Promise<T> {
  const settings = ServerConnection.makeSettings();
  const requestUrl = URLExt.join(settings.baseUrl, API_NAMESPACE, endPoint);

  let response: Response;
  try {
    response = await ServerConnection.makeRequest(requestUrl, init, settings);
  } catch (error) {
    throw new ServerConnection.NetworkError(error as TypeError);
  }

  const text = await response.text();
  let data: any = text;
  if (text.length > 0) {
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON (e.g. an HTML error page): keep the text.
    }
  }

  if (!response.ok) {
    throw new ServerConnection.ResponseError(response, data?.message ?? text);
  }
  return data as T;
}

/**
 * The absolute URL of an API route, e.g. for an `EventSource`, which cannot
 * send headers: it authenticates with the page's Jupyter login cookie (GET
 * needs no XSRF token).
 */
export function apiURL(endPoint: string): string {
  const settings = ServerConnection.makeSettings();
  return URLExt.join(settings.baseUrl, API_NAMESPACE, endPoint);
}
