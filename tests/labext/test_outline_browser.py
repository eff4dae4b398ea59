"""The panel's Outline section in a real JupyterLab, driven in Debian's headless Chromium.

The outline follows the document a person works on (opening files, switching tabs),
moves the editor's cursor to a heading on a click, and follows an agent's change made
through the MCP endpoint (the official Python SDK client; approval auto, so it applies).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.labext.conftest import Lab, browser, open_panel, start_lab

FILLER = "".join(f"Line {i} of the text.\n\n" for i in range(40))  # 80 lines: headings below need scrolling
A = "# Alpha\n\nIntro.\n\n## One\n\n" + FILLER + "## Two\n\nThe end.\n"
B = "# Beta\n\n### Deep\n\ntext\n"
TWO_LINE = A.splitlines().index("## Two") + 1


def show_panel(page: Any) -> Any:
    """The MCP Lab panel, open: from the command palette, or (when the palette missed the
    keys because JupyterLab was still starting) from its tab in the right side bar."""
    panel = open_panel(page)
    try:
        panel.wait_for(state="visible", timeout=5_000)
    except Exception:
        page.locator(".jp-SideBar.jp-mod-right .lm-TabBar-tab", has_text="MCP Lab").click()
        panel.wait_for(state="visible", timeout=10_000)
    return panel


def open_file(page: Any, name: str) -> None:
    """Double-click the file in the file browser, as a person opens it."""
    item = page.locator(
        ".jp-DirListing-item", has=page.locator(".jp-DirListing-itemText", has_text=re.compile(f"^{re.escape(name)}$"))
    )
    item.dblclick()
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current", has_text=name).wait_for(timeout=20_000)


def current_editor(page: Any) -> dict[str, Any]:
    """What JupyterLab's current widget shows: path, cursor (0-based line), text, dirty."""
    return page.evaluate(
        """() => {
            const w = window.jupyterapp.shell.currentWidget;
            const editor = w.content.editor;
            return {
                path: w.context.path,
                line: editor.getCursorPosition().line,
                text: w.context.model.toString(),
                dirty: w.context.model.dirty,
            };
        }"""
    )


def test_outline_follows_the_editor(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with start_lab(tmp_path, "--MCPLabApp.approval=auto", "--LabApp.expose_app_in_browser=True") as lab:
        run(lab, expect)


def run(lab: Lab, expect: Any) -> None:
    (lab.root / "a.md").write_text(A)
    (lab.root / "b.md").write_text(B)
    (lab.root / "plain.md").write_text("No heading here.\n")
    (lab.root / "data.txt").write_text("# not markdown\n")

    with browser(lab, "outline") as (page, shots):
        panel = show_panel(page)
        outline = panel.locator(".jp-McpLab-outline")
        items = outline.locator(".jp-McpLab-outlineItem")
        titles = outline.locator(".jp-McpLab-outlineTitle")

        shots.at("no-document")
        expect(outline).to_contain_text("Open a document to see its outline", timeout=20_000)

        # Open a.md: its headings, indented by level.
        shots.at("open-a")
        open_file(page, "a.md")
        expect(titles).to_have_text(["Alpha", "One", "Two"], timeout=20_000)
        expect(items.nth(0)).to_have_attribute("data-level", "1")
        expect(items.nth(1)).to_have_attribute("data-level", "2")
        expect(items.nth(2)).to_have_attribute("data-line", str(TWO_LINE))
        expect(outline).to_have_attribute("data-path", "a.md")
        links = outline.locator(".jp-McpLab-outlineLink")
        assert links.nth(1).bounding_box()["x"] > links.nth(0).bounding_box()["x"]  # "##" indented under "#"
        shots.save("a")

        # Open b.md, then switch back by its tab: the outline follows.
        shots.at("switch")
        open_file(page, "b.md")
        expect(titles).to_have_text(["Beta", "Deep"], timeout=15_000)
        expect(outline).to_have_attribute("data-path", "b.md")
        page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="a.md").click()
        expect(titles).to_have_text(["Alpha", "One", "Two"], timeout=15_000)
        shots.save("switched-back")

        # Click "Two": the cursor goes to its line, which scrolls into view.
        shots.at("click")
        two_line = page.locator(".jp-FileEditor .cm-line", has_text="## Two")
        expect(two_line).not_to_be_in_viewport()
        outline.get_by_role("button", name=re.compile("Two")).click()
        expect(two_line).to_be_in_viewport(timeout=10_000)
        state = current_editor(page)
        assert (state["path"], state["line"]) == ("a.md", TWO_LINE - 1), state
        expect(page.locator(".jp-StatusBar-Item", has_text=f"Ln {TWO_LINE}, Col 1")).to_be_visible()
        shots.save("clicked")

        # An agent adds a heading (applied at once under approval auto): the outline follows.
        shots.at("agent")
        result = lab.agent_call(
            "document",
            {"action": "edit", "path": "a.md", "edits": [{"op": "insert", "at": len(A), "text": "\n## Three\n"}]},
        )
        assert not result.is_error, result
        assert result.structured_content["applied"] is True, result.structured_content
        expect(titles).to_have_text(["Alpha", "One", "Two", "Three"], timeout=15_000)
        # The editor followed too (it was clean), and clicking the new heading works.
        expect(page.locator(".jp-FileEditor:visible .cm-content")).to_contain_text("## Three", timeout=15_000)
        outline.get_by_role("button", name=re.compile("Three")).click()
        three = A.count("\n") + 2
        page.wait_for_function(
            f"() => window.jupyterapp.shell.currentWidget.content.editor.getCursorPosition().line === {three - 1}"
        )
        shots.save("agent-heading")

        # A markdown file without headings, and a file that is not markdown.
        shots.at("other-kinds")
        open_file(page, "plain.md")
        expect(outline).to_contain_text("No headings", timeout=15_000)
        open_file(page, "data.txt")
        expect(outline).to_contain_text("Not a markdown document", timeout=15_000)
        expect(items).to_have_count(0)
        shots.save("not-markdown")
