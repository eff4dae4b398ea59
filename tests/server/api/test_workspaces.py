"""Stores belong to a workspace (issue 12, finding 12).

Two servers on two roots share one data directory, as every lab and standalone server of
one OS user does by default: the lab under test (root B) and a standalone server's
services on project A, in this process. Before, A's suggestion on ``notes.md`` was listed
by B, and the person's Accept in B wrote A's suggested text into B's ``notes.md``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest_asyncio
from mcp.client import Client
from mcp_types import Implementation

from jupyter_mcp_lab.ops.context import Services, Settings
from jupyter_mcp_lab.surfaces import PROFILES, build_server

from ...conftest import CLIENT_NAME, CLIENT_VERSION, LabServer, Tools
from .conftest import DOC, Api, assert_error, on_disk, suggest_replace

SECRET = "# Notes\n\npassword = hello\n"


@pytest_asyncio.fixture
async def project_a(mcp_lab: LabServer, tmp_path: Path) -> AsyncIterator[Services]:
    """A standalone server's services on another root, with the lab's data directory."""
    root = tmp_path / "project-a"
    root.mkdir()
    (root / "notes.md").write_text(SECRET, encoding="utf-8")
    data_dir = Path(mcp_lab.extension.data_dir)
    services = Services(settings=Settings(root_dir=root, data_dir=data_dir, approval="suggest"), host="standalone")
    yield services
    services.close()


@asynccontextmanager
async def agent_of(services: Services) -> AsyncIterator[Tools]:
    server = build_server(PROFILES["lab"], services)
    async with Client(server, client_info=Implementation(name=CLIENT_NAME, version=CLIENT_VERSION)) as client:
        yield Tools(client)


async def test_another_roots_records_are_neither_seen_nor_acted_on(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path, project_a: Services
) -> None:
    # In A: a staged suggestion, a grant and (under it) an applied change, all on notes.md.
    async with agent_of(project_a) as tools:
        [in_a] = await suggest_replace(tools, "hello", "hunter2")
    grant = project_a.reviews.grant("notes.md", CLIENT_NAME, "client", 5, by="someone in A")
    async with agent_of(project_a) as tools:
        applied = await tools.ok(
            "document", "edit", path="notes.md", edits=[{"op": "find_replace", "find": "# Notes", "replace": "# A"}]
        )
    assert applied["applied"] is True

    # B lists none of them, and cannot act on them by id.
    listed = await api.ok("GET", "suggestions", status="all")
    assert listed["suggestions"] == [] and listed["counts"] == {}
    assert (await api.ok("GET", "checkpoints"))["checkpoints"] == []
    assert (await api.ok("GET", "grants"))["grants"] == []
    assert (await api.ok("GET", "status"))["pending"] == 0
    assert_error(await api.get(f"suggestions/{in_a}"), 404, "NOT_FOUND")
    assert_error(await api.post(f"suggestions/{in_a}/accept"), 404, "NOT_FOUND")
    assert_error(await api.post("suggestions/accept-all", {"ids": [in_a]}), 404, "NOT_FOUND")
    assert_error(await api.post(f"checkpoints/{applied['checkpointId']}/revert"), 404, "NOT_FOUND")
    assert_error(await api.delete(f"grants/{grant.id}"), 404, "NOT_FOUND")
    assert on_disk(root) == DOC  # B's notes.md never got A's text

    # A's grant does not let the agent apply in B: its edit there waits for B's person.
    async with agent() as tools:
        [in_b] = await suggest_replace(tools, "alpha", "ALPHA")
    assert on_disk(root) == DOC

    # And A sees none of B's: the stores are one file, the workspaces two.
    assert project_a.reviews.store.get(in_b) is None
    assert [s.id for s in project_a.reviews.store.list()] == [in_a]
    assert project_a.reviews.store.get(in_a) is not None and project_a.reviews.store.list_grants() == [grant]
    assert (Path(project_a.settings.root_dir) / "notes.md").read_text() == SECRET.replace("# Notes", "# A")


async def test_a_server_on_the_same_root_shares_them(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    # A standalone server on B's root (reached through a symlink, even) is the same workspace.
    link = root.parent / "link-to-root"
    link.symlink_to(root)
    same = Services(
        settings=Settings(root_dir=link, data_dir=Path(mcp_lab.extension.data_dir), approval="suggest"),
        host="standalone",
    )
    try:
        async with agent_of(same) as tools:
            [staged] = await suggest_replace(tools, "beta", "BETA")
        assert [s["id"] for s in (await api.ok("GET", "suggestions"))["suggestions"]] == [staged]
        await api.ok("POST", f"suggestions/{staged}/accept")
        assert on_disk(root) == DOC.replace("beta", "BETA")
        accepted = same.reviews.store.get(staged)
        assert accepted is not None and accepted.status == "accepted"
    finally:
        same.close()
