"""What the MCP handler remembers of Jupyter's auth answers, and that it never weakens them.

A token request with no cookie gets the same answer from Jupyter's own identity provider
each time, so the handler reuses the user it was given (``AuthHandler._token_user_key``);
allowed Host headers are remembered too. Everything else is asked of Jupyter every time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from jupyter_server.auth.identity import PasswordIdentityProvider

from jupyter_mcp_lab.server.auth import ALLOWED_HOSTS_KEY, TOKEN_USERS_KEY

from ..conftest import LabServer

STREAMABLE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def settings(server: LabServer) -> dict[str, Any]:
    return server.serverapp.web_app.settings


@pytest.fixture
def memory(mcp_lab: LabServer) -> Iterator[dict[Any, Any]]:
    """The remembered users of this server, empty at the start of the test."""
    users: dict[Any, Any] = settings(mcp_lab).setdefault(TOKEN_USERS_KEY, {})
    users.clear()
    yield users
    users.clear()


async def initialize(http: httpx2.AsyncClient, server: LabServer, headers: dict[str, str]) -> int:
    r = await http.post(server.mcp_url(), headers={**STREAMABLE, **headers}, json=INITIALIZE)
    return r.status_code


async def test_a_remembered_token_still_answers_as_jupyter_does(mcp_lab: LabServer, memory: dict[Any, Any]) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        for _ in range(3):
            assert await initialize(http, mcp_lab, mcp_lab.auth()) == 200
        assert len(memory) == 1
        for wrong in ("token wrong-token", "Bearer wrong-token", f"token {mcp_lab.token}x", f"{mcp_lab.token}"):
            assert await initialize(http, mcp_lab, {"Authorization": wrong}) == 401, wrong
        assert await initialize(http, mcp_lab, {}) == 401
        assert await initialize(http, mcp_lab, mcp_lab.auth("Bearer")) == 200
        assert len(memory) == 2  # the wrong ones were not remembered


async def test_a_changed_token_is_not_answered_from_memory(mcp_lab: LabServer, memory: dict[Any, Any]) -> None:
    provider = mcp_lab.serverapp.identity_provider
    old = provider.token
    async with httpx2.AsyncClient(timeout=30) as http:
        assert await initialize(http, mcp_lab, mcp_lab.auth()) == 200
        assert memory
        provider.token = "a-new-token"
        try:
            assert await initialize(http, mcp_lab, mcp_lab.auth()) == 401
            assert await initialize(http, mcp_lab, {"Authorization": "token a-new-token"}) == 200
        finally:
            provider.token = old
        assert await initialize(http, mcp_lab, mcp_lab.auth()) == 200


async def test_requests_with_cookies_or_a_token_argument_ask_jupyter(
    mcp_lab: LabServer, memory: dict[Any, Any]
) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        assert await initialize(http, mcp_lab, {**mcp_lab.auth(), "Cookie": "other=1"}) == 200
        r = await http.post(mcp_lab.mcp_url() + f"?token={mcp_lab.token}", headers=STREAMABLE, json=INITIALIZE)
        assert r.status_code == 200
    assert memory == {}


async def test_the_rest_api_sets_its_login_cookie_as_before(mcp_lab: LabServer, memory: dict[Any, Any]) -> None:
    # Jupyter's provider sets a login cookie on a token request to the REST API; a
    # remembered answer would skip that, so only the MCP handler (which sets none) remembers.
    async with httpx2.AsyncClient(timeout=30) as http:
        for _ in range(2):
            r = await http.get(mcp_lab.status_url, headers=mcp_lab.auth())
            assert r.status_code == 200
            assert "set-cookie" in r.headers
            http.cookies.clear()
    assert memory == {}


class CountingProvider(PasswordIdentityProvider):
    """A provider of another class: it may check more than the token (JupyterHub's do)."""

    calls = 0

    async def _get_user(self, handler: Any) -> Any:
        CountingProvider.calls += 1
        return await super()._get_user(handler)


async def test_other_identity_providers_are_asked_every_time(mcp_lab: LabServer, memory: dict[Any, Any]) -> None:
    app_settings = settings(mcp_lab)
    original = app_settings["identity_provider"]
    app_settings["identity_provider"] = CountingProvider(parent=mcp_lab.serverapp, token=original.token)
    CountingProvider.calls = 0
    try:
        async with httpx2.AsyncClient(timeout=30) as http:
            for _ in range(3):
                assert await initialize(http, mcp_lab, mcp_lab.auth()) == 200
    finally:
        app_settings["identity_provider"] = original
    assert CountingProvider.calls >= 3
    assert memory == {}


async def test_a_refused_host_is_refused_every_time(mcp_lab: LabServer) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        for _ in range(2):
            assert await initialize(http, mcp_lab, mcp_lab.auth()) == 200
            status = await initialize(http, mcp_lab, {**mcp_lab.auth(), "Host": "evil.example.com"})
            assert status == 403
    allowed = settings(mcp_lab)[ALLOWED_HOSTS_KEY]
    assert f"127.0.0.1:{mcp_lab.port}" in allowed
    assert "evil.example.com" not in allowed
