"""The command line: standalone stdio and HTTP servers, and client configs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import httpx
import httpx2
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

CLI = [sys.executable, "-m", "jupyter_mcp_lab"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_stdio_serves_the_lab_profile(tmp_path):
    params = StdioServerParameters(command=sys.executable, args=[*CLI[1:], "stdio", "--root", str(tmp_path)])
    async with Client(params) as client:
        tools = await client.list_tools()
        result = await client.call_tool("session", {"action": "get_state"})
    assert [t.name for t in tools.tools] == [
        "session",
        "workspace",
        "document",
        "editor",
        "notebook",
        "outline",
        "workflow",
        "review",
        "lab",
    ]
    assert result.structured_content["capabilities"]["host"] == "standalone"
    assert result.structured_content["windows"][0]["label"] == "main"


@pytest.fixture
def http_server(tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [*CLI, "http", "--root", str(tmp_path), "--port", str(port), "--token", "s3cret"],
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read()
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        banner = proc.stderr.read()
        assert "Traceback" not in banner, banner


async def test_http_requires_the_token_and_serves_the_same_tools(http_server):
    async with httpx.AsyncClient(timeout=5) as plain:
        refused = await plain.post(http_server, json={})
        wrong = await plain.post(http_server, json={}, headers={"Authorization": "Bearer nope"})
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert wrong.status_code == 401
    async with (
        httpx2.AsyncClient(headers={"Authorization": "token s3cret"}) as http,
        Client(streamable_http_client(http_server, http_client=http), mode="legacy") as client,
    ):
        result = await client.call_tool("session", {"action": "get_state"})
    caps = result.structured_content["capabilities"]
    assert caps["host"] == "standalone"
    assert caps["profiles"][0]["url"] == http_server


def test_http_keeps_dns_rebinding_protection_on(http_server):
    answer = httpx.post(
        http_server,
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={
            "Authorization": "Bearer s3cret",
            "Host": "evil.example",
            "Accept": "application/json, text/event-stream",
        },
        timeout=5,
    )
    assert answer.status_code == 421


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60, env=env)


KEY = "jml_0123456789ab_" + "k" * 43


def test_config_prints_every_client_with_a_given_key():
    out = run_cli("config", "--url", "http://127.0.0.1:9/mcp", "--key", KEY).stdout
    expected = (
        f"claude mcp add --transport http jupyter-lab http://127.0.0.1:9/mcp --header 'Authorization: Bearer {KEY}'"
    )
    assert expected in out
    blocks = [b for b in out.split("\n\n") if b.startswith("# ") and "{" in b]
    configs = {b.splitlines()[0]: json.loads(b.split("\n", 1)[1]) for b in blocks}
    vscode = configs["# VS Code (.vscode/mcp.json)"]["servers"]["jupyter-lab"]
    assert vscode == {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": f"Bearer {KEY}"}}
    cursor = configs["# Cursor (~/.cursor/mcp.json)"]["mcpServers"]["jupyter-lab"]
    assert cursor["headers"]["Authorization"] == f"Bearer {KEY}"
    desktop = configs["# Claude Desktop (claude_desktop_config.json; needs Node.js for npx)"]
    assert "http://127.0.0.1:9/mcp" in desktop["mcpServers"]["jupyter-lab"]["args"]


def test_config_finds_the_running_server_from_jupyter_runtime_files(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime)}
    none = run_cli("config", env=env)
    assert none.returncode != 0 and "no running Jupyter server" in none.stderr
    info = {
        "url": "http://127.0.0.1:9/",
        "token": "abc",
        "pid": os.getpid(),  # list_running_servers drops files of dead processes
        "root_dir": str(tmp_path),
        "port": 9,
        "base_url": "/",
        "secure": False,
        "hostname": "127.0.0.1",
        "password": False,
        "version": "2",
        "sock": "",
    }
    (runtime / f"jpserver-{os.getpid()}.json").write_text(json.dumps(info))
    found = run_cli("config", "--client", "claude-code", "--key", KEY, env=env)
    assert found.returncode == 0, found.stderr
    assert f"http://127.0.0.1:9/mcp --header 'Authorization: Bearer {KEY}'" in found.stdout
    # Without --key it asks that server for a key, and never falls back to its token.
    unreachable = run_cli("config", "--client", "claude-code", env=env)
    assert unreachable.returncode != 0 and "cannot reach http://127.0.0.1:9/" in unreachable.stderr
    assert "abc" not in unreachable.stdout


def test_bad_arguments_fail_with_a_message(tmp_path):
    missing = run_cli("stdio", "--root", str(tmp_path / "nope"))
    assert missing.returncode != 0 and "is not a directory" in missing.stderr
    unknown = run_cli("http", "--root", str(tmp_path), "--profile", "bogus")
    assert unknown.returncode != 0 and "unknown profile" in unknown.stderr
    client = run_cli("config", "--url", "http://x/mcp", "--token", "t", "--client", "emacs")
    assert client.returncode != 0 and "unknown client" in client.stderr
    no_credential = run_cli("config", "--url", "http://x/mcp")
    assert no_credential.returncode != 0 and "--token" in no_credential.stderr
    not_mcp = run_cli("config", "--url", "http://x/lab", "--token", "t")
    assert not_mcp.returncode != 0 and "not an MCP endpoint URL" in not_mcp.stderr
