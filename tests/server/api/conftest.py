"""Fixtures for the REST API tests: a review-policy server, an HTTP client, staged suggestions.

Suggestions are staged the way agents make them: an MCP client (the official SDK) edits a
document on the real server under the ``suggest`` policy. The REST calls then go over real
HTTP with httpx, as the UIs make them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from ...conftest import LabServer, Tools

DOC = "# Notes\n\nalpha line\n\nbeta line\n\ngamma line\n"


@pytest.fixture
def mcp_app_config() -> dict[str, Any]:
    # The review policy (the product's default; the shared conftest defaults to "auto").
    return {"approval": "suggest"}


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(DOC, encoding="utf-8")
    return root


def on_disk(root: Path, name: str = "notes.md") -> str:
    with open(root / name, encoding="utf-8", newline="") as f:
        return f.read()


class Api:
    """The REST API as a UI calls it: ``await api.get("suggestions", status="all")``."""

    def __init__(self, server: LabServer, http: httpx.AsyncClient) -> None:
        self.server = server
        self.http = http

    def url(self, route: str) -> str:
        return self.server.url("mcp-lab/api/" + route)

    async def request(self, method: str, route: str, json_body: Any = None, **params: Any) -> httpx.Response:
        return await self.http.request(
            method, self.url(route), params=params or None, json=json_body, headers=self.server.auth()
        )

    async def get(self, route: str, **params: Any) -> httpx.Response:
        return await self.request("GET", route, **params)

    async def post(self, route: str, body: Any = None) -> httpx.Response:
        return await self.request("POST", route, json_body=body)

    async def delete(self, route: str) -> httpx.Response:
        return await self.request("DELETE", route)

    async def ok(self, method: str, route: str, body: Any = None, expect: int = 200, **params: Any) -> Any:
        r = await self.request(method, route, json_body=body, **params)
        assert r.status_code == expect, f"{method} {route}: {r.status_code} {r.text}"
        assert r.headers["content-type"].startswith("application/json")
        return r.json()


def assert_error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """An error answer: the status, a JSON envelope with the code, and no traceback."""
    assert r.status_code == status, f"{r.status_code} {r.text}"
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert body["error"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert "Traceback" not in r.text
    return body


@pytest_asyncio.fixture
async def api(mcp_lab: LabServer) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(timeout=httpx.Timeout(30)) as http:
        yield Api(mcp_lab, http)


@pytest.fixture
def agent(mcp_client: Any, root: Path):
    """``async with agent(client_name="x") as tools``: an MCP session on the lab endpoint."""

    @asynccontextmanager
    async def open_agent(**kwargs: Any) -> AsyncIterator[Tools]:
        async with mcp_client("lab", **kwargs) as client:
            yield Tools(client)

    return open_agent


async def suggest_replace(tools: Tools, find: str, replace: str, path: str = "notes.md") -> list[str]:
    """An agent's edit, staged as suggestions by the server's policy; their ids."""
    result = await tools.ok(
        "document",
        "edit",
        path=path,
        edits=[{"op": "find_replace", "find": find, "replace": replace, "match": "all"}],
    )
    assert result["mode"] == "suggest" and result["applied"] is False, result
    assert result["suggestionIds"], result
    return list(result["suggestionIds"])


def sse_events(text: str) -> list[dict[str, Any]]:
    """The events of an SSE body: {id, event, data} per blank-line separated block."""
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            out.append(fields)
    return out
