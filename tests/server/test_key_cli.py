"""The command line against a running server: ``keys add|list`` on its data directory (a new
key works at once), and ``config``, which prints configs with a key issued for the client,
never the Jupyter token."""

from __future__ import annotations

import shlex
import sys
from typing import Any

import httpx2

from ..conftest import LabServer, Tools, run_process
from .keys import bearer
from .test_mcp_endpoint import INITIALIZE, STREAMABLE


async def cli(*args: str) -> Any:
    return await run_process(sys.executable, "-m", "jupyter_mcp_lab", *args, time_limit=60)


async def initialize(server: LabServer, secret: str) -> int:
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.post(server.mcp_url(), headers={**STREAMABLE, **bearer(secret)}, json=INITIALIZE)
    return r.status_code


async def test_keys_add_and_list_on_the_servers_data_directory(mcp_lab: LabServer, mcp_client: Any) -> None:
    where = ("--root", str(mcp_lab.serverapp.root_dir), "--data-dir", mcp_lab.extension.data_dir)
    added = await cli("keys", "add", "from-cli", "--expires", "1d", "--profiles", "lab", *where)
    assert added.returncode == 0, added.stderr
    secret = added.stdout.strip()
    assert secret.startswith("jml_") and "shown this once" in added.stderr and secret not in added.stderr
    async with mcp_client(headers=bearer(secret), client_name="cli-made") as client:
        caller = (await Tools(client).ok("session", "get_state"))["caller"]
    assert caller["clientName"] == "from-cli"

    listed = await cli("keys", "list", *where)
    assert listed.returncode == 0, listed.stderr
    [header, row] = listed.stdout.splitlines()
    assert header.split()[:2] == ["NAME", "STATE"]
    assert row.split()[:2] == ["from-cli", "active"] and row.split()[-1] == "lab"
    assert secret not in listed.stdout + listed.stderr

    again = await cli("keys", "add", "from-cli", *where)
    assert again.returncode != 0 and "exists" in again.stderr


async def test_config_issues_a_key_per_client_and_rotates_it(mcp_lab: LabServer, mcp_client: Any) -> None:
    url = mcp_lab.mcp_url()
    first = await cli("config", "--url", url, "--token", mcp_lab.token, "--client", "claude-code")
    assert first.returncode == 0, first.stderr
    assert mcp_lab.token not in first.stdout
    command = shlex.split(first.stdout.splitlines()[-1])
    header = command[command.index("--header") + 1]
    assert header.startswith("Authorization: Bearer jml_")
    secret = header.removeprefix("Authorization: Bearer ")
    async with mcp_client(headers=bearer(secret), client_name="claude") as client:
        assert (await Tools(client).ok("session", "get_state"))["caller"]["clientName"] == "claude-code"

    second = await cli("config", "--url", url, "--token", mcp_lab.token, "--client", "claude-code")
    assert second.returncode == 0, second.stderr
    assert "replaced the earlier agent key 'claude-code'" in second.stderr
    newer = shlex.split(second.stdout.splitlines()[-1])[-1].removeprefix("Authorization: Bearer ")
    assert newer != secret
    assert await initialize(mcp_lab, secret) == 401
    assert await initialize(mcp_lab, newer) == 200

    # What scripts/lab runs at every start: keys for the clients without one, the others kept.
    missing = await cli("config", "--url", url, "--token", mcp_lab.token, "--if-missing")
    assert missing.returncode == 0, missing.stderr
    assert "# Claude Code: has its agent key 'claude-code'" in missing.stdout
    assert missing.stdout.count("Bearer jml_") == 3 and newer not in missing.stdout
    assert await initialize(mcp_lab, newer) == 200
    names = [k.name for k in mcp_lab.extension.keys.store.list()]
    assert sorted(names) == ["claude-code", "claude-desktop", "cursor", "vscode"]
    again = await cli("config", "--url", url, "--token", mcp_lab.token, "--if-missing")
    assert again.returncode == 0 and "Bearer jml_" not in again.stdout


async def test_config_needs_the_persons_token_to_issue(mcp_lab: LabServer) -> None:
    refused = await cli("config", "--url", mcp_lab.mcp_url(), "--token", "not-the-token", "--client", "cursor")
    assert refused.returncode != 0 and "the server refused (401)" in refused.stderr
    assert mcp_lab.extension.keys.store.list() == []
