"""The mutation plumbing every changing operation shares (ops/targets.py): which document a
change goes to, when it is saved, the kind check, and ``mutate`` in each mode the policy
allows (what it reports, what it stages, what it leaves), without a surface in between."""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops.context import Caller, OpContext, Services
from jupyter_mcp_lab.ops.targets import MutationParams, SavingParams, change_document, require_kind
from tests.helpers import make_services

TEXT = "# Title\n\nOne.\n\nTwo.\n"


def workspace(tmp_path: Path, approval: str = "auto") -> tuple[Services, OpContext, Path]:
    services = make_services(tmp_path, approval=approval)
    root = services.settings.root_dir
    (root / "doc.md").write_text(TEXT)
    return services, OpContext(services, Caller("ada", "Ada", "agent", "1", "session-1", "lab")), root


def upper(text: str) -> str:
    return text.replace("One.", "ONE.")


async def test_changes_by_path_are_saved_and_changes_to_a_tab_wait(tmp_path: Path) -> None:
    services, _, _ = workspace(tmp_path)
    tab = services.workspace.show(await services.docs.open("doc.md"), services.workspace.windows["main"], "s")
    assert SavingParams(path="doc.md").saves(None) is True
    assert SavingParams(tabId=tab.id).saves(tab) is False
    assert SavingParams(tabId=tab.id, save=True).saves(tab) is True
    assert SavingParams(path="doc.md", save=False).saves(None) is False


async def test_require_kind_names_the_kind_it_found(tmp_path: Path) -> None:
    services, _, _ = workspace(tmp_path)
    doc = await services.docs.open("doc.md")
    require_kind(doc, "markdown")
    with pytest.raises(DomainError) as info:
        require_kind(doc, "notebook", "text")
    assert (info.value.code, info.value.details) == ("INVALID_ARGUMENT", {"kind": "markdown"})
    assert "needs notebook or text" in info.value.message
    with pytest.raises(DomainError) as info:
        require_kind(doc, "yaml-workflow")
    assert info.value.code == "NOT_WORKFLOW"


async def test_apply_saves_and_keeps_a_checkpoint(tmp_path: Path) -> None:
    services, ctx, root = workspace(tmp_path)
    result = await change_document(
        ctx, MutationParams(path="doc.md", expected_revision=revision_of(TEXT)), upper, label="up"
    )
    assert (root / "doc.md").read_text() == upper(TEXT)
    assert (result.applied, result.changed, result.mode, result.filePath) == (True, True, "apply", "doc.md")
    assert result.revision == revision_of(upper(TEXT)) and (result.diff, result.suggestionIds) == (None, None)
    assert result.change is not None
    assert (result.change.removed, result.change.inserted, result.change.lineStart) == ("ne", "NE", 3)
    [checkpoint] = services.reviews.store.list_checkpoints("doc.md")
    assert result.checkpointId == checkpoint.id


async def test_dry_run_and_suggest_change_nothing_yet(tmp_path: Path) -> None:
    services, ctx, root = workspace(tmp_path, approval="suggest")
    dry = await change_document(ctx, MutationParams(path="doc.md", mode="dryRun"), upper, label="up")
    # A dry run reports the revision the change would make; a suggestion leaves the document's.
    assert (dry.applied, dry.changed, dry.revision) == (False, True, revision_of(upper(TEXT)))
    assert dry.diff and "+ONE." in dry.diff and dry.suggestionIds is None
    staged = await change_document(ctx, MutationParams(path="doc.md"), upper, label="up")  # the policy: suggest
    assert (staged.mode, staged.applied, staged.revision) == ("suggest", False, revision_of(TEXT))
    assert staged.suggestionIds and [s.id for s in services.reviews.pending("doc.md")] == staged.suggestionIds
    assert (root / "doc.md").read_text() == TEXT and services.reviews.store.list_checkpoints("doc.md") == []


async def test_no_change_is_reported_as_such(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    result = await change_document(ctx, MutationParams(path="doc.md"), TEXT, label="same")
    assert (result.applied, result.changed, result.change) == (False, False, None)
    assert (root / "doc.md").read_text() == TEXT


async def test_a_stale_revision_or_the_wrong_kind_changes_nothing(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    with pytest.raises(DomainError) as info:
        await change_document(ctx, MutationParams(path="doc.md", expected_revision="rev-old"), upper, label="up")
    assert info.value.code == "STALE"
    with pytest.raises(DomainError) as info:
        await change_document(ctx, MutationParams(path="doc.md"), upper, label="up", kinds=("yaml-workflow",))
    assert info.value.code == "NOT_WORKFLOW"
    assert (root / "doc.md").read_text() == TEXT
