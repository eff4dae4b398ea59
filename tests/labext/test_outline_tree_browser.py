"""The OPML tree view in a real JupyterLab, driven in Debian's headless Chromium (one JupyterLab
for the module).

A person opens an .opml file: it shows as a tree (checkboxes, notes, folding by keyboard,
search), the panel's Outline section lists its top-level rows, and "Open With → Editor"
still offers the XML. An agent (the official Python SDK client on the outliner profile's
endpoint, approval suggest) adds a row and changes a topic: the tree shows a ghost row and
old → new, and the panel's cards read as row changes ("Row added under 'Launch': 'Tag v1.1'",
a move, a delete with the rows below it); Accept on the row writes the file, Reject leaves
it. Screenshots and axe results in test-artifacts/ (light and dark themes).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.conftest import open_mcp_client
from tests.labext.conftest import ARTIFACTS, Lab, browser, open_panel, start_lab
from tests.labext.test_outline_browser import open_file
from tests.labext.test_review_panel_browser import axe_violations, decline_news, describe, use_theme
from tests.surfaces.outliner.opml import OMNI

TREE = ".jp-McpLab-tree"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with start_lab(
        tmp_path_factory.mktemp("outline-tree"), "--MCPLabApp.approval=suggest", "--LabApp.expose_app_in_browser=True"
    ) as running:
        yield running


def outliner_call(lab: Lab, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """An agent calls one outliner tool on the real endpoint; its structured result."""

    async def run() -> Any:
        url = f"{lab.base}/mcp-lab/outliner/mcp"
        async with open_mcp_client(url, lab.headers, client_name="outline-agent") as client:
            return await client.call_tool(tool, arguments)

    with ThreadPoolExecutor(1) as pool:  # sync Playwright keeps an event loop in this thread
        result = pool.submit(asyncio.run, run()).result()
    assert not result.is_error, result
    return dict(result.structured_content or {})


def row(page: Any, topic: str) -> Any:
    return page.locator(f"{TREE} .jp-McpLab-treeRow", has=page.locator(".jp-McpLab-treeLine", has_text=topic)).first


def card_title(panel: Any, text: str) -> Any:
    """The title of the panel's pending card that mentions ``text``."""
    card = panel.locator(".jp-McpLab-review .jp-McpLab-suggestion", has_text=text)
    return card.locator(".jp-McpLab-cellTitle")


def check_axe(page: Any, name: str) -> None:
    violations = axe_violations(page, TREE)
    (ARTIFACTS / f"outline-tree-{name}-axe.json").write_text(json.dumps(violations, indent=2))
    assert not violations, describe(violations)


def test_tree_view_with_row_suggestions(lab: Lab) -> None:
    from playwright.sync_api import expect

    (lab.root / "plan.opml").write_text(OMNI, encoding="utf-8")
    with browser(lab, "outline-tree", 1366, 768) as (page, shots):
        decline_news(page)
        shots.at("open")
        open_file(page, "plan.opml")
        tree = page.locator(TREE)
        expect(tree.locator("[role=tree]")).to_have_attribute("aria-label", "Outline of plan.opml", timeout=20_000)
        rows = tree.locator(".jp-McpLab-treeRow")
        expect(rows).to_have_count(11, timeout=20_000)
        expect(rows.first.locator(".jp-McpLab-treeTopic")).to_have_text("Launch")
        # Checkboxes (Research's is mixed: its children differ), notes under their topics.
        expect(row(page, "Launch")).to_have_attribute("data-state", "checked")
        expect(row(page, "Research")).to_have_attribute("data-state", "mixed")
        expect(row(page, "Launch").locator(".jp-McpLab-treeNote")).to_have_text(
            "Ship the first version\nto the pilot users."
        )
        expect(row(page, "Résumé des entretiens — 東京")).to_have_attribute("aria-level", "2")
        # "Open With" still has the text editor for the XML; the tree is the default.
        factories = page.evaluate(
            "() => window.jupyterapp.docRegistry.preferredWidgetFactories('plan.opml').map(f => f.name)"
        )
        assert factories[0] == "Outline Tree" and "Editor" in factories, factories
        shots.save("open")

        # Keyboard: Home, left folds Launch, right unfolds it, down moves into it.
        shots.at("keyboard")
        tree.locator("[role=tree]").focus()
        page.keyboard.press("Home")
        expect(row(page, "Launch")).to_have_attribute("aria-selected", "true")
        page.keyboard.press("ArrowLeft")
        expect(row(page, "Launch")).to_have_attribute("aria-expanded", "false")
        expect(rows).to_have_count(9)
        expect(tree.get_by_text("Write release notes")).to_have_count(0)
        page.keyboard.press("ArrowRight")
        expect(row(page, "Launch")).to_have_attribute("aria-expanded", "true")
        expect(rows).to_have_count(11)
        page.keyboard.press("ArrowDown")
        expect(row(page, "Write release notes")).to_have_attribute("aria-selected", "true")
        page.keyboard.press("ArrowLeft")  # a leaf: to its parent
        expect(row(page, "Launch")).to_have_attribute("aria-selected", "true")

        # Search: the matches and their ancestors, highlighted; cleared, all rows again.
        shots.at("search")
        search = tree.get_by_role("searchbox", name="Search the outline")
        search.fill("東京")
        expect(rows).to_have_count(2)
        expect(tree.locator("mark.jp-McpLab-treeMatch")).to_have_text("東京")
        search.fill("design")  # a note matches
        expect(rows.locator(".jp-McpLab-treeTopic")).to_have_text(["Ideas & notes", "Offline sync"])
        expect(tree.locator(".jp-McpLab-treeStatus")).to_have_text("1 of 11 rows match")
        shots.save("search")
        search.fill("")
        expect(rows).to_have_count(11)

        # The panel's Outline section lists the outline's top-level rows.
        shots.at("panel")
        panel = open_panel(page)
        expect(panel.locator(".jp-McpLab-outline .jp-McpLab-outlineTitle")).to_have_text(
            ["Launch", "Research", "Ideas & notes"], timeout=15_000
        )
        # A click there shows the row in the tree, the keyboard on it.
        panel.locator(".jp-McpLab-outline").get_by_role("button", name=re.compile("^Research")).click()
        expect(row(page, "Research")).to_have_attribute("aria-selected", "true")
        expect(tree.locator("[role=tree]")).to_be_focused()

        # An agent on the outliner profile (acting on the outline in front) adds a row and
        # renames one: suggestions, shown in the tree.
        shots.at("agent")
        added = outliner_call(lab, "add_row", {"topic": "Tag v1.1", "note": "after the pilot", "parentId": "row-0"})
        assert added["applied"] is False, added
        renamed = outliner_call(lab, "update_row", {"rowId": "row-3", "topic": "User research"})
        assert renamed["applied"] is False, renamed
        disk = (lab.root / "plan.opml").read_text(encoding="utf-8")
        assert "Tag v1.1" not in disk and 'text="Research"' in disk
        ghost = tree.locator(".jp-McpLab-treeRow.jp-mod-ghost")
        expect(ghost).to_have_count(1, timeout=20_000)
        expect(ghost).to_have_attribute("data-marks", "added")
        expect(ghost).to_contain_text("Tag v1.1")
        expect(ghost.locator(".jp-McpLab-treeNote")).to_have_text("after the pilot")
        changed = tree.locator(".jp-McpLab-treeRow[data-row-id='row-3']")
        expect(changed.locator(".jp-McpLab-treeOld")).to_have_text("Research")
        expect(changed.locator(".jp-McpLab-treeNew")).to_have_text("User research")
        expect(tree.locator(".jp-McpLab-treeStatus")).to_contain_text("2 pending suggestions")
        # The ghost sits under Launch, after its last child.
        lines = rows.locator(".jp-McpLab-treeLine").all_text_contents()
        at = next(i for i, line in enumerate(lines) if "Tag v1.1" in line)
        assert "Tag v1.0" in lines[at - 1], lines
        expect(ghost).to_have_attribute("aria-level", "2")
        # The panel's cards read as row changes, the row named where a text's say "line 3";
        # the name is a link that shows the row in the tree.
        cards = panel.locator(".jp-McpLab-review .jp-McpLab-suggestion")
        expect(card_title(panel, "Tag v1.1")).to_have_text("Row added under 'Launch': 'Tag v1.1'")
        expect(card_title(panel, "User research")).to_have_text("Topic 'Research' → 'User research'")
        expect(cards.locator(".jp-McpLab-lines")).to_have_text(["row 'Research'", "new row 'Tag v1.1'"])
        expect(cards.filter(has_text=re.compile(r"line \d"))).to_have_count(0)
        cards.filter(has_text="User research").locator(".jp-McpLab-lines").click()
        expect(changed).to_have_attribute("aria-selected", "true")
        expect(tree.locator("[role=tree]")).to_be_focused()
        panel.locator(".jp-McpLab-review").screenshot(path=ARTIFACTS / "outline-tree-panel-row-cards.png")
        page.locator(TREE).scroll_into_view_if_needed()
        shots.save("suggestions-light")
        check_axe(page, "light")

        shots.at("dark")
        use_theme(page, "dark")
        expect(ghost).to_have_count(1)
        shots.save("suggestions-dark")
        check_axe(page, "dark")
        use_theme(page, "light")

        # Accept the added row: the file changes on disk, the row is real now.
        shots.at("accept")
        ghost.get_by_role("button", name=re.compile("^Accept: added row")).click()
        text = lab.wait_for_file("plan.opml", lambda t: "Tag v1.1" in t)
        assert 'text="Tag v1.1"' in text and "after the pilot" in text, text
        expect(ghost).to_have_count(0, timeout=15_000)
        expect(row(page, "Tag v1.1")).to_have_attribute("data-row-id", re.compile(".+"))
        expect(rows).to_have_count(12)

        # Reject the rename: the file keeps its topic, the mark goes.
        shots.at("reject")
        changed.get_by_role("button", name=re.compile("^Reject: changed row")).click()
        expect(changed.locator(".jp-McpLab-treeNew")).to_have_count(0, timeout=15_000)
        expect(changed.locator(".jp-McpLab-treeTopic")).to_have_text("Research")
        assert 'text="Research"' in (lab.root / "plan.opml").read_text(encoding="utf-8")
        assert 'text="User research"' not in (lab.root / "plan.opml").read_text(encoding="utf-8")
        expect(tree.locator(".jp-McpLab-treeStatus")).not_to_contain_text("pending")
        listed = lab.api("GET", "suggestions", params={"path": "plan.opml", "status": "all"})["suggestions"]
        assert sorted(s["status"] for s in listed) == ["accepted", "rejected"], listed
        shots.save("decided")

        # A move shows at both places, a delete strikes the row and its subtree through; the
        # keyboard decides the focused row's suggestion (r rejects).
        shots.at("move-delete")
        before = (lab.root / "plan.opml").read_text(encoding="utf-8")
        outliner_call(lab, "move_row", {"rowId": "row-8", "newParentId": "row-3", "position": "first"})
        outliner_call(lab, "delete_row", {"rowId": "row-0", "confirmed": True})
        moved = tree.locator(".jp-McpLab-treeRow[data-row-id='row-8']")
        expect(moved).to_have_attribute("data-marks", "moved", timeout=20_000)
        here = tree.locator(".jp-McpLab-treeRow[data-marks='moved-here']")
        expect(here).to_contain_text("Ideas & notes")
        expect(here).to_have_attribute("aria-level", "2")
        launch = tree.locator(".jp-McpLab-treeRow[data-row-id='row-0']")
        expect(launch).to_have_class(re.compile("jp-mod-deleted"))
        expect(row(page, "Write release notes")).to_have_class(re.compile("jp-mod-deleted"))
        expect(row(page, "Interview users")).not_to_have_class(re.compile("jp-mod-deleted"))
        expect(card_title(panel, "moved")).to_have_text("Row 'Ideas & notes' moved under 'Research'")
        expect(card_title(panel, "deleted")).to_have_text("Row 'Launch' deleted (with 3 rows below it)")  # Tag v1.1 too
        expect(panel.locator(".jp-McpLab-review")).not_to_contain_text("No change.")
        panel.locator(".jp-McpLab-review").screenshot(path=ARTIFACTS / "outline-tree-panel-move-delete-cards.png")
        shots.save("moved-deleted")
        check_axe(page, "moved-deleted")
        launch.locator(".jp-McpLab-treeLine").click()
        page.keyboard.press("r")
        expect(launch).not_to_have_class(re.compile("jp-mod-deleted"), timeout=15_000)
        moved.locator(".jp-McpLab-treeLine").click()
        page.keyboard.press("r")
        expect(here).to_have_count(0, timeout=15_000)
        expect(moved).not_to_have_attribute("data-marks", "moved")
        assert (lab.root / "plan.opml").read_text(encoding="utf-8") == before


def big_opml(sections: int, items: int) -> str:
    """``sections`` top-level rows of ``items`` rows each (a note on every fifth one)."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<opml version="2.0">', "<head><title>Big</title></head>"]
    out.append("<body>")
    for s in range(sections):
        out.append(f'<outline text="Section {s}">')
        for i in range(items):
            note = ' _note="n"' if i % 5 == 0 else ""
            out.append(f'<outline text="Item {s}.{i}"{note}/>')
        out.append("</outline>")
    return "\n".join([*out, "</body>", "</opml>", ""])


def test_a_fold_keeps_the_other_rows(lab: Lab) -> None:
    """5,000 rows: folding a section removes its rows and redraws that row only; every other
    row is the same element before and after (a property set on each survives), unfolding
    brings the section's rows back, and the keyboard still walks the tree."""
    from playwright.sync_api import expect

    sections, items = 250, 19
    (lab.root / "big.opml").write_text(big_opml(sections, items), encoding="utf-8")
    with browser(lab, "outline-tree-big", 1366, 768) as (page, shots):
        decline_news(page)
        shots.at("open")
        open_file(page, "big.opml")
        tree = page.locator(TREE)
        rows = tree.locator(".jp-McpLab-treeRow")
        expect(rows).to_have_count(sections * (items + 1), timeout=60_000)
        tag = """() => document.querySelectorAll('.jp-McpLab-tree .jp-McpLab-treeRow')
            .forEach((r, i) => { r.tagged = i; })"""
        page.evaluate(tag)
        # The rows whose element is not the one tagged: drawn again.
        redrawn = """() => [...document.querySelectorAll('.jp-McpLab-tree .jp-McpLab-treeRow')]
            .filter(r => r.tagged === undefined).map(r => r.querySelector('.jp-McpLab-treeTopic').textContent)"""

        shots.at("fold")
        section = row(page, "Section 1")
        section.locator(".jp-McpLab-treeTwisty").click()
        expect(section).to_have_attribute("aria-expanded", "false")
        expect(rows).to_have_count(sections * (items + 1) - items)
        expect(tree.get_by_text("Item 1.3", exact=True)).to_have_count(0)
        assert page.evaluate(redrawn) == ["Section 1"]
        active = section.get_attribute("id") or ""
        expect(tree.locator("[role=tree]")).to_have_attribute("aria-activedescendant", active)

        shots.at("keyboard")
        page.keyboard.press("ArrowDown")
        expect(row(page, "Section 2")).to_have_attribute("aria-selected", "true")
        expect(tree.locator("[role=tree]")).to_be_focused()
        # The last row is in a chunk the browser skipped (out of view): End shows it.
        page.keyboard.press("End")
        last = row(page, f"Item {sections - 1}.{items - 1}")
        expect(last).to_have_attribute("aria-selected", "true")
        expect(last).to_be_in_viewport()
        page.keyboard.press("Home")
        expect(row(page, "Section 0")).to_be_in_viewport()

        shots.at("unfold")
        page.evaluate(tag)
        section.locator(".jp-McpLab-treeTwisty").click()
        expect(rows).to_have_count(sections * (items + 1))
        assert page.evaluate(redrawn) == ["Section 1", *(f"Item 1.{i}" for i in range(items))]
        lines = rows.locator(".jp-McpLab-treeTopic").all_text_contents()
        at = lines.index("Section 1")
        assert lines[at : at + items + 2] == ["Section 1", *(f"Item 1.{i}" for i in range(items)), "Section 2"]

        # An agent's suggestion on one row (the outline is the tab in front): that row only.
        shots.at("suggestion")
        page.evaluate(tag)
        target = row(page, "Item 3.2")
        row_id = target.get_attribute("data-row-id")
        outliner_call(lab, "update_row", {"rowId": row_id, "topic": "Item 3.2 renamed"})
        changed = tree.locator(f".jp-McpLab-treeRow[data-row-id='{row_id}']")
        expect(changed.locator(".jp-McpLab-treeNew")).to_have_text("Item 3.2 renamed", timeout=20_000)
        untagged = "rows => rows.filter(r => r.tagged === undefined).map(r => r.dataset.rowId)"
        assert rows.evaluate_all(untagged) == [row_id]
