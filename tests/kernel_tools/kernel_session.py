"""A kernel started through the server's REST API and driven over its websocket, as
JupyterLab drives one: the server is the kernel's parent and its environment is the
server's, which is what ``connect()`` with no arguments relies on."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.kernel_tools.conftest import Lab


@dataclass
class Cell:
    """What one execute request produced."""

    out: str  # stdout, stderr and tracebacks, in order
    iopub: list[dict[str, Any]] = field(default_factory=list)
    status: str = "ok"

    def of_type(self, msg_type: str) -> list[dict[str, Any]]:
        return [m for m in self.iopub if m["msg_type"] == msg_type]


class KernelSession:
    def __init__(self, server: Lab, ws: Any) -> None:
        self.server, self._ws = server, ws
        from jupyter_client.session import Session

        self._session = Session()
        self.stray: list[dict[str, Any]] = []  # iopub messages of no request of ours (threads' output)

    def execute(self, code: str, timeout: float = 120) -> Cell:
        """Run ``code`` as a cell; its outputs once the kernel has replied."""
        from jupyter_client.jsonutil import json_default

        request = self._session.msg("execute_request", {"code": code, "silent": False, "allow_stdin": False})
        request["channel"] = "shell"
        msg_id = request["header"]["msg_id"]
        self._ws.send(json.dumps(request, default=json_default))
        cell, deadline = Cell(""), time.monotonic() + timeout
        replied = idle = False
        out: list[str] = []
        while time.monotonic() < deadline:
            msg = json.loads(self._ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                if msg["channel"] == "iopub":
                    self.stray.append(msg)
                continue
            if msg["channel"] == "iopub":
                cell.iopub.append(msg)
                if msg["msg_type"] == "stream":
                    out.append(msg["content"]["text"])
                elif msg["msg_type"] == "error":
                    out.append("\n".join(msg["content"]["traceback"]))
                elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    idle = True  # every output of the cell came before its idle status
            elif msg["msg_type"] == "execute_reply":
                cell.status, replied = msg["content"]["status"], True
            if replied and idle:
                break
        else:
            raise AssertionError(f"no reply from the kernel in {timeout} s; output so far:\n{''.join(out)}")
        cell.out = "".join(out)
        return cell


@contextmanager
def kernel(server: Lab, timeout: float = 120) -> Iterator[KernelSession]:
    """A python3 kernel of ``server``, shut down afterwards."""
    import websocket

    api = f"{server.base}/api/kernels"
    info = httpx.post(api, headers=server.headers, json={"name": "python3"}, timeout=30).json()
    ws = websocket.create_connection(
        f"{server.base.replace('http', 'ws', 1)}/api/kernels/{info['id']}/channels",
        header=[f"Authorization: token {server.token}"],
        timeout=timeout,
    )
    try:
        yield KernelSession(server, ws)
    finally:
        ws.close()
        httpx.delete(f"{api}/{info['id']}", headers=server.headers, timeout=30)
