"""The official TypeScript SDK client (``tests/js/ts-client.mjs``) on the system Node."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab import __version__
from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ..conftest import LabServer, NodeTools, run_process

pytestmark = pytest.mark.node


async def ts_client(
    node: NodeTools, tmp_path: Path, url: str, authorization: str = "", name: str = "ts-sdk"
) -> tuple[int, dict[str, Any]]:
    result = await run_process(
        node.node20,
        str(node.js_dir / "ts-client.mjs"),
        url,
        authorization,
        name,
        cwd=tmp_path,
        time_limit=60,
    )
    lines = result.stdout.strip().splitlines()
    assert lines, f"no output (exit {result.returncode})\n{result.stderr}"
    try:
        return result.returncode, json.loads(lines[-1])
    except json.JSONDecodeError:
        pytest.fail(f"not JSON: {result.stdout!r}\n{result.stderr}")


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])  # the default, shown
@pytest.mark.parametrize("scheme", ["token", "Bearer"])
async def test_ts_sdk_client_gets_session_state(
    node: NodeTools, mcp_lab: LabServer, tmp_path: Path, scheme: str
) -> None:
    code, out = await ts_client(node, tmp_path, mcp_lab.mcp_url(), f"{scheme} {mcp_lab.token}", "ts-agent-" + scheme)
    assert code == 0, out
    assert out["ok"] is True
    assert out["protocolVersion"] == "2025-11-25"
    assert out["serverInfo"]["name"] == "jupyter-mcp-lab"
    assert out["serverInfo"]["version"] == __version__
    assert {"name": "session", "hasOutputSchema": True, "readOnlyHint": True} in out["tools"]

    assert out["state"]["isError"] is False
    state = out["state"]["structuredContent"]
    assert state["windows"][0]["label"] == "main"
    assert state["capabilities"]["version"] == __version__
    assert state["capabilities"]["approval"] == "suggest"
    assert state["capabilities"]["mcpProtocol"] == "2025-11-25"
    assert [p["url"] for p in state["capabilities"]["profiles"]] == [
        mcp_lab.mcp_url("lab"),
        mcp_lab.mcp_url("conformance"),
    ]
    caller = state["caller"]
    assert caller["clientName"] == "ts-agent-" + scheme
    assert caller["clientVersion"] == "1.2.3"
    assert caller["username"] == LOCAL_USER
    # The SDK's session id is the one the server's tools see.
    assert caller["sessionId"] == out["sessionId"]

    again = out["again"]["structuredContent"]
    assert again["caller"]["username"] == caller["username"]
    assert again["caller"]["sessionId"] == caller["sessionId"]


async def test_ts_sdk_client_on_the_conformance_profile_lists_its_tools(
    node: NodeTools, mcp_lab: LabServer, tmp_path: Path
) -> None:
    code, out = await ts_client(node, tmp_path, mcp_lab.mcp_url("conformance"), f"token {mcp_lab.token}")
    assert code == 0, out
    assert out["serverInfo"]["name"] == "mcp-conformance-test-server"
    names = {t["name"] for t in out["tools"]}
    assert {"test_simple_text", "test_sampling", "test_elicitation"} <= names
    assert "session" not in names
    # Each profile is its own server: the lab's `session` tool is unknown here.
    assert out["state"]["isError"] is True


@pytest.mark.parametrize("authorization", ["", "token wrong-token"], ids=["no-header", "wrong-token"])
async def test_ts_sdk_client_is_refused_with_401(
    node: NodeTools, mcp_lab: LabServer, tmp_path: Path, authorization: str
) -> None:
    code, out = await ts_client(node, tmp_path, mcp_lab.mcp_url(), authorization)
    assert code == 2, out
    assert out["ok"] is False
    assert out["stage"] == "connect"
    assert out["code"] == 401
    assert "agent key or the person's Jupyter token is required" in out["message"]
