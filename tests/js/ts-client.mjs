// An MCP client built on the official TypeScript SDK, as a Node-based agent would be.
//
//   node ts-client.mjs <url> [authorization-header-value] [client-name]
//
// Connects over Streamable HTTP, lists tools, calls session {action: "get_state"} twice
// and prints one JSON object on stdout:
//   {ok: true, protocolVersion, serverInfo, sessionId, tools: [{name, ...}], state, again}
// or, when anything fails (no header: Jupyter answers 401):
//   {ok: false, stage, name, message, code}
// Exit status: 0 on success, 2 on a failure it reported, 1 on a crash.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, authorization = '', clientName = 'ts-sdk-client'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node ts-client.mjs <url> [authorization-header-value] [client-name]');
  process.exit(1);
}

const headers = authorization ? { Authorization: authorization } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const client = new Client({ name: clientName, version: '1.2.3' });

let stage = 'connect';
try {
  await client.connect(transport);
  stage = 'tools/list';
  const { tools } = await client.listTools();
  stage = 'tools/call';
  const state = await client.callTool({ name: 'session', arguments: { action: 'get_state' } });
  const again = await client.callTool({ name: 'session', arguments: { action: 'get_state' } });
  stage = 'close';
  const out = {
    ok: true,
    protocolVersion: transport.protocolVersion ?? null,
    serverInfo: client.getServerVersion() ?? null,
    sessionId: transport.sessionId ?? null,
    tools: tools.map((t) => ({
      name: t.name,
      hasOutputSchema: Boolean(t.outputSchema),
      readOnlyHint: t.annotations?.readOnlyHint ?? null,
    })),
    state: { isError: Boolean(state.isError), structuredContent: state.structuredContent ?? null },
    again: { isError: Boolean(again.isError), structuredContent: again.structuredContent ?? null },
  };
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify(out));
  process.exit(0);
} catch (err) {
  console.log(
    JSON.stringify({
      ok: false,
      stage,
      name: err?.constructor?.name ?? typeof err,
      message: String(err?.message ?? err),
      code: err?.code ?? null,
    }),
  );
  try {
    await client.close();
  } catch {
    // already closed
  }
  process.exit(2);
}
