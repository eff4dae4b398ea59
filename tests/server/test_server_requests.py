"""Server-to-client requests and notifications during a tool call, over raw Streamable HTTP.

A legacy (2025-11-25) client that has not opened the optional GET stream must still see
everything a tool call sends (progress, logs, sampling and elicitation requests) on that
call's own POST stream, and be able to answer with a second POST while the first stream is
open. This goes through the whole Tornado-ASGI bridge with two concurrent requests.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2
import pytest

from ..conftest import LabServer

PROTOCOL = "2025-11-25"
STREAMABLE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CALL_ID = 7

# Logging and sampling are deprecated in 2026-07-28 but alive for 2025-11-25 clients.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


async def open_session(http: httpx2.AsyncClient, url: str, headers: dict[str, str]) -> str:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL,
            "capabilities": {"sampling": {}, "elicitation": {"form": {}}},
            "clientInfo": {"name": "raw-http", "version": "1"},
        },
    }
    r = await http.post(url, headers={**STREAMABLE, **headers}, json=init)
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    r = await http.post(
        url,
        headers={**STREAMABLE, **headers, "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL},
        json={"jsonrpc": "2.0", "method": "notifications/initialized"},
    )
    assert r.status_code == 202
    return sid


async def call_tool_streaming(
    server: LabServer,
    tool: str,
    arguments: dict[str, Any],
    answer: dict[str, Any] | None = None,
    *,
    progress_token: str | None = None,
    time_limit: float = 15,
) -> list[dict[str, Any]]:
    """Call ``tool`` on the conformance profile; answer any server request with ``answer``.

    Returns every JSON-RPC message of the call's POST stream, in order, up to its response.
    """
    url = server.mcp_url("conformance")
    auth = server.auth()
    messages: list[dict[str, Any]] = []
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(30)) as http:
        sid = await open_session(http, url, auth)
        headers = {**STREAMABLE, **auth, "mcp-session-id": sid, "mcp-protocol-version": PROTOCOL}
        params: dict[str, Any] = {"name": tool, "arguments": arguments}
        if progress_token is not None:
            params["_meta"] = {"progressToken": progress_token}
        call = {"jsonrpc": "2.0", "id": CALL_ID, "method": "tools/call", "params": params}
        async with asyncio.timeout(time_limit):
            async with http.stream("POST", url, headers=headers, json=call) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("text/event-stream")
                async for line in response.aiter_lines():
                    data = line.removeprefix("data:").strip() if line.startswith("data:") else ""
                    if not data:
                        continue
                    message = json.loads(data)
                    messages.append(message)
                    if "method" in message and "id" in message:  # a request to us
                        assert answer is not None, f"unexpected request {message}"
                        reply = {"jsonrpc": "2.0", "id": message["id"], "result": answer}
                        r = await http.post(url, headers=headers, json=reply)
                        assert r.status_code == 202, r.text
                    if message.get("id") == CALL_ID and "method" not in message:
                        break
        await http.delete(url, headers=headers)
    return messages


def final_text(messages: list[dict[str, Any]]) -> str:
    response = messages[-1]
    assert response.get("id") == CALL_ID, messages
    assert "result" in response, response
    assert response["result"].get("isError") is not True, response
    return response["result"]["content"][0]["text"]


async def test_progress_and_logs_arrive_on_the_call_stream(mcp_lab: LabServer) -> None:
    messages = await call_tool_streaming(mcp_lab, "test_tool_with_progress", {}, progress_token="tok-1")
    progress = [m["params"] for m in messages if m.get("method") == "notifications/progress"]
    assert [p["progress"] for p in progress] == [0, 50, 100]
    assert {p["progressToken"] for p in progress} == {"tok-1"}
    assert final_text(messages) == "tok-1"

    messages = await call_tool_streaming(mcp_lab, "test_tool_with_logging", {})
    logs = [m["params"]["data"] for m in messages if m.get("method") == "notifications/message"]
    assert logs == ["Tool execution started", "Tool processing data", "Tool execution completed"]


async def test_elicitation_request_arrives_on_the_call_stream(mcp_lab: LabServer) -> None:
    answer = {"action": "accept", "content": {"username": "ada", "email": "ada@example.org"}}
    messages = await call_tool_streaming(mcp_lab, "test_elicitation", {"message": "Who are you?"}, answer)
    [request] = [m for m in messages if m.get("method") == "elicitation/create"]
    assert request["params"]["message"] == "Who are you?"
    text = final_text(messages)
    assert "action=accept" in text
    assert '"username":"ada"' in text


async def test_sampling_request_arrives_on_the_call_stream(mcp_lab: LabServer) -> None:
    answer = {
        "role": "assistant",
        "content": {"type": "text", "text": "forty-two"},
        "model": "test-model",
        "stopReason": "endTurn",
    }
    messages = await call_tool_streaming(mcp_lab, "test_sampling", {"prompt": "6 x 7?"}, answer, time_limit=5)
    [request] = [m for m in messages if m.get("method") == "sampling/createMessage"]
    assert request["params"]["messages"][0]["content"]["text"] == "6 x 7?"
    assert final_text(messages) == "LLM response: forty-two"
