"""Trust grants through the REST API: a granted agent's edits apply at once (as checkpoints),
everyone else's still wait for the person, and revoking ends it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ...conftest import CLIENT_NAME, LabServer, Tools
from .conftest import DOC, Api, assert_error, on_disk


async def edit(tools: Tools, find: str, replace: str, path: str = "notes.md") -> dict[str, Any]:
    return await tools.ok(
        "document", "edit", path=path, edits=[{"op": "find_replace", "find": find, "replace": replace}]
    )


async def test_client_grant_applies_directly_until_revoked(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path
) -> None:
    (root / "other.md").write_text("other text\n", encoding="utf-8")
    new = {"scope": "notes.md", "agent": CLIENT_NAME, "agentKind": "client", "minutes": 5}
    grant = await api.ok("POST", "grants", new, expect=201)
    assert (grant["scope"], grant["agent"], grant["agentKind"]) == ("notes.md", CLIENT_NAME, "client")
    assert (grant["createdBy"], grant["revoked"], grant["active"]) == (LOCAL_USER, None, True)
    assert grant["expires"] - grant["created"] == pytest.approx(300)
    assert (await api.ok("GET", "grants"))["grants"] == [grant]

    async with agent() as tools:
        applied = await edit(tools, "alpha", "ALPHA")
        elsewhere = await edit(tools, "other", "OTHER", path="other.md")
    assert (applied["mode"], applied["applied"]) == ("apply", True)
    assert on_disk(root) == DOC.replace("alpha", "ALPHA")
    # Still a checkpoint a person can see and revert.
    cp = await api.ok("GET", f"checkpoints/{applied['checkpointId']}")
    assert (cp["source"], cp["grantId"], cp["author"]) == ("grant", grant["id"], CLIENT_NAME)
    # The grant names one document: the other one's edit waits for the person.
    assert (elsewhere["mode"], elsewhere["applied"]) == ("suggest", False)
    assert on_disk(root, "other.md") == "other text\n"
    # And one agent: another client's edit waits too.
    async with agent(client_name="another-agent") as tools:
        assert (await edit(tools, "beta", "BETA"))["mode"] == "suggest"

    revoked = await api.ok("DELETE", f"grants/{grant['id']}")
    assert revoked["id"] == grant["id"]
    assert revoked["revoked"] is not None and revoked["active"] is False
    async with agent() as tools:
        assert (await edit(tools, "gamma", "GAMMA"))["mode"] == "suggest"
    assert on_disk(root) == DOC.replace("alpha", "ALPHA")

    assert_error(await api.delete(f"grants/{grant['id']}"), 409, "CONFLICT")
    assert_error(await api.delete("grants/grant-000000000000"), 404, "NOT_FOUND")
    assert (await api.ok("GET", "grants", active="true"))["grants"] == []
    assert [g["id"] for g in (await api.ok("GET", "grants", active="false"))["grants"]] == [grant["id"]]
    assert [g["id"] for g in (await api.ok("GET", "grants"))["grants"]] == [grant["id"]]


async def test_session_grant_from_the_status_agents(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        await tools.ok("session", "get_state")
        status = await api.ok("GET", "status")
        [me] = status["agents"]
        assert (me["client"], me["calls"]) == (CLIENT_NAME, 1)
        assert me["session"] and me["user"] and me["lastActivity"] > 0
        new = {"scope": "", "agent": me["session"], "agentKind": "session", "minutes": 1}
        await api.ok("POST", "grants", new, expect=201)
        assert (await edit(tools, "alpha", "ALPHA"))["applied"] is True
    # Another session of the same client program is not the one the person trusted.
    async with agent() as tools:
        assert (await edit(tools, "beta", "BETA"))["mode"] == "suggest"
    assert on_disk(root) == DOC.replace("alpha", "ALPHA")
    status = await api.ok("GET", "status")
    assert status["pending"] == 1
    assert len(status["agents"]) == 2 and status["agents"][0]["session"] != me["session"]  # most recent first


async def test_folder_scopes_are_normalized(mcp_lab: LabServer, api: Api, root: Path) -> None:
    for scope, stored in (("/notes/./", "notes/"), ("notes//a.md", "notes/a.md"), ("/", ""), ("", "")):
        new = {"scope": scope, "agent": "a", "agentKind": "client", "minutes": 0.5}
        assert (await api.ok("POST", "grants", new, expect=201))["scope"] == stored, scope


@pytest.mark.parametrize(
    ("change", "code", "argument"),
    [
        ({"minutes": 0}, "INVALID_ARGUMENT", "minutes"),
        ({"minutes": -5}, "INVALID_ARGUMENT", "minutes"),
        ({"minutes": 7 * 24 * 60 + 1}, "INVALID_ARGUMENT", "minutes"),
        ({"minutes": "5"}, "INVALID_ARGUMENT", "minutes"),
        ({"minutes": True}, "INVALID_ARGUMENT", "minutes"),
        ({"agentKind": "bot"}, "INVALID_ARGUMENT", "agentKind"),
        ({"agent": ""}, "INVALID_ARGUMENT", "agent"),
        ({"agent": None}, "INVALID_ARGUMENT", "agent"),
        ({"scope": "../outside"}, "INVALID_PATH", "scope"),
        ({"scope": "notes/../../x"}, "INVALID_PATH", "scope"),
        ({"scope": "a\u0000b"}, "INVALID_PATH", "scope"),
        ({"scope": 3}, "INVALID_ARGUMENT", "scope"),
        ({"extra": 1}, "INVALID_ARGUMENT", "extra"),
    ],
)
async def test_invalid_grants_are_refused(
    mcp_lab: LabServer, api: Api, root: Path, change: dict[str, Any], code: str, argument: str
) -> None:
    new = {"scope": "notes.md", "agent": "a", "agentKind": "client", "minutes": 5, **change}
    body = assert_error(await api.post("grants", new), 400, code)
    assert body["argument"] == argument
    assert (await api.ok("GET", "grants"))["grants"] == []


async def test_missing_fields_and_bad_filters(mcp_lab: LabServer, api: Api, root: Path) -> None:
    body = assert_error(
        await api.post("grants", {"agent": "a", "agentKind": "client", "minutes": 5}), 400, "INVALID_ARGUMENT"
    )
    assert body["argument"] == "scope"
    for value in ("yes", "1", "True"):
        assert assert_error(await api.get("grants", active=value), 400, "INVALID_ARGUMENT")["argument"] == "active"
