"""jupyter-mcp-lab in the single-user servers of a real JupyterHub (issue 14).

Everything goes through the Hub's proxy at ``{hub}/user/<name>/`` as people and agents reach
it: agents with the official MCP SDK client and their person's agent key, people with their
Hub API token. alice's and bob's servers are separate processes with separate homes; each
test says which of the two may see what.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import nbformat
import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from tests.conftest import Tools, open_mcp_client
from tests.hub.conftest import documented_policy
from tests.hub.hub import Hub
from tests.kernel_tools.kernel_session import kernel
from tests.labext.conftest import Lab

# A Hub and two servers start within the first test's time (minutes on a busy machine).
pytestmark = pytest.mark.timeout(420)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}},
}
STREAMABLE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def rest(hub: Hub, user: str, method: str, route: str, *, as_user: str | None = None, **kwargs: Any) -> httpx.Response:
    """A call to ``user``'s review REST API through the proxy, with the Hub token of ``as_user``
    (default: the server's owner)."""
    caller = hub.users[as_user or user]
    return httpx.request(
        method, hub.server_url(user, f"mcp-lab/api/{route}"), headers=caller.headers, timeout=30, **kwargs
    )


def ok(response: httpx.Response) -> Any:
    assert response.is_success, f"{response.status_code}: {response.text}"
    return response.json()


def replace(find: str, by: str, path: str) -> dict[str, Any]:
    return {"path": path, "edits": [{"op": "find_replace", "find": find, "replace": by}]}


# --------------------------------------------------------------------------- the servers


def test_each_users_server_runs_the_extension_under_their_prefix(hub: Hub) -> None:
    policy = documented_policy()["MCPLabApp"]
    for name, user in hub.users.items():
        status = ok(rest(hub, name, "GET", "status"))
        assert status["running"] and status["base_url"] == f"/user/{name}/"
        # The operator's policy; the user's own ~/.jupyter says approval 'auto' (ignored).
        assert status["approval"] == policy["approval"] == "suggest"
        # The panel's URLs and configs: the Hub's address, the user's prefix.
        paths = {"lab": "mcp", "vmark": "mcp-lab/vmark/mcp", "vmark2": "mcp-lab/vmark2/mcp"}
        assert {e["profile"]: e["url"] for e in status["endpoints"]} == {
            p: hub.server_url(name, paths[p]) for p in policy["profiles"]
        }
        for endpoint in status["endpoints"]:
            assert all(endpoint["url"] in c["text"] for c in endpoint["configs"]), endpoint["configs"]
        # Its records: under the user's own home (their volume on Zero to JupyterHub).
        assert Path(status["store"]["path"]).is_relative_to(user.home), status["store"]["path"]


def test_issued_keys_answer_configs_with_the_hubs_address(hub: Hub) -> None:
    issued = ok(rest(hub, "alice", "POST", "keys", json={"name": "vs-code-config"}))
    [lab] = [e for e in issued["endpoints"] if e["profile"] == "lab"]
    assert lab["url"] == hub.server_url("alice", "mcp")
    vscode = json.loads(next(c["text"] for c in lab["configs"] if c["client"] == "vscode"))
    server = vscode["servers"]["jupyter-lab"]
    assert server == {
        "type": "http",
        "url": hub.server_url("alice", "mcp"),
        "headers": {"Authorization": f"Bearer {issued['secret']}"},
    }
    ok(rest(hub, "alice", "DELETE", "keys/vs-code-config"))


# --------------------------------------------------------------------------- an agent at work


async def test_an_agent_with_alices_key_stages_a_suggestion_she_accepts(hub: Hub) -> None:
    alice = hub.users["alice"]
    plan = "# Plan\n\nThe review is due on Friday.\n"
    (alice.home / "plan.md").write_text(plan)
    async with open_mcp_client(hub.server_url("alice", "mcp"), bearer(alice.key), client_name="some-agent") as client:
        tools = Tools(client)
        state = await tools.ok("session", "get_state")
        staged = await tools.ok("document", "edit", mode="apply", **replace("Friday", "Monday", "plan.md"))
    assert state["caller"]["clientName"] == "alice-agent"  # who the key says, not what the client claims
    assert state["capabilities"]["profiles"][0]["url"] == hub.server_url("alice", "mcp")
    assert (staged["mode"], staged["applied"]) == ("suggest", False)  # the operator's policy: alice decides
    assert (alice.home / "plan.md").read_text() == plan

    [suggestion] = ok(rest(hub, "alice", "GET", "suggestions", params={"path": "plan.md"}))["suggestions"]
    assert (suggestion["author"], suggestion["status"]) == ("alice-agent", "pending")
    ok(rest(hub, "alice", "POST", f"suggestions/{suggestion['id']}/accept"))
    assert (alice.home / "plan.md").read_text() == plan.replace("Friday", "Monday")
    # Nothing of it on bob's server.
    assert ok(rest(hub, "bob", "GET", "suggestions"))["suggestions"] == []
    assert not (hub.users["bob"].home / "plan.md").exists()


async def test_alices_hub_token_opens_her_endpoint_as_her(hub: Hub) -> None:
    alice = hub.users["alice"]
    async with open_mcp_client(hub.server_url("alice", "mcp"), alice.headers, client_name="alice-script") as client:
        state = await Tools(client).ok("session", "get_state")
    assert state["caller"]["username"] == "alice"


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("credential", "status"),
    [
        ("bob's key", 401),  # unknown on alice's server: keys belong to a user's own server
        ("bob's Hub token", 403),  # the Hub knows bob, who has no access to alice's server
        ("alice's token without access to her server", 403),
        ("nothing", 401),
    ],
)
async def test_alices_endpoint_refuses(hub: Hub, credential: str, status: int) -> None:
    headers = {
        "bob's key": bearer(hub.users["bob"].key),
        "bob's Hub token": hub.users["bob"].headers,
        "alice's token without access to her server": {
            "Authorization": f"token {hub.new_token('alice', scopes=['read:users!user=alice'])}"
        },
        "nothing": {},
    }[credential]
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(hub.server_url("alice", "mcp"), json=INITIALIZE, headers={**STREAMABLE, **headers})
    assert r.status_code == status, r.text
    body = r.json()
    assert body["message"] and "result" not in body  # a JSON refusal, never tools
    if status == 401:
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
    else:
        assert "has no access to this server" in body["message"], body


def test_alices_key_opens_nothing_but_her_mcp_endpoints(hub: Hub) -> None:
    key = bearer(hub.users["alice"].key)
    for route in ("mcp-lab/api/status", "mcp-lab/api/suggestions", "api/contents", "api/kernels"):
        r = httpx.get(hub.server_url("alice", route), headers=key, timeout=30, follow_redirects=False)
        assert r.status_code == 403, (route, r.status_code, r.text[:200])


def test_bobs_hub_token_opens_nothing_of_alices(hub: Hub) -> None:
    r = rest(hub, "alice", "GET", "suggestions", as_user="bob")
    assert r.status_code == 403 and "has no access to this server" in r.json()["message"], r.text
    r = httpx.get(hub.server_url("alice", "api/contents"), headers=hub.users["bob"].headers, timeout=30)
    assert r.status_code == 403


# --------------------------------------------------------------------------- the lab bridge


async def bridge(hub: Hub, user: str, headers: dict[str, str]) -> Any:
    url = hub.server_url(user, "mcp-lab/api/bridge").replace("http://", "ws://")
    return await websocket_connect(HTTPRequest(url, headers=headers, connect_timeout=30))


async def test_the_lab_bridge_under_the_prefix(hub: Hub) -> None:
    alice = hub.users["alice"]
    ws = await bridge(hub, "alice", alice.headers)
    try:
        await ws.write_message(json.dumps({"type": "hello", "clientId": "hub-tab", "userAgent": "pytest"}))
        welcome = json.loads(await asyncio.wait_for(ws.read_message(), 30))
        assert welcome["type"] == "welcome", welcome
        async with open_mcp_client(hub.server_url("alice", "mcp"), bearer(alice.key)) as client:
            windows = (await Tools(client).ok("session", "get_state"))["windows"]
        assert [w["label"] for w in windows if w["labClient"]] == [welcome["window"]], windows
    finally:
        ws.close()
    for headers in (bearer(alice.key), hub.users["bob"].headers):
        with pytest.raises(HTTPClientError) as refused:
            await bridge(hub, "alice", headers)
        assert refused.value.code == 403


# --------------------------------------------------------------------------- isolation


async def test_users_are_isolated(hub: Hub) -> None:
    alice, bob = hub.users["alice"], hub.users["bob"]
    (alice.home / "diary.md").write_text("# Diary\n\nA private line.\n")
    # Keys: each server lists its own user's.
    for user, other in ((alice, bob), (bob, alice)):
        names = {k["name"] for k in ok(rest(hub, user.name, "GET", "keys"))["keys"]}
        assert f"{user.name}-agent" in names and f"{other.name}-agent" not in names
    # Grants and checkpoints: alice lets her agent apply directly to her diary.
    grant = {"scope": "diary.md", "agent": "alice-agent", "agentKind": "client", "minutes": 5}
    ok(rest(hub, "alice", "POST", "grants", json=grant))
    async with open_mcp_client(hub.server_url("alice", "mcp"), bearer(alice.key)) as client:
        applied = await Tools(client).ok("document", "edit", mode="apply", **replace("private", "secret", "diary.md"))
    assert applied["applied"] is True
    assert applied["checkpointId"] in {c["id"] for c in ok(rest(hub, "alice", "GET", "checkpoints"))["checkpoints"]}
    assert ok(rest(hub, "bob", "GET", "grants"))["grants"] == []
    assert ok(rest(hub, "bob", "GET", "checkpoints"))["checkpoints"] == []
    # bob's agent on bob's server: alice's files, history and activity are not there.
    async with open_mcp_client(hub.server_url("bob", "mcp"), bearer(bob.key)) as client:
        tools = Tools(client)
        missing = await tools.fail("workspace", "open", filePath="diary.md")
        recent = await tools.ok("workspace", "recent")
    assert missing["error"] == "INVALID_PATH" and "no file 'diary.md'" in missing["message"], missing
    assert "diary.md" not in json.dumps(recent)
    assert {e["client"] for e in ok(rest(hub, "bob", "GET", "activity"))["entries"]} <= {"bob-agent"}
    # Their stores: each in its own home, none shared.
    stores = {u.name: Path(ok(rest(hub, u.name, "GET", "status"))["store"]["path"]) for u in (alice, bob)}
    assert stores["alice"].is_relative_to(alice.home) and stores["bob"].is_relative_to(bob.home)


# --------------------------------------------------------------------------- in alice's kernel

CONNECT = """\
from kernel_tools import connect
lab = connect()
print("url:", lab.target.url)
"""
CALL = """\
found = lab.call("document", action="search", path="plan.md", query="due")
print("count:", found["count"])
print("caller:", lab.call("session", action="get_state")["caller"]["username"])
lab.close()
"""
CONFIG = "!python -m jupyter_mcp_lab config --client claude-code --key-name hub-terminal"


def test_connect_in_alices_kernel_finds_her_server(hub: Hub) -> None:
    alice = hub.users["alice"]
    (alice.home / "plan.md").write_text("# Plan\n\nThe review is due on Monday.\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (CONNECT, CALL, CONFIG)])
    server = Lab(hub.server_url("alice").rstrip("/"), alice.token, alice.home)
    with kernel(server, timeout=180) as session:
        for cell in notebook.cells:
            ran = session.execute(cell.source, timeout=180)
            assert ran.status == "ok", ran.out
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=ran.out)]
    connected, called, config = (cell.outputs[0]["text"] for cell in notebook.cells)
    # No arguments: the Hub's variables in the kernel (JUPYTERHUB_SERVICE_URL, JUPYTERHUB_API_TOKEN).
    assert "found by JupyterHub (JUPYTERHUB_SERVICE_URL, JUPYTERHUB_API_TOKEN)" in connected, connected
    assert "/user/alice/mcp" in connected
    assert "count: 1" in called and "caller: alice" in called, called
    # The terminal's configs carry the Hub's address, not the server's inside the Hub.
    assert f"claude mcp add --transport http jupyter-lab {hub.server_url('alice', 'mcp')} " in config, config
    assert "hub-terminal" in {k["name"] for k in ok(rest(hub, "alice", "GET", "keys"))["keys"]}
    nbformat.write(notebook, alice.home / "connect-on-the-hub.ipynb")  # as executed, for a person to look at


# --------------------------------------------------------------------------- last: a stop


def test_the_hub_stops_alices_server_at_once(hub: Hub) -> None:
    """The Hub stops a local server with SIGINT: it must end at once with every extension
    stopped, not wait out the Hub's patience (30 s here) for SIGTERM. Runs last: alice's
    server is gone after it."""
    assert ok(rest(hub, "alice", "GET", "status"))["running"]
    started = time.monotonic()
    r = hub.api("DELETE", "users/alice/server")
    assert r.status_code in (202, 204), r.text
    while hub.api("GET", "users/alice").json()["servers"] and time.monotonic() - started < 60:
        time.sleep(0.2)
    took = time.monotonic() - started
    assert took < 20, f"alice's server took {took:.1f} s to stop"
    assert "jupyter-mcp-lab: SIGINT from JupyterHub: stopping the server" in hub.log()
