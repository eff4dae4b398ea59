"""Why a connection failed, in words: the SDK alone says "Connection closed" or "Server
returned an error response"."""

from __future__ import annotations

import httpx2

from .errors import LabError
from .target import Target


def explain_failure(target: Target, exc: Exception, stderr: str) -> Exception:
    """Say why the handshake failed where the SDK only says "Connection closed" or
    "Server returned an error response": the stdio server's stderr, or the HTTP status."""
    if isinstance(exc, TimeoutError):
        return exc
    if target.command:
        tail = stderr.strip()[-2000:]
        if not tail:
            return exc
        return LabError(f"{target.label} ended before the MCP handshake ({exc}); its stderr:\n{tail}")
    assert target.url
    headers = {**target.headers, "Accept": "application/json, text/event-stream"}
    try:
        status = httpx2.post(target.url, headers=headers, json={}, timeout=10).status_code
    except httpx2.HTTPError:
        return exc
    if status in (401, 403):
        return LabError(f"{target.url} refused the credentials (HTTP {status}): check token= or headers=")
    if status == 404:
        why = "is jupyter-mcp-lab enabled there, and is the profile served?"
        return LabError(f"no MCP endpoint at {target.url} (HTTP 404): {why}")
    return exc
