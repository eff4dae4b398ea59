"""The MCP Lab panel in a real JupyterLab, driven in Debian's headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.labext.conftest import Lab, browser, open_panel, start_lab


@pytest.fixture
def plain_lab(tmp_path: Path) -> Iterator[Lab]:
    """`jupyter lab` with the extension's defaults (approval ``suggest``)."""
    with start_lab(tmp_path) as running:
        yield running


def test_panel_shows_the_running_endpoint(plain_lab: Lab) -> None:
    with browser(plain_lab, "panel", height=800) as (page, shots):
        panel = open_panel(page)
        shots.at("status")
        panel.get_by_role("button", name="Connect an agent…").click()
        panel.get_by_text(f"{plain_lab.base}/mcp", exact=True).wait_for(timeout=20_000)
        text = panel.inner_text()
        shots.save("status")
    assert "running" in text
    assert "suggest" in text
    assert f"{plain_lab.base}/mcp" in text


def test_issue_an_agent_key_from_the_card(plain_lab: Lab) -> None:
    from playwright.sync_api import expect

    with browser(plain_lab, "panel-key", width=1366, height=768) as (page, shots):
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=plain_lab.base)
        panel = open_panel(page)
        shots.at("connect")
        panel.get_by_role("button", name="Connect an agent…").click()
        panel.locator(".jp-McpLab-clientSelect").select_option("cursor")
        panel.get_by_role("button", name="Issue a key for Cursor").click()

        # The configs now carry the new key, shown once; the server lists the key.
        issued = panel.locator(".jp-McpLab-keys.jp-mod-issued")
        expect(issued).to_contain_text("A key for cursor", timeout=15_000)
        [key] = [k for k in plain_lab.api("GET", "keys")["keys"] if k["name"] == "cursor"]
        assert key["state"] == "active"
        row = panel.locator('.jp-McpLab-endpoint[data-profile="lab"]')
        row.locator('.jp-McpLab-copyConfig[data-client="cursor"]').click()
        config = page.evaluate("navigator.clipboard.readText()")
        assert f"jml_{key['id']}_" in config and f"{plain_lab.base}/mcp" in config, config
        shots.save("issued")

        # Done hides it for good; asking again for a live name offers to replace it.
        issued.get_by_role("button", name="Done").click()
        expect(issued).to_have_count(0)
        row.locator('.jp-McpLab-copyConfig[data-client="cursor"]').click()
        assert "jml_" not in page.evaluate("navigator.clipboard.readText()")
        panel.get_by_role("button", name="Issue a key for Cursor").click()
        expect(panel.locator(".jp-McpLab-keys")).to_contain_text("is live already", timeout=15_000)
        panel.get_by_role("button", name="Replace it").click()
        expect(issued).to_contain_text("A key for cursor", timeout=15_000)
        keys = plain_lab.api("GET", "keys", params={"revoked": "true"})["keys"]
        assert sorted(k["state"] for k in keys if k["name"] == "cursor") == ["active", "revoked"]
        shots.save("replaced")
