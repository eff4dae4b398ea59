"""The MCP Lab panel in a real JupyterLab, driven in Debian's headless Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test installs it)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """`jupyter lab` as a user starts it (the extension enabled by its install config)."""
    port, token = free_port(), "browser-test-token"
    extra = ["--allow-root"] if os.geteuid() == 0 else []
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={tmp_path}",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/status", headers={"Authorization": f"token {token}"}, timeout=2).is_success:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.3)
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_panel_shows_the_running_endpoint(lab):
    from playwright.sync_api import sync_playwright

    base, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 800})
            page.goto(f"{base}/lab?token={token}")
            page.wait_for_selector(".jp-LabShell", timeout=60_000)
            # Open the panel from the command palette, as a person would.
            page.keyboard.press("Control+Shift+C")
            page.keyboard.type("Open MCP Lab panel")
            page.keyboard.press("Enter")
            panel = page.locator("#jupyter-mcp-lab-panel")
            try:
                panel.get_by_text(f"{base}/mcp", exact=True).wait_for(timeout=20_000)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "panel-status-failed.png"))  # what the person saw
                raise
            text = panel.inner_text()
            page.screenshot(path=str(ARTIFACTS / "panel-status.png"))
        finally:
            browser.close()
    assert "running" in text
    assert "suggest" in text
    assert f"{base}/mcp" in text
