"""The MCP handler's part of Jupyter's request bookkeeping: quiet, but measured."""

from __future__ import annotations

import httpx2
from jupyter_server.prometheus.metrics import HTTP_REQUEST_DURATION_SECONDS

from jupyter_mcp_lab.server.mcp_handler import MCPHandler

from ..conftest import LabServer

STREAMABLE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def observed(method: str, status: int) -> float:
    """How many requests Jupyter's duration histogram holds for the MCP handler."""
    handler = f"{MCPHandler.__module__}.{MCPHandler.__name__}"
    child = HTTP_REQUEST_DURATION_SECONDS.labels(method=method, handler=handler, status_code=status)
    return next(s.value for m in child.collect() for s in m.samples if s.name.endswith("_count"))


async def test_each_request_is_in_jupyters_duration_metric(mcp_lab: LabServer) -> None:
    ok, refused = observed("POST", 200), observed("POST", 401)
    async with httpx2.AsyncClient(timeout=30) as http:
        for _ in range(3):
            r = await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **mcp_lab.auth()}, json=INITIALIZE)
            assert r.status_code == 200
        r = await http.post(mcp_lab.mcp_url(), headers=STREAMABLE, json=INITIALIZE)
        assert r.status_code == 401
    assert observed("POST", 200) == ok + 3
    assert observed("POST", 401) == refused + 1
