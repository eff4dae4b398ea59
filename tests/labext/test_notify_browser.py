"""Notifications and the auto-open setting, in a real JupyterLab in headless Chromium.

A suggestion staged before the page loaded is not announced (the stream's replay is not
news); one staged while the person works is, once per agent and document, with a button
that opens the review (the panel, and the document with the cursor on its first
suggestion); with ``autoOpen`` set in JupyterLab's settings the panel opens by itself.
"""

from __future__ import annotations

import re

import httpx

from tests.labext.conftest import Lab, browser

DOC = "notes.md"
TEXT = "# Notes\n\nOne fox.\n\nTwo dogs.\n\nThree cats.\n"
TOAST = ".jp-toast-message"  # JupyterLab's notification toasts (JupyterLab's news asks in one too)


def suggest(lab: Lab, edits: list[tuple[str, str]]) -> None:
    ops = [{"op": "anchored", "text": a, "replacement": b} for a, b in edits]
    result = lab.agent_call("document", {"action": "edit", "path": DOC, "edits": ops, "rationale": "test"})
    assert not result.is_error, result
    assert result.structured_content["mode"] == "suggest"


def set_settings(lab: Lab, values: dict[str, object]) -> None:
    import json

    r = httpx.put(
        f"{lab.base}/lab/api/settings/jupyter-mcp-lab:plugin",
        headers=lab.headers,
        json={"raw": json.dumps(values)},
        timeout=10,
    )
    assert r.status_code == 204, r.text


def test_new_suggestions_are_announced_once(lab: Lab) -> None:
    from playwright.sync_api import expect

    (lab.root / DOC).write_text(TEXT)
    suggest(lab, [("One fox", "One red fox")])  # before the page: replayed, not news
    with browser(lab, "notify") as (page, shots):
        panel = page.locator("#jupyter-mcp-lab-panel")
        shots.at("quiet-load")
        page.wait_for_timeout(2500)  # the stream has connected and replayed by now
        expect(page.locator(TOAST, has_text="suggests")).to_have_count(0)

        shots.at("announced")
        suggest(lab, [("Two dogs", "Two big dogs"), ("Three cats", "Three small cats")])  # two hunks
        toast = page.locator(TOAST, has_text="suggests")
        expect(toast).to_have_count(1, timeout=15_000)
        expect(toast).to_contain_text("browser-test-agent suggests 2 changes to notes.md")
        expect(panel).to_be_hidden()
        shots.save("announced")

        # Review opens the panel and the document it names, the cursor on its first suggestion.
        shots.at("review-button")
        page.get_by_role("button", name="Review").click()
        expect(panel).to_be_visible(timeout=10_000)
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(3, timeout=15_000)
        # The document is open in an editor. Once its inline marks are drawn, "Three cats" reads
        # "Three small✓✕ cats" there (the inserted word and its buttons): both count.
        editor = page.locator(".jp-FileEditor .cm-content")
        expect(editor).to_contain_text(re.compile(r"Three (small\S*\s*)?cats\."), timeout=30_000)
        expect(page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")).to_contain_text(DOC, timeout=15_000)
        expect(page.locator(".jp-StatusBar-TextItem", has_text="Ln 3, Col 5")).to_have_count(1, timeout=15_000)
        current = panel.locator('.jp-McpLab-suggestion[aria-current="true"]')
        expect(current).to_contain_text("One red fox", timeout=15_000)
        shots.save("review-opened")


def test_auto_open_and_notifications_off(lab: Lab) -> None:
    from playwright.sync_api import expect

    (lab.root / DOC).write_text(TEXT)
    set_settings(lab, {"autoOpen": True, "notifications": False})
    with browser(lab, "auto-open") as (page, shots):
        panel = page.locator("#jupyter-mcp-lab-panel")
        page.wait_for_timeout(2500)
        expect(panel).to_be_hidden()
        shots.at("opened")
        suggest(lab, [("One fox", "One red fox")])
        expect(panel).to_be_visible(timeout=15_000)
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(1, timeout=15_000)
        expect(page.locator(TOAST, has_text="suggests")).to_have_count(0)
        shots.save("opened")
