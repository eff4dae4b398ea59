"""A whole-content write into an empty document the same agent created applies at once under the
default ``suggest`` policy (issue 12, finding 11; ops/review/gate.fills_own_new_document), as a
checkpoint a person can revert; every other write still goes through the policy.

Through the lab profile's tools over an in-process SDK client, on real services.
"""

from __future__ import annotations

from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of

EMPTY = revision_of("")


@pytest.fixture
def suggest(ops_client: Any) -> tuple[Any, Any]:
    return ops_client(approval="suggest")


async def test_the_first_content_of_an_own_new_document_applies_at_once(suggest: tuple[Any, Any]) -> None:
    services, open_tools = suggest
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "new"))["tabId"]
        first = await tools.ok("document", "write", tabId=tab, content="# Title\n\nHello.\n")
        assert (first["applied"], first["mode"], first["suggestionIds"]) == (True, "apply", None)
        assert first["revision"] == revision_of("# Title\n\nHello.\n") and first["checkpointId"]
        read = await tools.ok("document", "read", tabId=tab)
        assert (read["content"], read["dirty"]) == ("# Title\n\nHello.\n", True)
        # It is no longer empty: the next write is the person's to decide.
        second = await tools.ok("document", "write", tabId=tab, content="# Other\n")
        assert (second["applied"], second["mode"], len(second["suggestionIds"])) == (False, "suggest", 1)
        assert (await tools.ok("document", "read", tabId=tab))["content"] == "# Title\n\nHello.\n"
    [cp] = services.reviews.store.list_checkpoints()
    assert (cp.id, cp.source, cp.author, cp.before_revision) == (first["checkpointId"], "auto", "pytest-mcp-lab", EMPTY)
    # The person reverts it like any applied change.
    await services.reviews.revert(cp.id, by="person")
    [doc] = [t.doc for t in services.workspace.tabs() if t.id == tab]
    assert doc.text == ""


async def test_whitespace_counts_as_empty_as_in_vmark(suggest: tuple[Any, Any]) -> None:
    _, open_tools = suggest
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "new"))["tabId"]
        assert (await tools.ok("document", "write", tabId=tab, content="\n  \n"))["applied"] is True
        assert (await tools.ok("document", "write", tabId=tab, content="# T\n"))["applied"] is True
        assert (await tools.ok("document", "write", tabId=tab, content="# U\n"))["mode"] == "suggest"


async def test_another_agent_or_another_way_of_writing_is_staged(suggest: tuple[Any, Any]) -> None:
    services, open_tools = suggest
    async with open_tools() as mine, open_tools(name="other-agent") as other:
        tab = (await mine.ok("workspace", "new"))["tabId"]
        # Another agent's write into it: the person decides.
        theirs = await other.ok("document", "write", tabId=tab, content="# Theirs\n")
        assert (theirs["applied"], theirs["mode"]) == (False, "suggest")
        # The creator asking for a suggestion or a dry run gets what it asked for.
        asked = await mine.ok("document", "write", tabId=tab, content="# Mine\n", mode="suggest")
        assert (asked["applied"], asked["mode"]) == (False, "suggest")
        dry = await mine.ok("document", "write", tabId=tab, content="# Mine\n", mode="dryRun")
        assert (dry["applied"], dry["mode"]) == (False, "dryRun")
        # Any other change to the own empty document goes through the policy (no other write changes its path).
        edit = await mine.ok("document", "edit", tabId=tab, edits=[{"op": "insert", "at": 0, "text": "# E\n"}])
        assert (edit["applied"], edit["mode"]) == (False, "suggest")
        assert (await mine.ok("document", "read", tabId=tab))["content"] == ""
        # An empty file it did not create: staged as well.
        (services.settings.root_dir / "empty.md").write_text("")
        on_file = await mine.ok("document", "write", path="empty.md", content="# F\n")
        assert (on_file["applied"], on_file["mode"]) == (False, "suggest")
        assert (services.settings.root_dir / "empty.md").read_text() == ""
        # A stale expected_revision is still STALE, and changes nothing.
        stale = await mine.fail("document", "write", tabId=tab, content="# S\n", expected_revision="rev-000000000000")
        assert stale["error"] == "STALE"
        # The creator's plain write still applies.
        assert (await mine.ok("document", "write", tabId=tab, content="# Mine\n"))["applied"] is True
    assert services.reviews.store.list_checkpoints()[0].author == "pytest-mcp-lab"


async def test_under_auto_nothing_changes(ops_client: Any) -> None:
    _, open_tools = ops_client(approval="auto")
    async with open_tools() as tools:
        tab = (await tools.ok("workspace", "new"))["tabId"]
        assert (await tools.ok("document", "write", tabId=tab, content="# A\n"))["applied"] is True
        assert (await tools.ok("document", "write", tabId=tab, content="# B\n"))["applied"] is True
