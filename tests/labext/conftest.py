"""A real `jupyter lab` and Debian's headless Chromium, for the panel's browser tests.

``lab`` starts JupyterLab as a user would (the extension enabled by its install config),
with ``approval=suggest`` and a data directory of its own, on a free port; ``browser``
opens a page on it and saves a screenshot when a test fails (``test-artifacts/``);
``agent_call`` is an agent: the official Python SDK client calling a tool on the endpoint.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import open_mcp_client

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
TOKEN = "browser-test-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    base: str
    token: str
    root: Path

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    def api(self, method: str, route: str, **kwargs: Any) -> Any:
        """A REST call under ``mcp-lab/api/`` with the token; the decoded JSON answer."""
        r = httpx.request(method, f"{self.base}/mcp-lab/api/{route}", headers=self.headers, timeout=15, **kwargs)
        r.raise_for_status()
        return r.json() if r.content else None

    def agent_call(self, tool: str, arguments: dict[str, Any], client_name: str = "browser-test-agent") -> Any:
        """An agent (the SDK client, its own MCP session) calls one tool; the CallToolResult."""

        async def run() -> Any:
            async with open_mcp_client(f"{self.base}/mcp", self.headers, client_name=client_name) as client:
                return await client.call_tool(tool, arguments)

        # In a thread of its own: sync Playwright keeps an event loop running in this one.
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, run()).result()

    def wait_for_file(self, path: str, predicate: Any, seconds: float = 15) -> str:
        """The file's text once ``predicate(text)`` holds (or the last text read, to assert on)."""
        deadline = time.monotonic() + seconds
        text = (self.root / path).read_text()
        while not predicate(text) and time.monotonic() < deadline:
            time.sleep(0.2)
            text = (self.root / path).read_text()
        return text


# jupyter-collaboration's parts: off unless a test asks for live (collaborative) documents.
RTC_SERVER_EXTENSIONS = ("jupyter_server_ydoc",)
RTC_LAB_EXTENSIONS = ("@jupyter/collaboration-extension", "@jupyter/docprovider-extension")


def rtc_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("jupyter_server_ydoc") is not None


def _without_rtc(config_dir: Path) -> None:
    """User config that switches jupyter-collaboration off, as a person who never installed it has it."""
    import json

    (config_dir / "labconfig").mkdir(parents=True, exist_ok=True)
    disabled = {name: True for name in RTC_LAB_EXTENSIONS}
    (config_dir / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": disabled}))
    server = {"ServerApp": {"jpserver_extensions": {name: False for name in RTC_SERVER_EXTENSIONS}}}
    (config_dir / "jupyter_server_config.json").write_text(json.dumps(server))


@contextmanager
def start_lab(
    tmp_path: Path,
    *options: str,
    rtc: bool = False,
    python: str = sys.executable,
    app: str = "lab",
    base_url: str = "/",
    token: str = TOKEN,
    unset_env: tuple[str, ...] = (),
) -> Iterator[Lab]:
    """`jupyter lab` on a free port with the given extra command-line options; stopped after.

    ``rtc``: with jupyter-collaboration (live shared documents) if it is installed; off by
    default, so the other tests see JupyterLab as most people run it. ``python``: the
    environment it runs from (another venv's interpreter, for the Binder test). ``app``: the
    Jupyter application started (``notebook`` for Jupyter Notebook 7, ``server`` for a bare
    server), the same server options. ``base_url`` (``/user/ann/``, as a JupyterHub gives
    one) ends up in ``Lab.base``; ``unset_env``: variables the server must not inherit.
    """
    port = free_port()
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    extra = ["--allow-root"] if os.geteuid() == 0 else []
    config_dir = tmp_path / "config"
    if not rtc:
        _without_rtc(config_dir)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config_dir), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}
    for name in unset_env:
        env.pop(name, None)
    if base_url != "/":
        options = (f"--ServerApp.base_url={base_url}", *options)
    # The server's log goes to a file: a pipe nobody reads fills up (64 KB) over a module's
    # tests and the server then blocks on its next log line.
    log_path = tmp_path / f"server-{port}.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [
            python,
            "-m",
            "jupyter",
            app,
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={root}",
            f"--MCPLabApp.data_dir={tmp_path / 'data'}",  # no suggestions from earlier runs
            *options,
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        env=env,
        text=True,
        cwd=tmp_path,  # what the server writes to its working directory (a Y store) stays there
    )
    base = f"http://127.0.0.1:{port}{base_url.rstrip('/')}"
    try:
        deadline = time.monotonic() + 120  # two labs starting at once on 2 busy cores can take a minute
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/status", headers={"Authorization": f"token {token}"}, timeout=2).is_success:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, log_path.read_text(errors="replace")
            time.sleep(0.3)
        else:  # say so here rather than as the first test's connection error
            raise AssertionError(f"JupyterLab did not answer in 120 s:\n{log_path.read_text(errors='replace')[-4000:]}")
        yield Lab(base, token, root)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    """JupyterLab where agents' edits wait as suggestions (``approval=suggest``)."""
    with start_lab(tmp_path, "--MCPLabApp.approval=suggest") as running:
        yield running


class Shots:
    """Names the step a test is at; a failure saves ``<step>-failed.png``."""

    def __init__(self, page: Any, prefix: str) -> None:
        self.page, self.prefix, self.step = page, prefix, "start"

    def at(self, step: str) -> None:
        self.step = step

    def save(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{self.prefix}-{name}.png"))


@contextmanager
def browser(
    lab: Lab, prefix: str, width: int = 1400, height: int = 900, *, path: str = "lab", ready: str = ".jp-LabShell"
) -> Iterator[tuple[Any, Shots]]:
    """JupyterLab open in headless Chromium: (page, shots). The page has loaded the shell.

    ``path``: the page opened (``notebooks/<name>`` for Jupyter Notebook 7); ``ready``: a CSS
    selector present once that page has loaded.
    """
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page(viewport={"width": width, "height": height})
        shots = Shots(page, prefix)
        try:
            page.goto(f"{lab.base}/{path}?token={lab.token}")
            page.wait_for_selector(ready, timeout=60_000)
            yield page, shots
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"{prefix}-{shots.step}-failed.png"))  # what the person saw
            raise
        finally:
            chromium.close()


def open_panel(page: Any) -> Any:
    """Open the MCP Lab panel from the command palette, as a person would; its locator.

    While JupyterLab is still starting, the palette may not open: the shortcut is pressed
    again, and at last the panel's tab in the right side bar is clicked, as a person would do
    next (unless the panel shows already: the click would fold it). Keys are typed only into
    the palette: typed while it is not there, they would land in an open editor's document.
    """
    from playwright.sync_api import expect

    panel = page.locator("#jupyter-mcp-lab-panel")
    palette = page.locator(".jp-ModalCommandPalette .lm-CommandPalette-input")
    for _ in range(3):
        page.keyboard.press("Control+Shift+C")
        try:
            expect(palette).to_be_focused(timeout=3_000)
        except AssertionError:
            continue
        page.keyboard.type("Open MCP Lab panel")
        page.keyboard.press("Enter")
        try:
            expect(panel).to_be_visible(timeout=5_000)
            return panel
        except AssertionError:
            break
    if palette.is_visible():
        page.keyboard.press("Escape")
    if not panel.is_visible():
        page.locator(".jp-SideBar.jp-mod-right .lm-TabBar-tab", has_text="MCP Lab").click()
    expect(panel).to_be_visible(timeout=15_000)
    return panel


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in this folder drives Debian's Chromium: marked ``browser``, skipped without it."""
    here = Path(__file__).parent
    no_chromium = pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test installs it)"
    )
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.browser)
            item.add_marker(no_chromium)
