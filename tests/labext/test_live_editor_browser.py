"""With jupyter-collaboration, an agent's edit appears in the open editor as the person types.

A real JupyterLab with live (collaborative) documents in headless Chromium; the person has
the file open and types; an agent's edit through the MCP endpoint lands in the shared
document: the editor shows it within moments, nothing was reloaded, the person's unsaved
typing is still there and their cursor is where they left it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.labext.conftest import Lab, browser, rtc_installed, start_lab

pytestmark = [
    pytest.mark.skipif(not rtc_installed(), reason="needs jupyter-collaboration (the test extra installs it)"),
]

DOC = "live.md"
TEXT = "# Live\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"


@pytest.fixture
def live_lab(tmp_path: Path) -> Iterator[Lab]:
    with start_lab(tmp_path, "--MCPLabApp.approval=auto", rtc=True) as running:
        yield running


def editor_text(page) -> str:  # type: ignore[no-untyped-def]
    return page.locator(".jp-FileEditor .cm-content").inner_text()


def test_agent_edit_appears_while_the_person_types(live_lab: Lab) -> None:
    from playwright.sync_api import expect

    (live_lab.root / DOC).write_text(TEXT)
    with browser(live_lab, "live-editor") as (page, shots):
        shots.at("open")
        page.goto(f"{live_lab.base}/lab/tree/{DOC}?token={live_lab.token}")
        content = page.locator(".jp-FileEditor .cm-content")
        expect(content).to_contain_text("lazy dog", timeout=30_000)
        page.evaluate("window.__mcpLabNoReload = true")

        # The person types at the end of the last line (not saved by hand).
        shots.at("type")
        content.locator(".cm-line", has_text="lazy dog").click()
        page.keyboard.press("End")
        page.keyboard.type(" Typed.")
        expect(content).to_contain_text("sleeps. Typed.")

        shots.at("agent-edit")
        started = time.monotonic()
        result = live_lab.agent_call(
            "document",
            {
                "action": "edit",
                "path": DOC,
                "edits": [{"op": "anchored", "text": "quick brown", "replacement": "quick red"}],
            },
        )
        assert not result.is_error, result
        expect(content).to_contain_text("quick red fox", timeout=10_000)
        seconds = time.monotonic() - started
        shots.save("agent-edit")

        # Not reloaded; the typing kept; the cursor still after it.
        assert page.evaluate("window.__mcpLabNoReload") is True
        page.keyboard.type(" More.")
        expect(content).to_contain_text("sleeps. Typed. More.")
        assert "quick brown" not in editor_text(page)
        shots.save("after")

        # The person's cursor, as the agents' tools see it: at the end of what they typed,
        # in code points of the shared text (the lab bridge reports it).
        shots.at("cursor")
        expected = TEXT.replace("quick brown", "quick red").replace("sleeps.", "sleeps. Typed. More.")
        caret = expected.index(" More.") + len(" More.")
        deadline = time.monotonic() + 10
        selection = None
        while time.monotonic() < deadline:
            answer = live_lab.agent_call("lab", {"action": "clients"}).structured_content
            [client] = answer["clients"]
            selection = client.get("selection")
            if selection and selection.get("head") == caret:
                break
            time.sleep(0.3)
        assert selection == {"path": DOC, "anchor": caret, "head": caret}, selection

    # The file ends up with both (the room autosaves the person's typing).
    final = live_lab.wait_for_file(DOC, lambda t: "More." in t)
    assert final == TEXT.replace("quick brown", "quick red").replace("sleeps.", "sleeps. Typed. More.")
    assert seconds < 10
