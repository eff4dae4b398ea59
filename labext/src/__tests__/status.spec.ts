import {
  failureMessage,
  IStatus,
  NOT_ENABLED_MESSAGE,
  safeHref,
  statusRows
} from '../status';

const status: IStatus = {
  version: '0.1.0',
  approval: 'suggest',
  read_only: false,
  endpoints: [
    { profile: 'lab', path: '/mcp', url: 'http://127.0.0.1:8888/mcp' },
    { profile: 'other', path: '/mcp/other', url: 'javascript:alert(1)' }
  ],
  base_url: '/'
};

describe('statusRows', () => {
  it('lists the server facts then one row per endpoint', () => {
    expect(statusRows(status)).toEqual([
      { label: 'Server extension', value: 'running' },
      { label: 'Version', value: '0.1.0' },
      { label: 'Approval policy', value: 'suggest' },
      { label: 'Read-only', value: 'no' },
      {
        label: 'MCP endpoint (lab)',
        value: 'http://127.0.0.1:8888/mcp',
        href: 'http://127.0.0.1:8888/mcp'
      },
      {
        label: 'MCP endpoint (other)',
        value: 'javascript:alert(1)',
        href: undefined
      }
    ]);
  });

  it('says so when no endpoint is configured', () => {
    const rows = statusRows({ ...status, read_only: true, endpoints: [] });
    expect(rows).toContainEqual({ label: 'Read-only', value: 'yes' });
    expect(rows[rows.length - 1]).toEqual({
      label: 'MCP endpoint',
      value: 'none configured'
    });
  });
});

describe('safeHref', () => {
  it('keeps only http(s) URLs', () => {
    expect(safeHref('https://example.org/mcp')).toBe('https://example.org/mcp');
    expect(safeHref('/mcp')).toBeUndefined();
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
  });
});

describe('failureMessage', () => {
  it('gives the plain friendly message for a 404', () => {
    expect(failureMessage(404, 'Not Found')).toBe(NOT_ENABLED_MESSAGE);
    expect(NOT_ENABLED_MESSAGE).toContain(
      'jupyter server extension enable jupyter_mcp_lab'
    );
  });

  it('adds the cause for other failures', () => {
    expect(failureMessage(500, 'boom')).toBe(
      `${NOT_ENABLED_MESSAGE} (HTTP 500: boom)`
    );
    expect(failureMessage(undefined, 'Failed to fetch')).toBe(
      `${NOT_ENABLED_MESSAGE} (Failed to fetch)`
    );
  });
});
