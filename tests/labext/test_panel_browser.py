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
    from playwright.sync_api import expect

    with browser(plain_lab, "panel", height=800) as (page, shots):
        panel = open_panel(page)
        shots.at("status")
        panel.get_by_text(f"{plain_lab.base}/mcp", exact=True).wait_for(timeout=20_000)
        text = panel.inner_text()
        shots.save("status")

        # The card folds to its summary line, and stays folded after a reload.
        shots.at("folded")
        card = panel.locator("details.jp-McpLab-connection")
        expect(card.locator("summary")).to_contain_text("running · approval: suggest · 0 agents")
        card.locator("summary").click()
        expect(panel.get_by_text(f"{plain_lab.base}/mcp", exact=True)).to_be_hidden()
        page.reload()
        page.wait_for_selector(".jp-LabShell", timeout=60_000)
        panel = open_panel(page)
        card = panel.locator("details.jp-McpLab-connection")
        expect(card.locator("summary")).to_contain_text("approval: suggest", timeout=20_000)
        assert card.get_attribute("open") is None
        shots.save("folded")
    assert "running" in text
    assert "suggest" in text
    assert f"{plain_lab.base}/mcp" in text
