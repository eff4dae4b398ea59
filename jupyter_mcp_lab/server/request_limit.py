"""The MCP endpoints' request size limit, answered in JSON an MCP client can show.

The SDK's session manager refuses a body over its limit (``max_request_body_size``) with
413 and the plain text "Request body too large", before parsing it; an SDK client then
reports only "Server returned an error response", and the agent cannot tell why its write
failed. The same 413 goes out here as a JSON-RPC error, which the Python and TypeScript
SDK clients surface: its message names the limit and what to do, its data carries this
project's error envelope. The request was not read: nothing happened.
"""

from __future__ import annotations

import json

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types import INVALID_REQUEST
from starlette.types import Message, Receive, Scope, Send

DEFAULT_MAX_REQUEST_BYTES = 4 * 2**20
TRAIT = "MCPLabApp.max_request_bytes"


def size_text(n: int) -> str:
    return f"{n // 2**20} MiB" if n % 2**20 == 0 else f"{n:,} bytes"


def too_large_body(limit: int) -> bytes:
    message = (
        f"The request is larger than this server accepts ({size_text(limit)}, {TRAIT}); nothing was done. "
        "Send less in one call: write a large document in parts (a first part, then edits that add the rest), "
        "or ask the person running the server to raise the limit."
    )
    # No id: the body was not parsed. SDK clients answer the pending request with it.
    error = {"code": INVALID_REQUEST, "message": message, "data": {"error": "REQUEST_TOO_LARGE", "limit": limit}}
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()


class SessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager, with its 413 in JSON."""

    async def handle_request(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().handle_request(scope, receive, _JSONTooLarge(send, self.max_request_body_size))


class _JSONTooLarge:
    """An ASGI ``send`` that replaces a 413 response (only the size limit answers 413)."""

    def __init__(self, send: Send, limit: int) -> None:
        self.send = send
        self.limit = limit
        self.replaced = False

    async def __call__(self, message: Message) -> None:
        if self.replaced:
            return  # the SDK's plain-text body
        if message["type"] == "http.response.start" and message.get("status") == 413:
            self.replaced = True
            body = too_large_body(self.limit)
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await self.send({"type": "http.response.start", "status": 413, "headers": headers})
            await self.send({"type": "http.response.body", "body": body, "more_body": False})
            return
        await self.send(message)
