"""The port and the token `scripts/lab` starts JupyterLab with, kept stable across restarts.

    python scripts/lab_launch.py port 8888      the first port from 8888 on that Jupyter can bind
    python scripts/lab_launch.py token ROOT     this workspace's token (made once, then reused)

Port: Jupyter (Tornado's ``bind_sockets``) binds with ``SO_REUSEADDR``, so a port held only by
connections in TIME_WAIT (a lab stopped seconds ago) is free to it; the probe binds the same
way, so a restart comes up on the port it was asked for instead of the next one. A port some
process still listens on stays busy (Linux refuses a second listener even with the option).

Token: the one in the workspace's file under Jupyter's data directory
(``jupyter_mcp_lab/lab-tokens/<hash of the root>``, mode 0600, in a 0700 folder), made on the
first start; so JupyterLab's URL and pasted agent configs keep working after a restart.
``JUPYTER_TOKEN`` in the environment wins over it (scripts/lab passes it on unchanged).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
import stat
import sys
from pathlib import Path

TOKENS = Path("jupyter_mcp_lab") / "lab-tokens"


def can_bind(port: int, host: str = "127.0.0.1") -> bool:
    """Whether Jupyter could listen on ``port`` now (bound as Tornado binds: SO_REUSEADDR)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def free_port(start: int, host: str = "127.0.0.1", tries: int = 50) -> int:
    """The first port from ``start`` on that Jupyter could listen on."""
    for port in range(start, min(start + tries, 65536)):
        if can_bind(port, host):
            return port
    raise OSError(f"no free port in {start}-{start + tries - 1} on {host}")


def token_file(root: str | os.PathLike[str], data_dir: str | os.PathLike[str]) -> Path:
    """Where the token of the workspace ``root`` is kept (one file per workspace)."""
    key = hashlib.sha256(os.path.realpath(root).encode()).hexdigest()[:16]
    return Path(data_dir) / TOKENS / key


def workspace_token(root: str | os.PathLike[str], data_dir: str | os.PathLike[str]) -> str:
    """The workspace's token: the kept one, or a new one kept for the next start."""
    path = token_file(root, data_dir)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        token = path.read_text().strip()
    except FileNotFoundError:
        token = ""
    if token:
        if stat.S_IMODE(path.stat().st_mode) != 0o600:
            path.chmod(0o600)  # a copied or hand-made file: keep it the person's alone
        return token
    token = secrets.token_hex(24)
    # Created 0600 (never readable by others, not even for a moment), atomically in place.
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # a leftover partial file keeps its mode through O_CREAT
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    os.replace(partial, path)
    return token


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "port":
        print(free_port(int(argv[1])))
        return 0
    if len(argv) == 2 and argv[0] == "token":
        from jupyter_core.paths import jupyter_data_dir

        print(workspace_token(argv[1], jupyter_data_dir()))
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
