"""Inline review in JupyterLab's editor, in a real JupyterLab driven in Debian's headless Chromium.

A markdown file is open in the editor; an agent stages two suggestions through the MCP
endpoint (the official Python SDK client, ``approval=suggest``). Both show inside the editor
(the original struck through, the new text as a ghost) while the file and the editor's text
stay as they were; Accept on one changes the file and the editor shows it; Reject on the
other only takes its decoration away; the MCP Lab panel's pending list agrees throughout.
"""

from __future__ import annotations

import time
from typing import Any

from tests.labext.conftest import Lab, browser, open_panel

DOC = "notes.md"
TEXT = "# Notes 🦊\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"
AGENT = "browser-test-agent"

# The editor's own text: its lines without the inline widgets (which are not part of it).
EDITOR_TEXT = """() => {
  const content = document.querySelector('.jp-FileEditor .cm-content');
  if (!content) { return null; }
  const clone = content.cloneNode(true);
  clone.querySelectorAll('.jp-McpLab-inlineSuggestion').forEach(n => n.remove());
  return [...clone.querySelectorAll('.cm-line')].map(line => line.textContent).join('\\n');
}"""


def suggest(lab: Lab, text: str, replacement: str, rationale: str) -> str:
    """An agent stages one anchored edit (a suggestion under approval=suggest); its id."""
    edit = {"op": "anchored", "text": text, "replacement": replacement}
    result = lab.agent_call("document", {"action": "edit", "path": DOC, "edits": [edit], "rationale": rationale})
    assert not result.is_error, result
    [sid] = result.structured_content["suggestionIds"]
    return str(sid)


def pending(lab: Lab) -> list[dict]:
    return lab.api("GET", "suggestions")["suggestions"]


def wait_for_editor_text(page: Any, expected: str, seconds: float = 15) -> str:
    deadline = time.monotonic() + seconds
    text = page.evaluate(EDITOR_TEXT)
    while text != expected and time.monotonic() < deadline:
        time.sleep(0.2)
        text = page.evaluate(EDITOR_TEXT)
    return text


def run_command(page: Any, label: str) -> None:
    """Run a command from the command palette, as a person would."""
    page.keyboard.press("Control+Shift+C")
    page.keyboard.type(label)
    page.keyboard.press("Enter")


def test_accept_and_reject_inline(lab: Lab) -> None:
    from playwright.sync_api import expect

    doc = lab.root / DOC
    doc.write_text(TEXT)

    with browser(lab, "inline") as (page, shots):
        shots.at("open")
        page.goto(f"{lab.base}/lab/tree/{DOC}?token={lab.token}")
        content = page.locator(".jp-FileEditor .cm-content")
        expect(content).to_contain_text("lazy dog", timeout=30_000)
        dirty_tab = page.locator(".lm-TabBar-tab.jp-mod-dirty")

        # An agent stages two suggestions while the file is open.
        shots.at("staged")
        fox = suggest(lab, "quick brown fox", "quick red fox", "Foxes here are red.")
        dog = suggest(lab, "lazy dog", "sleepy cat", "Cats sleep more.")
        deleted = content.locator(".jp-McpLab-inlineDel")
        ghosts = content.locator(".jp-McpLab-inlineIns")
        expect(deleted).to_have_count(2, timeout=20_000)
        expect(deleted).to_have_text(["brown", "lazy dog"])
        expect(ghosts).to_have_text(["red", "sleepy cat"])
        fox_widget = content.locator(f'.jp-McpLab-inlineSuggestion[data-suggestion-id="{fox}"]')
        dog_widget = content.locator(f'.jp-McpLab-inlineSuggestion[data-suggestion-id="{dog}"]')
        accept = fox_widget.get_by_role("button", name="Accept suggestion")
        reject = dog_widget.get_by_role("button", name="Reject suggestion")
        expect(accept).to_be_visible()
        expect(reject).to_be_visible()
        title = accept.get_attribute("title") or ""
        assert AGENT in title and "Foxes here are red." in title, title
        assert "Cats sleep more." in (reject.get_attribute("title") or "")
        # Struck through, and the ghost right after the struck text.
        assert deleted.first.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
        fox_line = content.locator(".cm-line", has=page.locator(f'[data-suggestion-id="{fox}"]'))
        assert fox_line.text_content() == "The quick brownred✓✕ fox."
        # Nothing changed: the file, the editor's text, its saved state.
        assert doc.read_text() == TEXT
        assert page.evaluate(EDITOR_TEXT) == TEXT
        expect(dirty_tab).to_have_count(0)
        # The panel lists the same two.
        panel = open_panel(page)
        items = panel.locator(".jp-McpLab-suggestion")
        expect(items).to_have_count(2, timeout=15_000)
        shots.save("staged")

        # The toggle command hides them and shows them again.
        shots.at("toggle")
        run_command(page, "Show Suggestions Inline in Editors")
        expect(deleted).to_have_count(0, timeout=10_000)
        expect(content.locator(".jp-McpLab-inlineSuggestion")).to_have_count(0)
        run_command(page, "Show Suggestions Inline in Editors")
        expect(deleted).to_have_count(2, timeout=10_000)

        # Accept the fox: the file changes, the editor shows the new text, undecorated.
        shots.at("accept")
        accept.click()
        # (Waits for the whole new text: Jupyter's save rewrites the file in place, so a
        # read during it can see a part.)
        expected = TEXT.replace("quick brown fox", "quick red fox")
        accepted = lab.wait_for_file(DOC, lambda t: t == expected)
        assert accepted == expected
        assert wait_for_editor_text(page, accepted) == accepted
        expect(fox_widget).to_have_count(0, timeout=10_000)
        expect(deleted).to_have_text(["lazy dog"], timeout=10_000)
        expect(ghosts).to_have_text(["sleepy cat"])
        expect(content.locator(".cm-line", has_text="The quick red fox.")).to_have_count(1)
        expect(dirty_tab).to_have_count(0)
        expect(items).to_have_count(1, timeout=15_000)
        expect(items.locator(".jp-McpLab-rationale")).to_have_text("Cats sleep more.")
        shots.save("accepted")

        # Reject the dog: its decoration goes, the file keeps its text.
        shots.at("reject")
        reject.click()
        expect(content.locator(".jp-McpLab-inlineSuggestion")).to_have_count(0, timeout=10_000)
        expect(deleted).to_have_count(0)
        expect(items).to_have_count(0, timeout=15_000)
        assert page.evaluate(EDITOR_TEXT) == accepted
        expect(dirty_tab).to_have_count(0)
        shots.save("rejected")

    time.sleep(0.5)
    assert doc.read_text() == accepted
    assert pending(lab) == []
    decided = {s["id"]: s["status"] for s in lab.api("GET", "suggestions", params={"status": "all"})["suggestions"]}
    assert decided == {fox: "accepted", dog: "rejected"}


def test_typing_and_unsaved_changes(lab: Lab) -> None:
    """Decorations follow the person's typing; with unsaved changes an accept changes the
    file but not the editor's text, and the person is told so."""
    import re

    from playwright.sync_api import expect

    doc = lab.root / DOC
    doc.write_text(TEXT)

    with browser(lab, "inline-dirty") as (page, shots):
        shots.at("open")
        page.goto(f"{lab.base}/lab/tree/{DOC}?token={lab.token}")
        content = page.locator(".jp-FileEditor .cm-content")
        expect(content).to_contain_text("lazy dog", timeout=30_000)
        fox = suggest(lab, "quick brown fox", "quick red fox", "Foxes here are red.")
        deleted = content.locator(".jp-McpLab-inlineDel")
        expect(deleted).to_have_text(["brown"], timeout=20_000)

        # The person types a line above it and a word right before it (not saved).
        shots.at("type")
        content.locator(".cm-line", has_text="# Notes").click()
        page.keyboard.press("End")
        page.keyboard.press("Enter")
        page.keyboard.type("Typed above.")
        content.locator(".cm-line", has_text="The quick").click()
        page.keyboard.press("Home")
        for _ in range(len("The quick ")):
            page.keyboard.press("ArrowRight")
        page.keyboard.type("very ")
        typed = TEXT.replace("🦊\n", "🦊\nTyped above.\n").replace("quick brown", "quick very brown")
        assert wait_for_editor_text(page, typed) == typed
        expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(1)
        # The decoration moved with the text, without a refresh.
        expect(deleted).to_have_text(["brown"])
        fox_line = content.locator(".cm-line", has=page.locator(f'[data-suggestion-id="{fox}"]'))
        assert fox_line.text_content() == "The quick very brownred✓✕ fox."

        # A new suggestion refreshes the list: the server placed both in the file on disk,
        # and the editor finds them near their lines in its unsaved text.
        shots.at("refresh")
        suggest(lab, "lazy dog", "sleepy cat", "Cats sleep more.")
        expect(deleted).to_have_text(["brown", "lazy dog"], timeout=20_000)
        shots.save("typed")

        # Accept the fox: the file changes; the editor keeps the person's text and says why.
        shots.at("accept")
        content.locator(f'.jp-McpLab-inlineSuggestion[data-suggestion-id="{fox}"]').get_by_role(
            "button", name="Accept suggestion"
        ).click()
        # (Waits for the whole new text: Jupyter's save rewrites the file in place, so a
        # read during it can see a part.)
        expected = TEXT.replace("quick brown fox", "quick red fox")
        accepted = lab.wait_for_file(DOC, lambda t: t == expected)
        assert accepted == expected
        expect(deleted).to_have_text(["lazy dog"], timeout=10_000)
        warning = page.locator(".Toastify__toast", has_text=re.compile("unsaved changes"))
        expect(warning).to_have_count(1, timeout=10_000)
        time.sleep(2.5)  # past the inline review's own wait: still one warning, not two
        expect(warning).to_have_count(1)
        assert page.evaluate(EDITOR_TEXT) == typed
        expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(1)
        shots.save("accepted-dirty")

    assert doc.read_text() == accepted
    assert [s["original"] for s in pending(lab)] == ["lazy dog"]
