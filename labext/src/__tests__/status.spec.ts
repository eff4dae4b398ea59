import {
  agentRows,
  failureMessage,
  IClientConfig,
  IStatus,
  NOT_ENABLED_MESSAGE,
  safeHref,
  statusRows
} from '../status';

// An answer without the optional parts of the card (no client configs, no
// agents, no token placeholder): each row appears only with its data.
const status = {
  version: '0.1.0',
  approval: 'suggest',
  read_only: false,
  endpoints: [
    { profile: 'lab', path: '/mcp', url: 'http://127.0.0.1:8888/mcp' },
    { profile: 'other', path: '/mcp/other', url: 'javascript:alert(1)' }
  ],
  base_url: '/'
} as IStatus;

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

const NOW = 1_700_000_000;

const configs: IClientConfig[] = [
  {
    client: 'claude-code',
    label: 'Claude Code',
    where: 'run in a shell',
    text: 'claude mcp add --transport http jupyter-lab http://127.0.0.1:8888/mcp'
  },
  {
    client: 'vscode',
    label: 'VS Code',
    where: '.vscode/mcp.json',
    text: '{"servers": {}}'
  }
];

describe('the connection card', () => {
  const full: IStatus = {
    ...status,
    endpoints: [{ ...status.endpoints[0], configs }],
    tokenPlaceholder: null,
    agents: [
      {
        session: 's-2',
        client: 'claude-code',
        user: 'me',
        lastActivity: NOW - 90,
        calls: 3
      },
      {
        session: 's-1',
        client: '',
        user: 'me',
        lastActivity: NOW - 2,
        calls: 1
      }
    ]
  };

  it('puts the configs on their endpoint row', () => {
    const rows = statusRows(full, NOW);
    const endpoint = rows.find(r => r.label === 'MCP endpoint (lab)')!;
    expect(endpoint.configs).toEqual(configs);
    expect(endpoint.href).toBe('http://127.0.0.1:8888/mcp');
    expect(rows.find(r => r.label === 'Token')).toBeUndefined();
  });

  it('lists the connected agents with calls and last activity', () => {
    const row = statusRows(full, NOW).find(
      r => r.label === 'Connected agents'
    )!;
    expect(row.value).toBe('2 in the last 30 minutes');
    expect(row.agents).toEqual([
      {
        client: 'unnamed client',
        calls: '1 call',
        lastActivity: 'just now',
        title: 'unnamed client, user me: MCP session s-1'
      },
      {
        client: 'claude-code',
        calls: '3 calls',
        lastActivity: '1 min ago',
        title: 'claude-code, user me: MCP session s-2'
      }
    ]);
  });

  it('lists a client once, however many sessions it opened', () => {
    const session = (id: string, client: string, ago: number, calls = 1) => ({
      session: id,
      client,
      user: 'me',
      lastActivity: NOW - ago,
      calls
    });
    const rows = agentRows(
      [
        session('a', 'script', 10),
        session('b', 'cursor', 20, 4),
        session('c', 'script', 300, 2)
      ],
      NOW
    );
    expect(rows.map(r => [r.client, r.calls, r.lastActivity])).toEqual([
      ['script', '3 calls in 2 sessions', '10 s ago'],
      ['cursor', '4 calls', '20 s ago']
    ]);
    expect(rows[0].title).toBe('script, user me: MCP sessions a, c');
  });

  it('says when no agent is connected, and what to put for the token', () => {
    const rows = statusRows(
      { ...full, agents: [], tokenPlaceholder: '<your Jupyter token>' },
      NOW
    );
    expect(rows.find(r => r.label === 'Connected agents')).toEqual({
      label: 'Connected agents',
      value: 'none in the last 30 minutes',
      agents: []
    });
    expect(rows.find(r => r.label === 'Token')?.value).toContain(
      '<your Jupyter token>'
    );
  });

  it('keeps working with an older server (no configs, no agents)', () => {
    const rows = statusRows(status, NOW);
    expect(rows.some(r => r.configs || r.agents)).toBe(false);
  });
});

describe('the agents’ last activity', () => {
  it('is relativeTime, to the second', () => {
    const [row] = agentRows(
      [
        {
          session: 's',
          client: 'c',
          user: 'u',
          lastActivity: NOW - 600,
          calls: 2
        }
      ],
      NOW
    );
    expect(row.lastActivity).toBe('10 min ago');
  });
});
