"""A kill -9 storm (issue 12, finding 3), bounded and on loopback only.

A real ``jupyter server`` with the extension under ``approval=auto`` serves four MCP clients,
each rewriting its own file with 0.5-3 MB texts one write after another; the server gets
SIGKILL a few seconds in, a few rounds. After each kill every file must be exactly the text
of its last acknowledged write, or of the one in flight when the server died (complete: a
write either happened or did not), never cut; and after each restart no temporary file of
the killed server is left and its status says what the start found.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import pytest

from ..conftest import open_mcp_client
from .test_jupyter_lab_subprocess import LabProcess, free_port, jupyter_env, wait_until_ready

ROUNDS = int(os.environ.get("KILL_STORM_ROUNDS", "4"))  # more for a longer storm by hand
CLIENTS = 4


@dataclass
class Writes:
    """One client's file: what the server acknowledged last, and what it was sent since."""

    path: str
    acknowledged: str
    in_flight: str | None = None
    count: int = 0
    sizes: list[int] = field(default_factory=list)


def text(rng: random.Random, label: str) -> str:
    size = rng.randint(500_000, 3_000_000)
    body = os.urandom(size // 2).hex()
    return f"# {label}\n" + "\n".join(body[i : i + 79] for i in range(0, len(body), 79)) + "\n"


def digest(s: str) -> str:
    return hashlib.sha256(s.encode()).hexdigest()[:12]


def start(tmp_path: Path, env: dict[str, str], root: Path, round_: int) -> LabProcess:
    port, token = free_port(), secrets.token_hex(16)
    argv = [
        sys.executable, "-m", "jupyter", "server", "--no-browser", f"--ServerApp.token={token}",
        f"--port={port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1", f"--ServerApp.root_dir={root}",
        "--allow-root", '--ServerApp.jpserver_extensions={"jupyter_mcp_lab": True}', "--MCPLabApp.approval=auto",
        "--MCPLabApp.profiles=lab", f"--MCPLabApp.data_dir={tmp_path / 'data'}",
    ]  # fmt: skip
    log_path = tmp_path / f"server-{round_}.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    return LabProcess(proc, port, token, log_path, enabled_by_config=False)


async def writer(server: LabProcess, w: Writes, rng: random.Random) -> None:
    async with open_mcp_client(f"{server.origin}/mcp", server.auth, client_name=f"writer-{w.path}") as client:
        while True:
            w.in_flight = text(rng, f"{w.path} write {w.count}")
            result = await client.call_tool("document", {"action": "write", "path": w.path, "content": w.in_flight})
            assert not result.is_error, str(result.content)[:300]
            w.acknowledged, w.in_flight = w.in_flight, None
            w.count += 1
            w.sizes.append(len(w.acknowledged))


async def storm_round(server: LabProcess, writes: list[Writes], rng: random.Random) -> None:
    tasks = [asyncio.create_task(writer(server, w, random.Random(rng.random()))) for w in writes]
    await asyncio.sleep(rng.uniform(2.5, 4.5))
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(timeout=30)
    for t in tasks:
        t.cancel()
    for t in tasks:
        with contextlib.suppress(BaseException):  # the connection died with the server
            await t


def check_files(root: Path, writes: list[Writes], round_: int) -> None:
    for w in writes:
        on_disk = (root / w.path).read_text(encoding="utf-8")
        allowed = {digest(w.acknowledged): "acknowledged"}
        if w.in_flight is not None:
            allowed[digest(w.in_flight)] = "in flight"
        assert digest(on_disk) in allowed, (
            f"round {round_}: {w.path} is neither its acknowledged nor its in-flight text "
            f"({len(on_disk)} characters, starting {on_disk[:40]!r})"
        )
        if w.in_flight is not None and digest(on_disk) == digest(w.in_flight):
            w.acknowledged = w.in_flight  # it happened: the next round starts from it
        w.in_flight = None


@pytest.mark.timeout(60 * ROUNDS)
async def test_files_survive_a_kill_9_storm(tmp_path: Path) -> None:
    env = jupyter_env(tmp_path)
    root = tmp_path / "workspace"
    root.mkdir()
    writes = [Writes(f"file-{n}.md", f"# file {n}\n") for n in range(CLIENTS)]
    for w in writes:
        (root / w.path).write_text(w.acknowledged, encoding="utf-8")
    rng = random.Random(12)
    started = time.monotonic()
    for round_ in range(ROUNDS):
        server = start(tmp_path, env, root, round_)
        try:
            await asyncio.to_thread(wait_until_ready, server)
            if round_:
                async with httpx2.AsyncClient(timeout=10) as http:
                    status = (await http.get(f"{server.origin}/mcp-lab/api/status", headers=server.auth)).json()
                assert status["recovery"]["complete"] is True
                assert all(f["action"] == "removed-temp" for f in status["recovery"]["files"]), status["recovery"]
                leftovers = [p.name for p in root.iterdir() if p.name.startswith(".~")]
                assert leftovers == [], f"round {round_}: left beside the files: {leftovers}"
            await storm_round(server, writes, rng)
        finally:
            if server.proc.poll() is None:
                server.proc.kill()
                server.proc.wait(timeout=30)
        check_files(root, writes, round_)
    total = sum(w.count for w in writes)
    assert total >= ROUNDS * CLIENTS, f"only {total} acknowledged writes: the storm did not write much"
    print(f"{ROUNDS} rounds, {total} acknowledged writes in {time.monotonic() - started:.0f} s")
