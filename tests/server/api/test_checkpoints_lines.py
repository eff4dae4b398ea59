"""What the panel shows beside each checkpoint: the lines the change touched and the agent's
rationale, stored with each checkpoint (the REST API adds the lines from the stored texts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...conftest import CLIENT_NAME, LabServer
from .conftest import DOC, Api, on_disk

# DOC's lines: 1 "# Notes", 3 "alpha line", 5 "beta line", 7 "gamma line".


async def test_lines_and_rationale_in_list_detail_and_revert(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path
) -> None:
    async with agent() as tools:
        staged = await tools.ok(
            "document",
            "edit",
            path="notes.md",
            edits=[{"op": "find_replace", "find": "beta", "replace": "BETA"}],
            rationale="Shout the second item.",
        )
    [sid] = staged["suggestionIds"]
    await api.ok("POST", f"suggestions/{sid}/accept")

    # A granted edit across lines 3-5 applies at once, with its rationale.
    grant = {"scope": "notes.md", "agent": CLIENT_NAME, "agentKind": "client", "minutes": 5}
    await api.ok("POST", "grants", grant, expect=201)
    async with agent() as tools:
        applied = await tools.ok(
            "document",
            "edit",
            path="notes.md",
            edits=[{"op": "find_replace", "find": "alpha line\n\nBETA", "replace": "ALPHA line\n\nBeta"}],
            rationale="Swap the case.",
        )
    assert applied["mode"] == "apply"

    granted, accepted = (await api.ok("GET", "checkpoints"))["checkpoints"]
    assert (accepted["source"], accepted["lineStart"], accepted["lineEnd"]) == ("accepted", 5, 5)
    assert accepted["rationale"] == "Shout the second item."
    assert (granted["source"], granted["lineStart"], granted["lineEnd"]) == ("grant", 3, 5)
    assert granted["rationale"] == "Swap the case."

    detail = await api.ok("GET", f"checkpoints/{accepted['id']}")
    assert (detail["lineStart"], detail["lineEnd"], detail["rationale"]) == (5, 5, "Shout the second item.")

    # The revert's own checkpoint has the lines too (a person's, no rationale).
    undo = await api.ok("POST", f"checkpoints/{granted['id']}/revert")
    assert (undo["source"], undo["lineStart"], undo["lineEnd"], undo["rationale"]) == ("revert", 3, 5, "")
    assert on_disk(root) == DOC.replace("beta", "BETA")


async def test_lines_stay_known_once_the_texts_are_pruned(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = (
            await tools.ok(
                "document", "edit", path="notes.md", edits=[{"op": "find_replace", "find": "gamma", "replace": "G"}]
            )
        )["suggestionIds"]
    await api.ok("POST", f"suggestions/{sid}/accept")
    [cp] = (await api.ok("GET", "checkpoints"))["checkpoints"]
    assert (cp["lineStart"], cp["lineEnd"]) == (7, 7)

    # No text is kept once no open suggestion needs it: the checkpoint's diff has its lines.
    assert mcp_lab.extension.services.reviews.store.prune_texts() >= 1
    [cp] = (await api.ok("GET", "checkpoints"))["checkpoints"]
    assert (cp["lineStart"], cp["lineEnd"]) == (7, 7)
    assert cp["old"] == "gamma" and cp["new"] == "G"
