"""Reviewing pending suggestions from the keyboard, in a real JupyterLab in headless Chromium.

An agent stages four suggestions through the MCP endpoint (the official Python SDK client);
a person focuses the panel's list (a group of article cards), moves with ArrowDown, accepts with Enter and rejects with
Escape; the file on disk follows each decision, and keys typed in a form field are left alone.
"""

from __future__ import annotations

import time

from tests.labext.conftest import Lab, browser, open_panel

DOC = "notes.md"
TEXT = "# Notes\n\nFirst: alpha.\n\nSecond: beta.\n\nThird: gamma.\n\nFourth: delta.\n"


def pending(lab: Lab) -> list[dict]:
    return lab.api("GET", "suggestions")["suggestions"]


def test_review_with_the_keyboard(lab: Lab) -> None:
    from playwright.sync_api import expect

    doc = lab.root / DOC
    doc.write_text(TEXT)
    edits = [
        {"op": "anchored", "text": word, "replacement": word.upper()} for word in ("alpha", "beta", "gamma", "delta")
    ]
    result = lab.agent_call("document", {"action": "edit", "path": DOC, "edits": edits, "rationale": "Louder."})
    assert not result.is_error, result
    staged = pending(lab)
    assert [s["original"] for s in staged] == ["alpha", "beta", "gamma", "delta"]  # one per hunk, in order
    first, second, third, fourth = (s["id"] for s in staged)
    assert doc.read_text() == TEXT

    with browser(lab, "keyboard") as (page, shots):
        # JupyterLab opens its launcher once it has restored the layout, and activating it
        # takes the focus: give the list the focus after that, as a person would.
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=30_000)
        panel = open_panel(page)
        listbox = panel.get_by_role("group", name="Pending suggestions")
        options = listbox.get_by_role("article")
        selected = listbox.locator('[role="article"][aria-current="true"]')

        # Focusing the list selects the first suggestion; ArrowDown moves to the next one.
        shots.at("focus")
        expect(options).to_have_count(4, timeout=20_000)
        expect(selected).to_have_count(0)
        listbox.focus()
        expect(listbox).to_be_focused()
        expect(selected).to_have_attribute("data-id", first)
        page.keyboard.press("ArrowDown")
        expect(selected).to_have_attribute("data-id", second)
        expect(listbox).to_have_attribute("aria-activedescendant", f"jp-McpLab-suggestion-{second}")
        shots.save("selected")

        # Enter accepts the selected one: the file changes; the selection moves to the next.
        shots.at("enter")
        page.keyboard.press("Enter")
        expect(options).to_have_count(3, timeout=15_000)
        accepted = lab.wait_for_file(DOC, lambda t: t != TEXT)
        assert accepted == TEXT.replace("beta", "BETA")
        expect(selected).to_have_attribute("data-id", third)
        expect(listbox).to_be_focused()
        shots.save("accepted")

        # Escape rejects the selected one: the file stays as it was.
        shots.at("escape")
        page.keyboard.press("Escape")
        expect(options).to_have_count(2, timeout=15_000)
        expect(selected).to_have_attribute("data-id", fourth)
        assert [s["id"] for s in pending(lab)] == [first, fourth]
        assert lab.api("GET", f"suggestions/{third}")["status"] == "rejected"
        shots.save("rejected")

        # Keys typed in a form field are the field's: nothing is decided.
        shots.at("form keys")
        agent_field = panel.locator(".jp-McpLab-grantAgent")
        agent_field.focus()
        for key in ("ArrowDown", "Escape", "ArrowUp"):
            page.keyboard.press(key)
        time.sleep(0.5)
        expect(options).to_have_count(2)
        expect(selected).to_have_attribute("data-id", fourth)
        assert [s["id"] for s in pending(lab)] == [first, fourth]

        # Clicking a suggestion selects it (and gives the list the keys back).
        shots.at("click")
        options.first.locator(".jp-McpLab-rationale").click()
        expect(selected).to_have_attribute("data-id", first)
        expect(listbox).to_be_focused()
        page.keyboard.press("Enter")
        expect(options).to_have_count(1, timeout=15_000)
        expect(selected).to_have_attribute("data-id", fourth)
        shots.save("done")

    assert lab.wait_for_file(DOC, lambda t: "ALPHA" in t) == TEXT.replace("alpha", "ALPHA").replace("beta", "BETA")
    assert [s["id"] for s in pending(lab)] == [fourth]
