"""Open editors follow agents' changes, in a real JupyterLab driven in headless Chromium.

Without jupyter-collaboration an agent's change reaches the file, not the editor showing
it: a clean editor reloads by itself; an editor with unsaved changes asks the person
(a JupyterLab notification) whether to reload or keep their version. The agent is the
official Python SDK client on the MCP endpoint; approval is auto, so its edits apply.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.labext.conftest import Lab, browser, start_lab

DOC = "notes.md"
TEXT = "# Notes\n\nThe first line.\n\nThe last line.\n"
RELOAD = "Reload (discard my changes)"
KEEP = "Keep mine"


def agent_replaces(lab: Lab, find: str, replace: str) -> None:
    """An agent's edit, applied at once (approval auto) and saved to the file."""
    edit = {"op": "find_replace", "find": find, "replace": replace, "match": "all"}
    result = lab.agent_call("document", {"action": "edit", "path": DOC, "edits": [edit]})
    assert not result.is_error, result
    assert result.structured_content["applied"] is True, result.structured_content


def editor_state(page: Any) -> dict[str, Any]:
    """The open editor through JupyterLab's API: its text and whether it is dirty."""
    return page.evaluate(
        """(path) => {
            for (const w of window.jupyterapp.shell.widgets('main')) {
                if (w.context && w.context.path === path) {
                    return { text: w.context.model.toString(), dirty: w.context.model.dirty };
                }
            }
            return null;
        }""",
        DOC,
    )


def type_at_end(page: Any, text: str) -> None:
    """The person clicks into the editor and types at the end of the document."""
    page.locator(".jp-FileEditor:visible .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def test_editor_follows_agent_changes(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with start_lab(tmp_path, "--MCPLabApp.approval=auto", "--LabApp.expose_app_in_browser=True") as lab:
        (lab.root / DOC).write_text(TEXT)
        with browser(lab, "editors") as (page, shots):
            content = page.locator(".jp-FileEditor:visible .cm-content")
            tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text=DOC)
            toast = page.locator(".Toastify__toast", has_text="An agent changed")

            # The person opens the file from the file browser.
            shots.at("open")
            page.locator(".jp-DirListing-itemText", has_text=re.compile(f"^{re.escape(DOC)}$")).dblclick()
            expect(content).to_contain_text("The first line.", timeout=20_000)

            # A clean editor: the agent's change shows without a manual reload.
            shots.at("clean")
            agent_replaces(lab, "The first line.", "The first line, edited by an agent.")
            expect(content).to_contain_text("edited by an agent", timeout=15_000)
            state = editor_state(page)
            assert state == {"text": (lab.root / DOC).read_text(), "dirty": False}, state
            expect(toast).to_have_count(0)
            shots.save("reloaded")

            # The person types (unsaved), then the agent changes the file again: asked.
            shots.at("dirty")
            type_at_end(page, "My own words.")
            expect(tab).to_have_class(re.compile("jp-mod-dirty"))
            agent_replaces(lab, "# Notes", "# Notes (agent)")
            expect(toast).to_be_visible(timeout=15_000)
            expect(toast).to_contain_text(DOC)
            expect(toast.get_by_role("button", name=KEEP)).to_be_in_viewport()  # slid in: the shot shows it
            # Nothing changed under the person's hands meanwhile.
            expect(content).to_contain_text("My own words.")
            expect(content).not_to_contain_text("Notes (agent)")
            shots.save("asked")

            # Reload: the editor shows the file as the agent left it.
            shots.at("reload")
            toast.get_by_role("button", name=RELOAD).click()
            expect(content).to_contain_text("# Notes (agent)", timeout=15_000)
            expect(content).not_to_contain_text("My own words.")
            state = editor_state(page)
            assert state == {"text": (lab.root / DOC).read_text(), "dirty": False}, state
            expect(toast).to_have_count(0)
            shots.save("reloaded-dirty")

            # Again, and "Keep mine": the person's text stays, and saving overwrites the
            # agent's change without JupyterLab's "File Changed" question.
            shots.at("keep")
            type_at_end(page, "Mine again.")
            agent_replaces(lab, "The last line.", "The last line, by the agent.")
            expect(toast).to_be_visible(timeout=15_000)
            toast.get_by_role("button", name=KEEP).click()
            expect(toast).to_have_count(0)
            mine = editor_state(page)
            assert mine["dirty"] is True and "Mine again." in mine["text"], mine
            assert "by the agent" not in mine["text"]
            page.keyboard.press("Control+s")
            saved = lab.wait_for_file(DOC, lambda text: "Mine again." in text)
            assert saved == mine["text"]
            expect(page.locator(".jp-Dialog")).to_have_count(0)
            expect(tab).not_to_have_class(re.compile("jp-mod-dirty"))
            shots.save("kept")
