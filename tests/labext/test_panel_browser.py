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
        panel.get_by_text(f"{plain_lab.base}/mcp", exact=True).wait_for(timeout=20_000)
        text = panel.inner_text()
        shots.save("status")
    assert "running" in text
    assert "suggest" in text
    assert f"{plain_lab.base}/mcp" in text
