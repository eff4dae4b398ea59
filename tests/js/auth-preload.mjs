// Loaded with `node --import` so that a program with no header option (the conformance
// suite) authenticates to Jupyter honestly: every request to MCP_AUTH_ORIGIN carries
// the Authorization header from MCP_AUTH_HEADER. Requests elsewhere are untouched.
import { createRequire } from 'node:module';

const header = process.env.MCP_AUTH_HEADER;
const origin = process.env.MCP_AUTH_ORIGIN;

function ours(url) {
  try {
    return origin && new URL(String(url)).origin === origin;
  } catch {
    return false;
  }
}

function withAuth(headers) {
  const h = new Headers(headers || {});
  if (!h.has('authorization')) h.set('authorization', header);
  return h;
}

if (header && origin) {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const url = input instanceof Request ? input.url : input;
    if (!ours(url)) return realFetch(input, init);
    if (input instanceof Request) {
      return realFetch(new Request(input, { headers: withAuth(input.headers) }), init);
    }
    return realFetch(input, { ...init, headers: withAuth(init.headers) });
  };

  // Some scenarios speak HTTP through undici directly.
  try {
    const require = createRequire(import.meta.url);
    const undici = require('undici');
    const realRequest = undici.request;
    undici.request = (url, opts = {}) => {
      if (!ours(url)) return realRequest(url, opts);
      const headers = { ...(opts.headers || {}) };
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) {
        headers.authorization = header;
      }
      return realRequest(url, { ...opts, headers });
    };
  } catch {
    // undici is not installed beside us: fetch is all there is to patch.
  }
}
