"""The panel's "Pending suggestions" in a real JupyterLab, driven in Debian's headless Chromium.

An agent stages suggestions through the MCP endpoint (the official Python SDK client); a
person accepts one and rejects the other in the panel; the file on disk follows.
"""

from __future__ import annotations

import time

from tests.labext.conftest import Lab, browser, open_panel

DOC = "notes.md"
TEXT = "# Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"


def suggest(lab: Lab, text: str, replacement: str, rationale: str) -> None:
    """An agent stages one anchored edit; with approval=suggest it waits for review."""
    edit = {"op": "anchored", "text": text, "replacement": replacement}
    result = lab.agent_call("document", {"action": "edit", "path": DOC, "edits": [edit], "rationale": rationale})
    assert not result.is_error, result


def pending(lab: Lab) -> list[dict]:
    return lab.api("GET", "suggestions")["suggestions"]


def test_accept_and_reject_in_the_panel(lab: Lab) -> None:
    from playwright.sync_api import expect

    doc = lab.root / DOC
    doc.write_text(TEXT)

    suggest(lab, "quick brown fox", "quick red fox", "Foxes here are red.")
    assert doc.read_text() == TEXT  # staged, not applied
    assert len(pending(lab)) == 1

    with browser(lab, "review") as (page, shots):
        panel = open_panel(page)

        # The suggestion shows with its author, rationale, lines and change.
        shots.at("pending")
        item = panel.locator(".jp-McpLab-suggestion")
        expect(item).to_have_count(1, timeout=20_000)
        expect(panel.locator(".jp-McpLab-document")).to_have_attribute("data-path", DOC)
        expect(item.locator(".jp-McpLab-rationale")).to_have_text("Foxes here are red.")
        expect(item.locator(".jp-McpLab-lines")).to_have_text("line 3")
        expect(item.locator(".jp-McpLab-original")).to_contain_text("brown")
        expect(item.locator(".jp-McpLab-new")).to_contain_text("red")
        assert item.locator(".jp-McpLab-author").inner_text().strip()
        # The unified diff from GET suggestions/{id}.
        item.get_by_role("button", name="Diff").click()
        expect(item.locator(".jp-McpLab-diffAdd")).to_contain_text("+The quick red fox.", timeout=10_000)
        expect(item.locator(".jp-McpLab-diffDel")).to_contain_text("-The quick brown fox.")
        # The pending count on the side-bar tab.
        tab = page.locator(".lm-TabBar-tab.jp-McpLab-hasPending")
        expect(tab).to_have_attribute("data-mcp-lab-pending", "1")
        expect(tab).to_contain_text("MCP Lab (1)")
        shots.save("pending")

        # Accept: the file on disk changes, the list empties.
        shots.at("accept")
        item.get_by_role("button", name="Accept", exact=True).click()
        expect(item).to_have_count(0, timeout=15_000)
        accepted_text = lab.wait_for_file(DOC, lambda t: t != TEXT)
        assert accepted_text == TEXT.replace("quick brown fox", "quick red fox")
        expect(panel.locator(".jp-McpLab-review .jp-McpLab-empty")).to_be_visible()
        shots.save("accepted")

        # A second suggestion arrives while the panel is open (event stream).
        shots.at("second")
        suggest(lab, "lazy dog", "sleepy cat", "Cats sleep more.")
        expect(item).to_have_count(1, timeout=15_000)
        expect(item.locator(".jp-McpLab-rationale")).to_have_text("Cats sleep more.")
        expect(item.locator(".jp-McpLab-lines")).to_have_text("line 5")
        shots.save("second")

        # Reject: the file stays as it is.
        shots.at("reject")
        item.get_by_role("button", name="Reject", exact=True).click()
        expect(item).to_have_count(0, timeout=15_000)
        expect(page.locator(".lm-TabBar-tab.jp-McpLab-hasPending")).to_have_count(0)
        shots.save("rejected")

    time.sleep(0.5)
    assert doc.read_text() == accepted_text
    assert pending(lab) == []
