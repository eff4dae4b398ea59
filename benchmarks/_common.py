"""What the benchmarks share: free ports, children that die with the benchmark, a server's own
Jupyter directories, percentiles, and an SDK client session that waits for a server's MCP
endpoint to come up."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any


def die_with_parent() -> None:
    """In the child before exec: get SIGTERM if the benchmark dies (even by SIGKILL)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def own_jupyter_dirs(env: dict[str, str], tmp: Path) -> dict[str, str]:
    """``env`` with Jupyter's config, data and runtime directories under ``tmp`` (made here) and
    no ``JUPYTER_TOKEN``: a server under test reads no user settings and takes the token it is given."""
    for var, sub in (
        ("JUPYTER_CONFIG_DIR", "jupyter-config"),
        ("JUPYTER_DATA_DIR", "jupyter-data"),
        ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
    ):
        (tmp / sub).mkdir(exist_ok=True)
        env[var] = str(tmp / sub)
    env.pop("JUPYTER_TOKEN", None)
    return env


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


async def open_client(
    stack: contextlib.AsyncExitStack,
    url: str,
    headers: dict[str, str],
    proc: subprocess.Popen[bytes] | None,
    attempts: int = 50,
    client_options: dict[str, Any] | None = None,
) -> Any:
    """One SDK client session, kept open on ``stack``; by default in legacy mode (initialize,
    stateful, SSE) with no cache, else with ``client_options`` for the SDK's ``Client``."""
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    for attempt in range(attempts):
        inner = contextlib.AsyncExitStack()
        await inner.__aenter__()
        try:
            http = await inner.enter_async_context(create_mcp_http_client(headers=headers))
            options = client_options if client_options is not None else {"mode": "legacy", "cache": None}
            client = Client(streamable_http_client(url, http_client=http), **options)
            await inner.enter_async_context(client)
        except (Exception, httpx2.TransportError):
            await inner.aclose()
            # The extension's MCP endpoints come up just after /api/status answers.
            if attempt == attempts - 1 or (proc is not None and proc.poll() is not None):
                raise
            await asyncio.sleep(0.1)
            continue
        stack.push_async_callback(inner.aclose)
        return client
    raise AssertionError("unreachable")
