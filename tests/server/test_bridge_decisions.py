"""The person's Allow and Deny in JupyterLab are theirs in the activity log.

A fake JupyterLab on the real bridge websocket (test_bridge's) answers the confirm dialog;
an agent (the MCP SDK client) asks to run a command under the ``suggest`` policy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..conftest import LabServer
from .test_bridge import agent, fake_lab, root  # noqa: F401 (root: a fixture)


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest", "lab_confirm_timeout": 2.0}])
async def test_allow_and_deny_are_the_persons(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:  # noqa: F811
    async with fake_lab(mcp_lab) as lab, agent(mcp_client, name="careful-agent") as tools:
        decision = {"allowed": False}

        async def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
            if msg["method"] == "confirm":
                return {"ok": True, "result": {"allowed": decision["allowed"]}}
            return {"ok": True, "result": {"label": "About"}}

        lab.answer = answer
        assert (await tools.fail("lab", "run_command", command="help:about"))["decision"] == "denied"
        decision["allowed"] = True
        assert (await tools.ok("lab", "run_command", command="help:about"))["approvedBy"] == "person"

    async with httpx.AsyncClient() as http:
        r = await http.get(mcp_lab.url("mcp-lab/api/activity"), headers=mcp_lab.auth())
    entries = r.json()["entries"]
    person = [e for e in entries if e["actor"] == "person"]
    assert [e["tool"] for e in person] == ["lab.deny", "lab.allow"]
    assert all(e["user"] and e["session"] == "" for e in person)
    asked = json.loads(person[0]["fullArguments"])
    assert (asked["agent"], asked["command"], asked["window"]) == ("careful-agent", "help:about", "lab-1")
    assert [json.loads(e["result"]) for e in person] == [{"allowed": False}, {"allowed": True}]
    # The agent's own calls stay the agent's, after the person's answer to each.
    calls = [e["tool"] for e in entries if e["actor"] == "agent" and e["tool"].startswith("lab.")]
    assert calls == ["lab.run_command", "lab.run_command"]
