"""Issuing agent keys in server tests the way a person does: POST mcp-lab/api/keys with
their Jupyter token."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import LabServer


async def issue_key(server: LabServer, name: str, **body: Any) -> dict[str, Any]:
    """The IssuedKey answer (``["secret"]`` is the key)."""
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(server.url("mcp-lab/api/keys"), json={"name": name, **body}, headers=server.auth())
    assert r.status_code == 201, r.text
    return dict(r.json())


async def revoke_key(server: LabServer, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.delete(server.url(f"mcp-lab/api/keys/{name}"), headers=server.auth())
    assert r.status_code == 200, r.text
    return dict(r.json())


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}
