"""The MCP endpoint of a real Jupyter server, through the official Python SDK and raw HTTP.

Auth, Host checks, routing and the ``session`` tool's answer, as an MCP client sees them.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import httpx2
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from jupyter_mcp_lab import __version__
from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ..conftest import (
    CLIENT_NAME,
    LabServer,
    leaf_exceptions,
    run_process,
    server_log_problems,
    text_of,
)

LEGACY_PROTOCOL = "2025-11-25"
MODERN_PROTOCOL = "2026-07-28"
PROTOCOL_BY_MODE = {"legacy": LEGACY_PROTOCOL, "auto": MODERN_PROTOCOL}

STREAMABLE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": LEGACY_PROTOCOL,
        "capabilities": {},
        "clientInfo": {"name": "raw-http", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def raw_client() -> httpx2.AsyncClient:
    """A fresh HTTP client: no cookie jar shared with an authenticated one.

    (A token-authenticated request sets Jupyter's login cookie; a client that kept it
    would be authenticated by the cookie instead of testing the missing header.)
    """
    return httpx2.AsyncClient(timeout=httpx2.Timeout(30))


def sse_messages(body: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an SSE response body."""
    return [
        json.loads(line.removeprefix("data:").strip())
        for line in body.splitlines()
        if line.startswith("data:") and line.removeprefix("data:").strip()
    ]


async def get_state(client: Any) -> dict[str, Any]:
    result = await client.call_tool("session", {"action": "get_state"})
    assert isinstance(result, CallToolResult)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    # The text block carries the same JSON for clients that ignore structured content.
    assert json.loads(text_of(result)) == result.structured_content
    return result.structured_content


async def open_raw_session(http: httpx2.AsyncClient, server: LabServer) -> str:
    """Initialize a legacy session over raw HTTP; returns its Mcp-Session-Id."""
    r = await http.post(server.mcp_url(), headers={**STREAMABLE, **server.auth()}, json=INITIALIZE)
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    [message] = sse_messages(r.text)
    assert message["result"]["serverInfo"]["name"] == "jupyter-mcp-lab"
    r = await http.post(
        server.mcp_url(),
        headers={**STREAMABLE, **server.auth(), "mcp-session-id": sid, "mcp-protocol-version": LEGACY_PROTOCOL},
        json=INITIALIZED,
    )
    assert r.status_code == 202, r.text
    return sid


# --------------------------------------------------------------------------- the SDK client


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])  # the default, shown
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_session_get_state_through_python_sdk(mcp_lab: LabServer, mcp_client: Any, mode: str) -> None:
    async with mcp_client(mode=mode, client_name="pytest-sdk-" + mode) as client:
        assert client.protocol_version == PROTOCOL_BY_MODE[mode]
        assert client.server_info is not None
        assert client.server_info.name == "jupyter-mcp-lab"
        assert client.server_info.version == __version__

        listing = await client.list_tools()
        tools = {t.name: t for t in listing.tools}
        # The lab profile stays small: an agent pays context for every tool (DESIGN.md: every
        # capability in at most 12 tools, tools/list at most 24 KB).
        assert len(tools) <= 12, sorted(tools)
        assert len(listing.model_dump_json(by_alias=True, exclude_none=True)) <= 24_000
        # Lab tools address documents by path or tabId; VMark's windowId is not listed here.
        assert [t.name for t in listing.tools if "windowId" in t.input_schema["properties"]] == []
        session_tool = tools["session"]
        assert session_tool.description
        action = session_tool.input_schema["properties"]["action"]
        assert "get_state" in action.get("enum", [action.get("const")])
        assert session_tool.output_schema is not None
        assert session_tool.annotations is not None
        assert session_tool.annotations.read_only_hint is True

        state = await get_state(client)
        again = await get_state(client)

    [window] = state["windows"]
    assert window["label"] == "main"
    assert window["labClient"] is False
    assert window["tabs"] == []

    caps = state["capabilities"]
    assert caps["version"] == __version__
    assert caps["host"] == "jupyter"
    assert caps["approval"] == "suggest"
    assert caps["readOnly"] is False
    assert caps["maxResponseBytes"] == 75_000
    assert caps["mcpProtocol"] == PROTOCOL_BY_MODE[mode]
    assert caps["labClients"] == 0
    assert caps["profiles"] == [
        {"profile": "lab", "path": "/mcp", "url": mcp_lab.mcp_url("lab")},
        {
            "profile": "conformance",
            "path": "/mcp-lab/conformance/mcp",
            "url": mcp_lab.mcp_url("conformance"),
        },
    ]

    caller = state["caller"]
    assert caller["clientName"] == "pytest-sdk-" + mode
    assert caller["clientVersion"] == "0.0.1"
    assert caller["profile"] == "lab"
    # The token holder of a single-user server is its owner, on every request.
    assert caller["username"] == LOCAL_USER
    assert again["caller"]["username"] == caller["username"]
    assert again["caller"]["clientName"] == caller["clientName"]
    # Focus state is kept per session: the id must not change between calls of one client.
    assert caller["sessionId"]
    assert again["caller"]["sessionId"] == caller["sessionId"]


async def test_legacy_session_id_is_the_callers_and_stable(mcp_client: Any) -> None:
    async with mcp_client(mode="legacy") as first:
        one = (await get_state(first))["caller"]["sessionId"]
        two = (await get_state(first))["caller"]["sessionId"]
        async with mcp_client(mode="legacy") as second:
            other = (await get_state(second))["caller"]["sessionId"]
    assert one == two
    assert len(one) >= 16
    assert other != one


async def test_profile_urls_reported_by_get_state_work(mcp_client: Any) -> None:
    async with mcp_client() as client:
        profiles = (await get_state(client))["capabilities"]["profiles"]
    urls = {p["profile"]: p["url"] for p in profiles}
    assert set(urls) == {"lab", "conformance"}

    async with mcp_client(url=urls["lab"]) as lab:
        assert "session" in {t.name for t in (await lab.list_tools()).tools}
    async with mcp_client(url=urls["conformance"]) as conf:
        assert conf.server_info is not None
        assert conf.server_info.name == "mcp-conformance-test-server"
        names = {t.name for t in (await conf.list_tools()).tools}
        assert {"test_simple_text", "test_tool_with_progress", "test_elicitation"} <= names
        result = await conf.call_tool("test_simple_text", {})
        assert not result.is_error
        assert "This is a simple text response for testing." in text_of(result)


async def test_lab_profile_is_also_served_under_mcp_lab(mcp_lab: LabServer, mcp_client: Any) -> None:
    async with mcp_client(url=mcp_lab.url("mcp-lab/lab/mcp")) as client:
        state = await get_state(client)
    assert state["caller"]["profile"] == "lab"
    assert state["windows"][0]["label"] == "main"


@pytest.mark.parametrize("scheme", ["token", "Bearer"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_both_authorization_header_forms(mcp_client: Any, scheme: str, mode: str) -> None:
    async with mcp_client(scheme=scheme, mode=mode) as client:
        state = await get_state(client)
    assert state["caller"]["clientName"] == CLIENT_NAME
    assert state["caller"]["username"] == LOCAL_USER


async def test_tool_argument_error_names_the_argument(mcp_client: Any) -> None:
    async with mcp_client() as client:
        bad = await client.call_tool("session", {"action": "nope"})
        missing = await client.call_tool("session", {})
        # The session is still usable after both.
        assert (await get_state(client))["windows"][0]["label"] == "main"
    for result in (bad, missing):
        assert result.is_error is True
        text = text_of(result)
        assert "action" in text, text
    assert "get_state" in text_of(bad)
    assert bad.structured_content == {
        "error": "INVALID_ARGUMENT",
        "message": "unknown action 'nope'; one of: get_state",
        "argument": "action",
    }


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_sdk_client_without_token_is_refused(mcp_lab: LabServer, mode: str) -> None:
    seen: list[tuple[int, str | None]] = []

    async def record(response: httpx2.Response) -> None:
        seen.append((response.status_code, response.headers.get("www-authenticate")))

    async with httpx2.AsyncClient(event_hooks={"response": [record]}) as http:
        with pytest.raises((MCPError, BaseExceptionGroup)) as info:
            async with Client(streamable_http_client(mcp_lab.mcp_url(), http_client=http), mode=mode) as client:
                await client.list_tools()
    errors = list(leaf_exceptions(info.value)) if isinstance(info.value, BaseExceptionGroup) else [info.value]
    assert [type(e) for e in errors] == [MCPError], errors
    assert seen, "the SDK sent no request"
    assert {status for status, _ in seen} == {401}
    assert all(challenge and challenge.startswith("Bearer ") for _, challenge in seen)


# --------------------------------------------------------------------------- raw HTTP: auth


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "token wrong-token"}, {"Authorization": "Bearer wrong-token"}],
    ids=["no-header", "wrong-token", "wrong-bearer"],
)
@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
async def test_unauthenticated_requests_get_401_with_challenge(
    mcp_lab: LabServer, method: str, headers: dict[str, str]
) -> None:
    async with raw_client() as http:
        r = await http.request(
            method,
            mcp_lab.mcp_url(),
            headers={**STREAMABLE, **headers},
            json=INITIALIZE if method == "POST" else None,
        )
    assert r.status_code == 401
    assert r.headers["www-authenticate"].startswith("Bearer ")
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["error"] == "unauthorized"
    assert "token" in body["message"]
    assert "mcp-session-id" not in r.headers
    assert "set-cookie" not in r.headers


async def test_session_cannot_be_used_without_auth(mcp_lab: LabServer) -> None:
    async with raw_client() as owner:
        sid = await open_raw_session(owner, mcp_lab)
        session_headers = {**STREAMABLE, "mcp-session-id": sid, "mcp-protocol-version": LEGACY_PROTOCOL}

        async with raw_client() as stranger:
            r = await stranger.post(mcp_lab.mcp_url(), headers=session_headers, json=TOOLS_LIST)
            assert r.status_code == 401
            assert "tools" not in r.text
            r = await stranger.get(mcp_lab.mcp_url(), headers=session_headers)
            assert r.status_code == 401
            r = await stranger.delete(mcp_lab.mcp_url(), headers=session_headers)
            assert r.status_code == 401
            r = await stranger.post(
                mcp_lab.mcp_url(),
                headers={**session_headers, "Authorization": "token wrong-token"},
                json=TOOLS_LIST,
            )
            assert r.status_code == 401

        # The refused requests did not end the owner's session.
        r = await owner.post(mcp_lab.mcp_url(), headers={**session_headers, **mcp_lab.auth()}, json=TOOLS_LIST)
        assert r.status_code == 200, r.text
        [message] = sse_messages(r.text)
        assert "session" in {t["name"] for t in message["result"]["tools"]}

        r = await owner.delete(mcp_lab.mcp_url(), headers={**session_headers, **mcp_lab.auth()})
        assert r.status_code == 200
        r = await owner.post(mcp_lab.mcp_url(), headers={**session_headers, **mcp_lab.auth()}, json=TOOLS_LIST)
        assert r.status_code == 404  # terminated sessions are gone


async def test_unknown_session_id_is_404(mcp_lab: LabServer) -> None:
    async with raw_client() as http:
        r = await http.post(
            mcp_lab.mcp_url(),
            headers={
                **STREAMABLE,
                **mcp_lab.auth(),
                "mcp-session-id": "0" * 32,
                "mcp-protocol-version": LEGACY_PROTOCOL,
            },
            json=TOOLS_LIST,
        )
    assert r.status_code == 404


async def test_malformed_json_is_a_jsonrpc_parse_error(mcp_lab: LabServer) -> None:
    async with raw_client() as http:
        r = await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **mcp_lab.auth()}, content=b"{not json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == -32700


# --------------------------------------------------------------------------- raw HTTP: routing


@pytest.mark.parametrize("method", ["POST", "GET"])
async def test_non_local_host_header_is_refused(mcp_lab: LabServer, method: str) -> None:
    async with raw_client() as http:
        r = await http.request(
            method,
            mcp_lab.mcp_url(),
            headers={**STREAMABLE, **mcp_lab.auth(), "Host": "evil.example.com"},
            json=INITIALIZE if method == "POST" else None,
        )
    assert r.status_code == 403
    assert "mcp-session-id" not in r.headers
    assert "jupyter-mcp-lab" not in r.text


async def test_refused_host_logs_no_traceback(mcp_lab: LabServer, caplog: pytest.LogCaptureFixture) -> None:
    async with raw_client() as http:
        r = await http.post(
            mcp_lab.mcp_url(),
            headers={**STREAMABLE, **mcp_lab.auth(), "Host": "evil.example.com"},
            json=INITIALIZE,
        )
    assert r.status_code == 403
    assert server_log_problems(caplog.records) == []


async def test_local_host_names_are_accepted(mcp_lab: LabServer) -> None:
    async with raw_client() as http:
        for host in (f"localhost:{mcp_lab.port}", f"127.0.0.1:{mcp_lab.port}"):
            r = await http.post(
                mcp_lab.mcp_url(),
                headers={**STREAMABLE, **mcp_lab.auth(), "Host": host},
                json=INITIALIZE,
            )
            assert r.status_code == 200, (host, r.status_code, r.text)
            assert r.headers["mcp-session-id"]


@pytest.mark.parametrize("profile", ["nope", "vmark"])
async def test_unknown_or_disabled_profile_is_404(mcp_lab: LabServer, profile: str) -> None:
    async with raw_client() as http:
        r = await http.post(mcp_lab.mcp_url(profile), headers={**STREAMABLE, **mcp_lab.auth()}, json=INITIALIZE)
    assert r.status_code == 404
    assert "mcp-session-id" not in r.headers
    assert r.json() == {"error": "not_found", "message": f"No MCP profile {profile!r} is enabled on this server."}


@pytest.mark.parametrize("mcp_profiles", [["lab"]], ids=["lab-only"])
async def test_profile_not_configured_is_404(mcp_lab: LabServer, mcp_client: Any) -> None:
    async with raw_client() as http:
        r = await http.post(
            mcp_lab.mcp_url("conformance"),
            headers={**STREAMABLE, **mcp_lab.auth()},
            json=INITIALIZE,
        )
        assert r.status_code == 404
        status = (await http.get(mcp_lab.status_url, headers=mcp_lab.auth())).json()
    assert [e["profile"] for e in status["endpoints"]] == ["lab"]
    async with mcp_client() as client:
        state = await get_state(client)
    assert [p["profile"] for p in state["capabilities"]["profiles"]] == ["lab"]


# --------------------------------------------------------------------------- the status route


async def test_status_route_requires_auth(mcp_lab: LabServer) -> None:
    async with raw_client() as http:
        r = await http.get(mcp_lab.status_url)
        assert r.status_code == 401
        assert "endpoints" not in r.text
        r = await http.get(mcp_lab.status_url, headers={"Authorization": "token wrong-token"})
        assert r.status_code == 401
        assert "endpoints" not in r.text


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])  # the default, shown
@pytest.mark.parametrize("scheme", ["token", "Bearer"])
async def test_status_route_lists_endpoints(mcp_lab: LabServer, scheme: str) -> None:
    async with raw_client() as http:
        r = await http.get(mcp_lab.status_url, headers=mcp_lab.auth(scheme))
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    status = r.json()
    assert status["version"] == __version__
    assert status["running"] is True
    assert status["approval"] == "suggest"
    assert status["read_only"] is False
    assert status["base_url"] == "/"
    # (each endpoint also has its ready-to-paste client configs: tests/server/api/test_status.py)
    assert [{k: e[k] for k in ("profile", "path", "url")} for e in status["endpoints"]] == [
        {"profile": "lab", "path": "/mcp", "url": mcp_lab.mcp_url("lab")},
        {
            "profile": "conformance",
            "path": "/mcp-lab/conformance/mcp",
            "url": mcp_lab.mcp_url("conformance"),
        },
    ]


async def test_status_counts_tool_calls(mcp_lab: LabServer, mcp_client: Any) -> None:
    async with raw_client() as http:
        before = (await http.get(mcp_lab.status_url, headers=mcp_lab.auth())).json()["activity"]
        async with mcp_client() as client:
            await get_state(client)
            await get_state(client)
        after = (await http.get(mcp_lab.status_url, headers=mcp_lab.auth())).json()["activity"]
    assert after == before + 2


async def test_server_is_reachable_from_another_process(mcp_lab: LabServer) -> None:
    """The test server listens on a real TCP port: a separate process gets through."""
    code = (
        "import json, sys, urllib.request\n"
        "req = urllib.request.Request(sys.argv[1], headers={'Authorization': sys.argv[2]})\n"
        "print(json.dumps(json.load(urllib.request.urlopen(req, timeout=20))))\n"
    )
    result = await run_process(sys.executable, "-c", code, mcp_lab.status_url, f"token {mcp_lab.token}", time_limit=60)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert [e["url"] for e in status["endpoints"]] == [
        mcp_lab.mcp_url("lab"),
        mcp_lab.mcp_url("conformance"),
    ]
