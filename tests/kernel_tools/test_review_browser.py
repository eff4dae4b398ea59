"""The review widgets and the Panel board in real JupyterLab, in Debian's headless Chromium.

An agent (the official SDK) stages suggestions; a notebook shows the review widget; the
person clicks Accept on one card: the file on disk changes and the card goes. The event
stream brings a new suggestion and a decision made elsewhere. The document view marks the
suggestions in the rendered text. The Panel board renders inline in the notebook and served
by Panel's Jupyter server extension, opened from the MCP Lab panel's "Review board" link.
A notebook's cell suggestions show as cell-level cards, and an outline in the tree widget
folds, searches, answers the keyboard and accepts a row suggestion into the file.
Screenshots: ``test-artifacts/review-widget-*.png``, ``outline-widget*.png``.
"""

from __future__ import annotations

import re
from typing import Any

from tests.kernel_tools.notebook_browser import BROWSER, notebook_lab, open_notebook
from tests.kernel_tools.test_review_widget import TEXT, stage
from tests.labext.conftest import ARTIFACTS, Lab, open_panel

pytestmark = BROWSER
__all__ = ["notebook_lab"]  # the fixture, imported for this module's tests

DOC = "review-note.md"
CELLS = [
    "from kernel_tools import connect\nlab = connect()",
    f"review = lab.review_widget({DOC!r})\nreview",
]


def test_accept_a_card_in_the_review_widget(notebook_lab: Lab) -> None:
    from playwright.sync_api import expect

    (notebook_lab.root / DOC).write_text(TEXT)
    fox = stage(notebook_lab, DOC, "quick brown fox", "quick red fox", "Foxes here are red.")
    dog = stage(notebook_lab, DOC, "lazy dog", "sleepy cat", "Cats sleep more.", agent="agent-b")

    with open_notebook(notebook_lab, "review.ipynb", CELLS, prefix="review-widget", wait_for=".mcpw-card") as nb:
        page, shots = nb.page, nb.shots
        cards = nb.output(".mcpw-review .mcpw-card")
        expect(cards).to_have_count(2, timeout=20_000)
        first = nb.output(f'.mcpw-card[data-id="{fox}"]')
        expect(first.locator(".mcpw-author")).to_have_text("agent-a")
        expect(first.locator(".mcpw-rationale")).to_have_text("Foxes here are red.")
        expect(first.locator(".mcpw-lines")).to_have_text("line 3")
        expect(first.locator(".mcpw-age")).to_have_text(re.compile(r"^(just now|\d+ s ago)$"))
        expect(first.locator("del.mcpw-del")).to_have_text("brown")
        expect(first.locator("ins.mcpw-ins")).to_have_text("red")
        expect(nb.output(".mcpw-review-counts")).to_have_text("2 pending")
        shots.save("pending")

        shots.at("diff")
        first.get_by_role("button", name="Diff").click()
        expect(first.locator(".mcpw-uadd")).to_have_text("+The quick red fox.", timeout=15_000)
        shots.save("diff")

        shots.at("accept")
        first.get_by_role("button", name="Accept", exact=True).click()
        text = notebook_lab.wait_for_file(DOC, lambda t: "red fox" in t)
        assert text == TEXT.replace("brown", "red")
        expect(first).to_have_count(0, timeout=15_000)
        expect(cards).to_have_count(1)
        expect(nb.output(".mcpw-review-counts")).to_have_text("1 pending")
        shots.save("accepted")

        shots.at("live")
        owl = stage(notebook_lab, DOC, "# Notes", "# Journal", "A better title.", agent="agent-c")
        expect(nb.output(f'.mcpw-card[data-id="{owl}"]')).to_be_visible(timeout=15_000)
        notebook_lab.api("POST", f"suggestions/{dog}/reject")  # decided elsewhere (the panel)
        expect(nb.output(f'.mcpw-card[data-id="{dog}"]')).to_have_count(0, timeout=15_000)
        expect(cards).to_have_count(1)
        shots.save("live")

        shots.at("document-view")
        nb.run(f"view = lab.document_view({DOC!r})\nview")
        body = nb.wait_for_output(".mcpw-document-body")
        expect(body.locator(f'ins.mcpw-ins[data-id="{owl}"]')).to_have_text("Journal")
        expect(body.locator("p").first).to_contain_text("The quick red fox.")
        body.locator(f'ins.mcpw-ins[data-id="{owl}"]').click()
        expect(nb.output(".mcpw-selection")).to_contain_text("agent-c")
        nb.output(".mcpw-document").screenshot(path=str(ARTIFACTS / "review-widget-document.png"))

        shots.at("dark")
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        page.wait_for_timeout(1500)
        nb.output(".mcpw-review").screenshot(path=str(ARTIFACTS / "review-widget-dark.png"))
        nb.output(".mcpw-document").screenshot(path=str(ARTIFACTS / "review-widget-document-dark.png"))
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")

        shots.at("board-inline")
        nb.run("board = lab.board()\nboard")  # loads Panel's JavaScript itself, inline (no CDN here)
        table = nb.wait_for_output(".tabulator")
        expect(table.locator(".tabulator-row")).to_have_count(1, timeout=20_000)
        expect(table).to_contain_text("A better title.")
        # Live: an agent stages another; the board's kernel thread updates the table over the comm.
        stage(notebook_lab, DOC, "lazy dog", "calm dog", "Calmer.", agent="agent-d")
        expect(table.locator(".tabulator-row")).to_have_count(2, timeout=20_000)
        expect(table).to_contain_text("agent-d")
        board = nb.outputs.last
        board.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        board.screenshot(path=str(ARTIFACTS / "review-widget-board-inline.png"))
        expect(board).to_contain_text("2 pending")
        # Decided elsewhere in quick succession (bursts of refreshes): the table and the summary
        # line both end at the server's state.
        for s in notebook_lab.api("GET", f"suggestions?path={DOC}")["suggestions"]:
            notebook_lab.api("POST", f"suggestions/{s['id']}/reject")
        expect(table.locator(".tabulator-row")).to_have_count(0, timeout=20_000)
        expect(board).to_contain_text("0 pending", timeout=20_000)


def test_the_served_board_from_the_panel_link(notebook_lab: Lab) -> None:
    from playwright.sync_api import expect

    from tests.labext.conftest import browser

    path = "served-note.md"
    (notebook_lab.root / path).write_text(TEXT)
    stage(notebook_lab, path, "lazy dog", "sleepy cat", "Cats sleep more.", agent="agent-served")
    stage(notebook_lab, path, "quick brown fox", "quick grey fox", "Grey foxes.", agent="agent-served")
    (notebook_lab.root / "mcp-lab-review-board.py").unlink(missing_ok=True)
    with browser(notebook_lab, "review-board", width=1400, height=1000) as (page, shots):
        panel = open_panel(page)
        link = panel.locator("a.jp-McpLab-boardLink")
        expect(link).to_have_text("Review board")
        shots.at("open-board")
        with page.context.expect_page(timeout=30_000) as opened:
            link.click()
        board: Any = opened.value
        board.wait_for_url("**/panel-preview/render/mcp-lab-review-board.py", timeout=30_000)
        assert (notebook_lab.root / "mcp-lab-review-board.py").exists()  # written by the link, on demand
        table = board.locator(".tabulator").first  # the suggestions (the activity table comes later)
        rows = table.locator(".tabulator-row", has_text="agent-served")
        expect(rows).to_have_count(2, timeout=90_000)  # the app's kernel listed them
        expect(table).to_contain_text("Grey foxes.")
        board.wait_for_timeout(500)
        board.screenshot(path=str(ARTIFACTS / "review-board-served.png"), full_page=True)

        # Accept one from the served board: the file changes.
        shots.at("served-accept")
        rows.filter(has_text="Grey foxes.").locator("input[type=checkbox]").check()
        board.get_by_role("button", name="Accept selected (1)").click()
        text = notebook_lab.wait_for_file(path, lambda t: "grey fox" in t, seconds=30)
        assert text == TEXT.replace("brown", "grey")
        expect(rows).to_have_count(1, timeout=15_000)
        board.screenshot(path=str(ARTIFACTS / "review-board-served-accepted.png"), full_page=True)


def test_cell_cards_and_the_outline_tree(notebook_lab: Lab) -> None:
    """A notebook's cell suggestions as cell-level cards; an outline in the tree widget: fold,
    search, the keyboard, and a row suggestion accepted there changes the file."""
    import shutil

    from playwright.sync_api import expect

    from tests.kernel_tools.test_part_reviews import SAMPLE, cell_edit, row_edit
    from tests.ops.notebook.notebooks import rich, write

    write(notebook_lab.root, "cells.ipynb", rich())
    clear = cell_edit(notebook_lab, "cells.ipynb", op="clear_outputs", cell="plot")["suggestionIds"][0]
    move = cell_edit(notebook_lab, "cells.ipynb", op="move", cell="boom", index=0)["suggestionIds"][0]
    shutil.copy(SAMPLE, notebook_lab.root / "plan.opml")
    [add] = row_edit(notebook_lab, "plan.opml", op="add", topic="QA pass", sibling="build-templates", state="unchecked")
    row_edit(notebook_lab, "plan.opml", op="move", row="misc-a11y", sibling="launch-dns", relative="before")
    cells = [
        "from kernel_tools import connect\nlab = connect()",
        "review = lab.review_widget('cells.ipynb')\nreview",
        "tree = lab.outline_view('plan.opml')\ntree",
    ]
    with open_notebook(
        notebook_lab, "parts.ipynb", cells, prefix="part-widgets", wait_for=".mcpw-outline .mcpw-row"
    ) as nb:
        page, shots = nb.page, nb.shots
        shots.at("cell-cards")
        card = nb.output(f'.mcpw-card[data-id="{clear}"]')
        expect(card.locator(".mcpw-part-change")).to_have_text("clears 2 outputs", timeout=20_000)
        expect(card.locator(".mcpw-lines")).to_have_text("cell 2 «plot()»")
        moved = nb.output(f'.mcpw-card[data-id="{move}"]')
        expect(moved.locator(".mcpw-part-change")).to_have_text("moved from 3 to 0 (to the top)")
        expect(moved.get_by_role("button", name="Diff")).to_have_count(0)  # a move changes no text
        nb.output(".mcpw-review").screenshot(path=str(ARTIFACTS / "review-widget-cells.png"))

        shots.at("tree")
        tree = nb.output(".mcpw-outline")
        rows = tree.locator(".mcpw-row")
        expect(rows).to_have_count(17)  # 15 rows, the added one and where the moved one would go
        ghost = tree.locator('.mcpw-row[data-status="moved-here"]')
        expect(ghost.locator(".mcpw-status")).to_have_text("moved here")
        expect(ghost).to_have_attribute("data-id", "→misc-a11y")
        expect(tree.locator('.mcpw-row[data-id="misc-a11y"] .mcpw-status')).to_have_text("moved away")
        added = tree.locator('.mcpw-row[data-status="added"]')
        expect(added.locator(".mcpw-topic")).to_have_text("QA pass")
        expect(added.locator(".mcpw-part-change")).to_have_text("row added after «Page templates»")
        expect(tree.locator('.mcpw-row[data-id="design-proto"] .mcpw-note')).to_have_text(
            "Figma, shared with the team."
        )
        expect(tree.locator('.mcpw-row[data-id="goal-speed"] .mcpw-check')).to_have_attribute("data-state", "checked")
        tree.screenshot(path=str(ARTIFACTS / "outline-widget.png"))

        shots.at("fold")
        rows.evaluate_all("rows => rows.forEach(r => { r.tagged = true; })")
        tree.locator('.mcpw-row[data-id="goals"] .mcpw-twisty').click()
        expect(rows).to_have_count(15)
        expect(tree.locator('.mcpw-row[data-id="goals"]')).to_have_attribute("aria-expanded", "false")
        # Only the folded row is drawn again: every other row is the element it was.
        redrawn = rows.evaluate_all("rows => rows.filter(r => !r.tagged).map(r => r.dataset.id)")
        assert redrawn == ["goals"], redrawn
        shots.at("keyboard")
        tree.locator(".mcpw-outline-tree").focus()
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")  # opens "goals" again
        expect(rows).to_have_count(17)
        page.keyboard.press("ArrowDown")
        expect(tree.locator(".mcpw-row.mcpw-current")).to_have_attribute("data-id", "goal-speed")
        page.keyboard.press("ArrowLeft")  # a leaf: to its parent
        expect(tree.locator(".mcpw-row.mcpw-current")).to_have_attribute("data-id", "goals")
        page.keyboard.press("a")  # the tree's key (no suggestion on this row), not JupyterLab's "insert a cell"
        page.wait_for_timeout(300)
        assert len(nb.state()["cells"]) == len(cells)
        shots.at("search")
        tree.locator(".mcpw-outline-search").fill("figma")
        expect(rows).to_have_count(2)
        expect(tree.locator(".mcpw-row.mcpw-match")).to_have_attribute("data-id", "design-proto")
        tree.locator(".mcpw-outline-search").fill("")
        expect(rows).to_have_count(17)

        shots.at("accept-row")
        tree.locator(f'.mcpw-mark[data-id="{add}"]').get_by_role("button", name="Accept").click()
        text = notebook_lab.wait_for_file("plan.opml", lambda t: 'text="QA pass"' in t)
        assert 'text="QA pass"' in text and text.index("Page templates") < text.index("QA pass")
        expect(tree.locator('.mcpw-row[data-status="added"]')).to_have_count(0, timeout=15_000)
        expect(tree.locator(".mcpw-row", has_text="QA pass")).to_have_count(1)
        expect(tree.locator(".mcpw-outline-counts")).to_have_text("16 rows · 1 pending · 1 moved")
        tree.screenshot(path=str(ARTIFACTS / "outline-widget-accepted.png"))
