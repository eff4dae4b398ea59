"""Reviewing an agent's cell suggestions in the open notebook, in a real JupyterLab driven in
Debian's headless Chromium (one JupyterLab for the module).

A notebook is open; an agent (the official Python SDK client on the MCP endpoint, the lab
profile's ``notebook`` tool, ``approval=suggest``) suggests a source edit in a cell and a new
cell. The edited cell is marked, with a bar saying what changes, the diff of its source and
Accept / Reject; the new cell shows as a ghost bar after the cell it follows; the panel's
cards show the same as cell-level changes. Accepting on the cell writes the file and the
notebook shows the new source; rejecting the ghost takes it away and changes nothing;
accepting another inserted cell puts it in the notebook; a marked cell the person moves
keeps its mark; a bar's focused button keeps the focus across the marks' redraws.
Screenshots in ``test-artifacts/notebook-review-*.png``; axe-core finds no serious
violation in the bars or the cards, in the light and the dark theme.
"""

from __future__ import annotations

import json
import platform
import re
from collections.abc import Iterator
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tests.labext.conftest import ARTIFACTS, Lab, browser, open_panel, start_lab
from tests.labext.test_review_panel_browser import axe_violations, decline_news, describe, palette, use_theme

NB = "analysis.ipynb"
AGENT = "browser-test-agent"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with start_lab(tmp_path_factory.mktemp("notebook-review"), "--MCPLabApp.approval=suggest") as running:
        yield running


def notebook() -> nbformat.NotebookNode:
    return new_notebook(
        cells=[
            new_markdown_cell("# Analysis\n\nSums of small numbers.", id="intro"),
            new_code_cell(
                "import math\nprint(math.pi)",
                id="load",
                execution_count=1,
                outputs=[new_output("stream", name="stdout", text="3.141592653589793\n")],
            ),
            new_code_cell("total = sum(range(10))\ntotal", id="total"),
        ],
        # As the kernel reports it: JupyterLab writes it into the notebook on start (the
        # notebook would be dirty, and an accepted change would ask before reloading).
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
            "language_info": {
                "codemirror_mode": {"name": "ipython", "version": 3},
                "file_extension": ".py",
                "mimetype": "text/x-python",
                "name": "python",
                "nbconvert_exporter": "python",
                "pygments_lexer": "ipython3",
                "version": platform.python_version(),
            },
        },
    )


def cell_edit(lab: Lab, **arguments: Any) -> dict[str, Any]:
    """The agent calls the notebook tool's edit (staged as a suggestion); its result."""
    result = lab.agent_call("notebook", {"action": "edit", "path": NB, **arguments}, client_name=AGENT)
    assert not result.is_error, result
    out = result.structured_content
    assert out["mode"] == "suggest" and not out["applied"], out
    return dict(out)


# The focused element: its focus key, else its tag.
FOCUSED = "() => document.activeElement.dataset.focusKey ?? document.activeElement.tagName"


def cells_on_disk(lab: Lab) -> list[tuple[str, str]]:
    nb = nbformat.reads((lab.root / NB).read_text(), as_version=4)
    return [(c.id, c.source) for c in nb.cells]


# The source of each cell the notebook shows, from its editors' lines.
PAGE_SOURCES = """() => [...document.querySelectorAll('.jp-NotebookPanel .jp-Notebook .jp-Cell')].map(cell =>
  [...cell.querySelectorAll('.jp-InputArea-editor .cm-line')].map(l => l.textContent).join('\\n'))"""


def test_cell_suggestions_are_marked_and_decided_in_the_notebook(lab: Lab) -> None:
    from playwright.sync_api import expect

    (lab.root / NB).write_text(nbformat.writes(notebook()))
    before = (lab.root / NB).read_text()

    with browser(lab, "notebook-review") as (page, shots):
        shots.at("open")
        decline_news(page)
        page.goto(f"{lab.base}/lab/tree/{NB}?token={lab.token}")
        cells = page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell")
        expect(cells).to_have_count(3, timeout=30_000)
        expect(cells.nth(1)).to_contain_text("import math", timeout=15_000)
        dirty_tab = page.locator(".lm-TabBar-tab.jp-mod-dirty")

        # The agent suggests an edit in the second cell and a new cell after it.
        shots.at("staged")
        edit = cell_edit(
            lab, op="replace", cell="load", old="import math", new="import cmath", rationale="Complex numbers."
        )
        insert = cell_edit(lab, op="insert", index=2, cell_type="code", source="print(total)\nprint(total * 2)")
        [edit_id], [insert_id] = edit["suggestionIds"], insert["suggestionIds"]

        marked = page.locator(".jp-Cell.jp-McpLab-cellPending")
        expect(marked).to_have_count(1, timeout=20_000)
        bar = page.locator(f'.jp-McpLab-cellReview[data-id="{edit_id}"]')
        ghost = page.locator(f'.jp-McpLab-cellReview.jp-mod-ghost[data-id="{insert_id}"]')
        expect(bar).to_contain_text(f"{AGENT} suggests Source edit, line 1")
        expect(bar).to_contain_text("Complex numbers.")
        expect(bar.locator("del.jp-McpLab-diffWord")).to_have_text(["math"])
        expect(bar.locator("ins.jp-McpLab-diffWord")).to_have_text(["cmath"])
        expect(ghost).to_contain_text("New code cell here")
        expect(ghost.locator(".jp-McpLab-diffAdd")).to_have_count(2)
        # The bar is on the edited cell (the marked one), the ghost after it (in its footer).
        assert bar.evaluate("b => b.closest('.jp-Cell').classList.contains('jp-McpLab-cellPending')")
        assert ghost.evaluate("g => g.parentElement.classList.contains('jp-CellFooter')")
        assert marked.evaluate("c => c.querySelector('.jp-McpLab-cellReview').dataset.id") == edit_id
        assert page.evaluate(
            "id => document.querySelector(`[data-id='${id}']`).closest('.jp-Cell') === "
            "document.querySelectorAll('.jp-Notebook .jp-Cell')[1]",
            insert_id,
        )
        # Nothing changed yet: the file, the notebook's cells.
        assert (lab.root / NB).read_text() == before
        expect(cells).to_have_count(3)
        expect(dirty_tab).to_have_count(0)

        # The panel's cards say the same as cell-level changes.
        panel = open_panel(page)
        card = panel.locator(f'.jp-McpLab-suggestion[data-id="{edit_id}"]')
        new_card = panel.locator(f'.jp-McpLab-suggestion[data-id="{insert_id}"]')
        expect(card.locator(".jp-McpLab-cellTitle")).to_have_text("Cell 2 (code): source, line 1", timeout=15_000)
        expect(card.locator(".jp-McpLab-lines")).to_have_text("cell 2")
        expect(card.locator("ins.jp-McpLab-diffWord")).to_have_text(["cmath"])
        expect(new_card.locator(".jp-McpLab-cellTitle")).to_have_text("Cell added after cell 2 (code)")
        expect(new_card.locator(".jp-McpLab-diffAdd .jp-McpLab-diffText")).to_have_text(
            ["print(total)", "print(total * 2)"]
        )
        # A click on the card shows its cell's bar in the notebook, lit for a moment.
        card.locator(".jp-McpLab-cellTitle").click()
        expect(bar).to_have_class(re.compile(r"\bjp-mod-flash\b"), timeout=10_000)
        expect(bar).to_be_in_viewport()
        shots.save("marked")
        # Readable in both themes: axe-core finds no serious violation (contrast among them).
        for theme in ("light", "dark"):
            use_theme(page, theme)
            if theme == "dark":
                shots.save("marked-dark")
            violations = axe_violations(page, ".jp-McpLab-cellReview") + axe_violations(page, ".jp-McpLab-cellChange")
            (ARTIFACTS / f"notebook-review-{theme}-axe.json").write_text(json.dumps(violations, indent=2))
            assert not violations, describe(violations)
        use_theme(page, "light")

        # Accept on the cell: the file has the new source, and so does the notebook shown.
        shots.at("accept")
        bar.get_by_role("button", name="Accept").click()
        text = lab.wait_for_file(NB, lambda t: "cmath" in t)
        assert cells_on_disk(lab) == [
            ("intro", "# Analysis\n\nSums of small numbers."),
            ("load", "import cmath\nprint(math.pi)"),
            ("total", "total = sum(range(10))\ntotal"),
        ], text
        page.wait_for_function(f"() => ({PAGE_SOURCES})()[1] === 'import cmath\\nprint(math.pi)'", timeout=20_000)
        expect(marked).to_have_count(0, timeout=10_000)
        expect(bar).to_have_count(0)
        expect(ghost).to_have_count(1)  # the new cell still waits
        expect(card).to_have_count(0, timeout=10_000)
        expect(dirty_tab).to_have_count(0)
        shots.save("accepted")

        # Reject the new cell on its ghost: the ghost goes, nothing else changes.
        shots.at("reject")
        accepted = (lab.root / NB).read_text()
        ghost.get_by_role("button", name="Reject").click()
        expect(ghost).to_have_count(0, timeout=10_000)
        expect(new_card).to_have_count(0, timeout=10_000)
        assert lab.api("GET", f"suggestions/{insert_id}")["status"] == "rejected"
        assert (lab.root / NB).read_text() == accepted
        expect(cells).to_have_count(3)
        assert page.evaluate(PAGE_SOURCES)[1:] == ["import cmath\nprint(math.pi)", "total = sum(range(10))\ntotal"]

        # Another inserted cell, accepted on its ghost: the notebook has it, where it goes.
        shots.at("insert")
        added = cell_edit(lab, op="insert", index=3, cell_type="markdown", source="Done.")
        [added_id] = added["suggestionIds"]
        top = page.locator(f'.jp-McpLab-cellReview.jp-mod-ghost[data-id="{added_id}"]')
        expect(top).to_contain_text("New markdown cell here", timeout=20_000)
        top.get_by_role("button", name="Accept").click()
        lab.wait_for_file(NB, lambda t: "Done." in t)
        assert [c for c, _ in cells_on_disk(lab)][:3] == ["intro", "load", "total"]
        assert cells_on_disk(lab)[3] == (added["cellId"], "Done.")
        expect(cells).to_have_count(4, timeout=20_000)
        expect(cells.nth(3)).to_contain_text("Done.")
        expect(top).to_have_count(0)
        shots.save("inserted")

        # The person moves a cell with a pending suggestion: its mark moves with it.
        shots.at("move")
        [moved_id] = cell_edit(lab, op="source", cell="total", source="total = sum(range(100))\ntotal")["suggestionIds"]
        moving = page.locator(f'.jp-McpLab-cellReview[data-id="{moved_id}"]')
        expect(moving).to_contain_text("Source edit", timeout=20_000)
        cells.nth(2).locator(".jp-InputPrompt").click()
        palette(page, "Move Cell Up")
        page.wait_for_function(f"() => ({PAGE_SOURCES})()[1] === 'total = sum(range(10))\\ntotal'", timeout=15_000)
        assert moving.evaluate("b => b.closest('.jp-Cell') === document.querySelectorAll('.jp-Notebook .jp-Cell')[1]")
        expect(marked).to_have_count(1)

        # A keyboard user on a bar's Accept keeps the focus when another suggestion redraws the
        # marks; when that suggestion is decided elsewhere, its cell takes the focus (not <body>).
        shots.at("focus")
        moving.get_by_role("button", name="Accept").focus()
        [other_id] = cell_edit(lab, op="replace", cell="intro", old="small", new="tiny")["suggestionIds"]
        expect(page.locator(f'.jp-McpLab-cellReview[data-id="{other_id}"]')).to_be_visible(timeout=20_000)
        assert page.evaluate(FOCUSED) == f"{moved_id}:accept"
        lab.api("POST", f"suggestions/{moved_id}/reject")
        expect(moving).to_have_count(0, timeout=15_000)
        assert page.evaluate("() => document.activeElement === document.querySelectorAll('.jp-Notebook .jp-Cell')[1]")
        shots.save("focus")
