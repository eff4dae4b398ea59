"""The panel's "Pending suggestions" in a real JupyterLab, driven in Debian's headless Chromium.

An agent stages suggestions through the MCP endpoint (the official Python SDK client); a
person accepts one and rejects the other in the panel; the file on disk follows.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import open_mcp_client
from tests.labext.test_panel_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, free_port

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test installs it)"),
]

DOC = "notes.md"
TEXT = "# Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"


@pytest.fixture
def lab(tmp_path):
    """`jupyter lab` with agents' edits waiting as suggestions."""
    port, token = free_port(), "browser-test-token"
    root = tmp_path / "root"
    root.mkdir()
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
            f"--ServerApp.root_dir={root}",
            "--MCPLabApp.approval=suggest",
            f"--MCPLabApp.data_dir={tmp_path / 'data'}",  # no suggestions from earlier runs
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
        yield base, token, root
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def suggest(base: str, token: str, text: str, replacement: str, rationale: str) -> None:
    """An agent stages one anchored edit; with approval=suggest it waits for review."""

    async def run() -> None:
        async with open_mcp_client(f"{base}/mcp", {"Authorization": f"token {token}"}) as client:
            result = await client.call_tool(
                "document",
                {
                    "action": "edit",
                    "path": DOC,
                    "edits": [{"op": "anchored", "text": text, "replacement": replacement}],
                    "rationale": rationale,
                },
            )
            assert not result.is_error, result

    # In a thread of its own: sync Playwright keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


def pending(base: str, token: str) -> list[dict]:
    answer = httpx.get(
        f"{base}/mcp-lab/api/suggestions", headers={"Authorization": f"token {token}"}, timeout=10
    ).raise_for_status()
    return answer.json()["suggestions"]


def test_accept_and_reject_in_the_panel(lab):
    from playwright.sync_api import expect, sync_playwright

    base, token, root = lab
    doc = root / DOC
    doc.write_text(TEXT)
    ARTIFACTS.mkdir(exist_ok=True)

    suggest(base, token, "quick brown fox", "quick red fox", "Foxes here are red.")
    assert doc.read_text() == TEXT  # staged, not applied
    assert len(pending(base, token)) == 1

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        shot = "review-start"
        try:
            page.goto(f"{base}/lab?token={token}")
            page.wait_for_selector(".jp-LabShell", timeout=60_000)
            page.keyboard.press("Control+Shift+C")
            page.keyboard.type("Open MCP Lab panel")
            page.keyboard.press("Enter")
            panel = page.locator("#jupyter-mcp-lab-panel")

            # The suggestion shows with its author, rationale, lines and change.
            shot = "review-pending"
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
            page.screenshot(path=str(ARTIFACTS / "review-pending.png"))

            # Accept: the file on disk changes, the list empties.
            shot = "review-accept"
            item.get_by_role("button", name="Accept", exact=True).click()
            expect(item).to_have_count(0, timeout=15_000)
            deadline = time.monotonic() + 15
            while doc.read_text() == TEXT and time.monotonic() < deadline:
                time.sleep(0.2)
            assert doc.read_text() == TEXT.replace("quick brown fox", "quick red fox")
            accepted_text = doc.read_text()
            expect(panel.locator(".jp-McpLab-empty")).to_be_visible()
            page.screenshot(path=str(ARTIFACTS / "review-accepted.png"))

            # A second suggestion arrives while the panel is open (event stream).
            shot = "review-second"
            suggest(base, token, "lazy dog", "sleepy cat", "Cats sleep more.")
            expect(item).to_have_count(1, timeout=15_000)
            expect(item.locator(".jp-McpLab-rationale")).to_have_text("Cats sleep more.")
            expect(item.locator(".jp-McpLab-lines")).to_have_text("line 5")
            page.screenshot(path=str(ARTIFACTS / "review-second.png"))

            # Reject: the file stays as it is.
            shot = "review-reject"
            item.get_by_role("button", name="Reject", exact=True).click()
            expect(item).to_have_count(0, timeout=15_000)
            expect(page.locator(".lm-TabBar-tab.jp-McpLab-hasPending")).to_have_count(0)
            page.screenshot(path=str(ARTIFACTS / "review-rejected.png"))
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"{shot}-failed.png"))  # what the person saw
            raise
        finally:
            browser.close()

    time.sleep(0.5)
    assert doc.read_text() == accepted_text
    assert pending(base, token) == []
