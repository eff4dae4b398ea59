"""Limits on what clients send: lab-bridge messages nested too deeply, MCP requests too large.

A bridge message of 100,000 nested brackets used to close the socket with a traceback
(RecursionError in the parser); its contract says a bad message is answered and the
socket stays. A write over the MCP request limit used to get a plain-text 413, which the
official SDK client reports as "Server returned an error response" and nothing else.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.shared.exceptions import MCPError
from tornado.websocket import websocket_connect

from jupyter_mcp_lab.server.json_input import MAX_DEPTH
from jupyter_mcp_lab.server.request_limit import DEFAULT_MAX_REQUEST_BYTES

from ..conftest import LabServer, Tools
from .test_bridge import bridge_url

pytestmark = pytest.mark.timeout(120)


async def test_a_deeply_nested_bridge_message_is_answered_and_the_socket_stays(mcp_lab: LabServer) -> None:
    ws = await websocket_connect(bridge_url(mcp_lab, mcp_lab.token))

    async def reply() -> dict[str, Any]:
        raw = await asyncio.wait_for(ws.read_message(), 10)
        assert raw is not None, "the server closed the socket"
        return json.loads(raw)

    try:
        for message in (
            "[" * 100_000 + "]" * 100_000,
            '{"type": "hello", "clientId": "c-1", "x": ' + "[" * 1_000 + "]" * 1_000 + "}",
        ):
            await ws.write_message(message)
            error = await reply()
            assert error["type"] == "error", error
            assert f"nested deeper than {MAX_DEPTH} levels" in error["message"], error
        # The socket is still open and the session goes on as usual.
        await ws.write_message(json.dumps({"type": "hello", "clientId": "c-1"}))
        assert (await reply())["type"] == "welcome"
        deep_result = {"type": "response", "id": "r-1", "ok": True, "result": "[" * 500_000}
        await ws.write_message(json.dumps(deep_result))  # brackets in a string nest nothing
        await ws.write_message(json.dumps({"type": "response", "id": "r-2", "ok": True, "result": [[[[]]]]}))
        await ws.write_message(json.dumps({"type": "nonsense"}))
        assert "unknown message type" in (await reply())["message"]
    finally:
        ws.close()


async def write(tools: Tools, path: str, size: int) -> Any:
    return await tools.call("document", "write", path=path, content="x" * (size - 1) + "\n")


async def test_a_write_over_the_default_limit_says_why_through_the_sdk(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "big.md").write_text("# Big\n")
    async with mcp_client("lab") as client:
        tools = Tools(client)
        with pytest.raises(MCPError) as refused:
            await write(tools, "big.md", DEFAULT_MAX_REQUEST_BYTES + 1)
        message = refused.value.error.message
        assert "larger than this server accepts (4 MiB, MCPLabApp.max_request_bytes)" in message, message
        assert refused.value.error.data == {"error": "REQUEST_TOO_LARGE", "limit": DEFAULT_MAX_REQUEST_BYTES}
        # The session is unharmed: the next call works, and the file was not touched.
        result = await write(tools, "big.md", 3 * 2**20)
        assert not result.is_error
    assert (root / "big.md").stat().st_size == 3 * 2**20


@pytest.mark.parametrize("mcp_app_config", [{"max_request_bytes": 100_000}])
async def test_the_limit_is_a_trait_and_the_413_is_json(mcp_lab: LabServer, mcp_client: Any) -> None:
    assert mcp_lab.extension.max_request_bytes == 100_000
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "small.md").write_text("# Small\n")
    async with mcp_client("lab") as client:
        tools = Tools(client)
        assert not (await write(tools, "small.md", 90_000)).is_error
        with pytest.raises(MCPError) as refused:
            await write(tools, "small.md", 100_001)
        assert "(100,000 bytes, MCPLabApp.max_request_bytes)" in refused.value.error.message
    assert (root / "small.md").stat().st_size == 90_000
    # What any HTTP client sees: 413 with a JSON body (a JSON-RPC error).
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(
            mcp_lab.mcp_url(),
            content=b"{" + b" " * 100_000 + b"}",
            headers={
                **mcp_lab.auth(),
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            },
        )
    assert r.status_code == 413
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert body["error"]["data"] == {"error": "REQUEST_TOO_LARGE", "limit": 100_000}
