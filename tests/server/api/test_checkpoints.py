"""Checkpoints through the REST API: applied agent changes, their diffs, and reverting them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ...conftest import CLIENT_NAME, LabServer
from .conftest import DOC, Api, assert_error, on_disk, suggest_replace


async def accept_one(api: Api, agent: Any, find: str, replace: str) -> dict[str, Any]:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, find, replace)
    await api.ok("POST", f"suggestions/{sid}/accept")
    [cp] = (await api.ok("GET", "checkpoints", limit=1))["checkpoints"]
    return cp


async def test_list_get_and_revert(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    first = await accept_one(api, agent, "alpha", "ALPHA")
    second = await accept_one(api, agent, "gamma", "GAMMA")
    after = DOC.replace("alpha", "ALPHA").replace("gamma", "GAMMA")
    assert on_disk(root) == after

    listed = await api.ok("GET", "checkpoints")
    assert [c["id"] for c in listed["checkpoints"]] == [second["id"], first["id"]]  # newest first
    assert listed["count"] == 2
    assert (second["source"], second["author"], second["path"]) == ("accepted", CLIENT_NAME, "notes.md")
    assert second["afterRevision"] == revision_of(after)
    assert second["revertedBy"] is None
    assert (await api.ok("GET", "checkpoints", path="notes.md"))["count"] == 2
    assert (await api.ok("GET", "checkpoints", path="other.md"))["count"] == 0

    detail = await api.ok("GET", f"checkpoints/{first['id']}")
    assert {k: v for k, v in detail.items() if k != "diff"} == first
    assert "-alpha line\n+ALPHA line\n" in detail["diff"]
    assert detail["diff"].startswith("--- a/notes.md\n+++ b/notes.md\n@@ -1,6 +1,6 @@\n # Notes\n")

    # Revert the older change: the newer one stays.
    undo = await api.ok("POST", f"checkpoints/{first['id']}/revert")
    assert (undo["source"], undo["old"], undo["new"]) == ("revert", "ALPHA", "alpha")
    assert (undo["author"], undo["user"]) == (LOCAL_USER, LOCAL_USER)
    assert on_disk(root) == DOC.replace("gamma", "GAMMA")
    assert (await api.ok("GET", f"checkpoints/{first['id']}"))["revertedBy"] == undo["id"]
    body = assert_error(await api.post(f"checkpoints/{first['id']}/revert"), 409, "CONFLICT")
    assert body["checkpointId"] == first["id"]
    assert on_disk(root) == DOC.replace("gamma", "GAMMA")

    # A revert is itself a checkpoint: reverting it re-applies the change.
    await api.ok("POST", f"checkpoints/{undo['id']}/revert")
    assert on_disk(root) == after


async def test_revert_refused_when_edited_since(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    cp = await accept_one(api, agent, "beta", "BETA")
    edited = DOC.replace("beta", "Beta, by hand")
    (root / "notes.md").write_text(edited, encoding="utf-8")
    body = assert_error(await api.post(f"checkpoints/{cp['id']}/revert"), 409, "CONFLICT")
    assert body["checkpointId"] == cp["id"]
    assert on_disk(root) == edited
    assert (await api.ok("GET", f"checkpoints/{cp['id']}"))["revertedBy"] is None


async def test_unknown_checkpoint_and_bad_parameters(mcp_lab: LabServer, api: Api, root: Path) -> None:
    assert_error(await api.get("checkpoints/cp-000000000000"), 404, "NOT_FOUND")
    assert_error(await api.post("checkpoints/cp-000000000000/revert"), 404, "NOT_FOUND")
    for params in ({"limit": "0"}, {"limit": "x"}, {"path": ""}, {"since": "1"}):
        body = assert_error(await api.get("checkpoints", **params), 400, "INVALID_ARGUMENT")
        assert body["argument"] == next(iter(params))
    assert await api.ok("GET", "checkpoints") == {"checkpoints": [], "count": 0}


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest", "read_only": True}])
async def test_read_only_server_refuses_to_change_documents(mcp_lab: LabServer, api: Api, root: Path) -> None:
    # Refused before anything is looked up: no document can change on this server.
    for route in ("checkpoints/cp-1/revert", "suggestions/sug-1/accept"):
        assert_error(await api.post(route), 403, "READ_ONLY")
    assert_error(await api.post("suggestions/accept-all", {"path": "notes.md"}), 403, "READ_ONLY")
    # Rejecting changes no document.
    assert_error(await api.post("suggestions/sug-1/reject"), 404, "NOT_FOUND")
    assert (await api.ok("POST", "suggestions/reject-all", {"path": "notes.md"})) == {"rejected": []}
