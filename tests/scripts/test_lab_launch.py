"""scripts/lab's port and token (scripts/lab_launch.py): a restart keeps both.

The port test makes what a lab stopped seconds ago leaves: a port whose only sockets are
connections in TIME_WAIT (the server closed them first). A plain bind is refused there, so
the old probe moved on to the next port; Jupyter binds it (SO_REUSEADDR, as Tornado does),
and so does the probe now. A real ``jupyter server`` is then started on that port.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from ..conftest import ROOT

SCRIPT = ROOT / "scripts" / "lab_launch.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lab_launch", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lab_launch = _load()


def plain_bind(port: int) -> bool:
    """The probe scripts/lab had: a bind without SO_REUSEADDR."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.fixture
def time_wait_port() -> Iterator[int]:
    """A port with no listener and a closed connection on it in TIME_WAIT."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    conn, _ = listener.accept()
    conn.close()  # the server side closes first: its end (local port `port`) waits in TIME_WAIT
    time.sleep(0.1)
    client.close()
    listener.close()
    time.sleep(0.1)
    yield port


def test_a_port_held_only_by_time_wait_is_free(time_wait_port: int) -> None:
    assert not plain_bind(time_wait_port), "no TIME_WAIT socket holds the port: the test proves nothing"
    assert lab_launch.can_bind(time_wait_port)
    assert lab_launch.free_port(time_wait_port) == time_wait_port


def test_a_listening_port_stays_busy() -> None:
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert not lab_launch.can_bind(port)
        found = lab_launch.free_port(port)
        assert found > port and lab_launch.can_bind(found)


def test_jupyter_comes_up_on_the_time_wait_port(time_wait_port: int, tmp_path: Path) -> None:
    """What the probe calls free, Jupyter binds (with port_retries=0, as scripts/lab starts it)."""
    port = int(subprocess.check_output([sys.executable, str(SCRIPT), "port", str(time_wait_port)], text=True))
    assert port == time_wait_port
    assert not plain_bind(port)  # still in TIME_WAIT while Jupyter starts
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"), "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg")}
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "server",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.token=t0k",
            f"--ServerApp.root_dir={tmp_path}",
            "--allow-root",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/status", headers={"Authorization": "token t0k"}).is_success:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
            time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()


def test_the_token_is_kept_per_workspace_and_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = lab_launch.workspace_token(tmp_path / "a", data)
    assert len(first) == 48
    path = lab_launch.token_file(tmp_path / "a", data)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert lab_launch.workspace_token(tmp_path / "a", data) == first  # a restart: the same token
    other = lab_launch.workspace_token(tmp_path / "b", data)
    assert other != first  # another workspace has its own
    # A file someone loosened is made private again; its token is kept.
    path.chmod(0o644)
    assert lab_launch.workspace_token(tmp_path / "a", data) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    kept = {path.name, lab_launch.token_file(tmp_path / "b", data).name}
    assert {p.name for p in path.parent.iterdir()} == kept  # no partial file left behind


def test_the_token_command_uses_jupyters_data_dir(tmp_path: Path) -> None:
    env = {**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "jd")}
    run = [sys.executable, str(SCRIPT), "token", str(tmp_path / "ws")]
    first = subprocess.check_output(run, env=env, text=True).strip()
    assert subprocess.check_output(run, env=env, text=True).strip() == first
    assert lab_launch.token_file(tmp_path / "ws", tmp_path / "jd").read_text().strip() == first


def test_scripts_lab_lets_jupyter_token_win() -> None:
    text = (ROOT / "scripts" / "lab").read_text()
    assert 'TOKEN="${JUPYTER_TOKEN:-$(python scripts/lab_launch.py token "$WORKSPACE")}"' in text
    assert 'PORT="$(python scripts/lab_launch.py port "$PORT")"' in text
