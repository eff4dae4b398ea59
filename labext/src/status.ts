/**
 * The status model: the shape of `GET {baseUrl}mcp-lab/api/status` and the
 * pure helpers that turn it into what the panel shows. No JupyterLab imports
 * here, so it stays unit-testable in plain Node.
 */

/** One MCP surface served by the server (one per profile). */
export interface IEndpoint {
  profile: string;
  path: string;
  url: string;
}

/** The JSON answered by the status route. */
export interface IStatus {
  version: string;
  approval: string;
  read_only: boolean;
  endpoints: IEndpoint[];
  base_url: string;
}

/** One label/value line of the panel. */
export interface IStatusRow {
  label: string;
  value: string;
  /** Set when the value is a URL that may be opened and copied. */
  href?: string;
}

/** Shown when the status route is missing (404) or cannot be reached. */
export const NOT_ENABLED_MESSAGE =
  'The jupyter-mcp-lab server extension is not installed or not enabled. ' +
  'Run `jupyter server extension enable jupyter_mcp_lab` and restart.';

/** Return the URL only when it is a plain http(s) URL that is safe to link. */
export function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** Turn a status answer into the rows the panel displays, in order. */
export function statusRows(status: IStatus): IStatusRow[] {
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
    rows.push({
      label: `MCP endpoint (${endpoint.profile})`,
      value: url,
      href: safeHref(url)
    });
  }
  return rows;
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
