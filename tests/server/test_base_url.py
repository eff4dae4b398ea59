"""A Jupyter server below a base_url (JupyterHub: ``/user/<name>/``): every URL follows it."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from ..conftest import LabServer


@pytest.fixture(params=["/jh/user/x/", "/a%40b/"], ids=["hub-user", "escaped"])
def jp_base_url(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_endpoints_live_below_base_url(mcp_lab: LabServer, mcp_client: Any, jp_base_url: str, mode: str) -> None:
    assert mcp_lab.base_url != "/"
    async with mcp_client(mode=mode) as client:
        result = await client.call_tool("session", {"action": "get_state"})
    assert not result.is_error, result.content
    state = result.structured_content
    assert state is not None
    assert state["windows"][0]["label"] == "main"
    assert state["capabilities"]["profiles"] == [
        {"profile": "lab", "path": f"{jp_base_url}mcp", "url": mcp_lab.mcp_url("lab")},
        {
            "profile": "conformance",
            "path": f"{jp_base_url}mcp-lab/conformance/mcp",
            "url": mcp_lab.mcp_url("conformance"),
        },
    ]
    assert mcp_lab.mcp_url("lab") == f"http://127.0.0.1:{mcp_lab.port}{jp_base_url}mcp"


async def test_reported_urls_work_below_base_url(mcp_lab: LabServer, mcp_client: Any) -> None:
    async with httpx2.AsyncClient() as http:
        r = await http.get(mcp_lab.status_url, headers=mcp_lab.auth())
    assert r.status_code == 200
    status = r.json()
    assert status["base_url"] == mcp_lab.base_url
    urls = {e["profile"]: e["url"] for e in status["endpoints"]}
    async with mcp_client(url=urls["lab"]) as lab:
        assert "session" in {t.name for t in (await lab.list_tools()).tools}
    async with mcp_client(url=urls["conformance"]) as conf:
        assert "test_simple_text" in {t.name for t in (await conf.list_tools()).tools}


async def test_nothing_is_served_outside_base_url(mcp_lab: LabServer) -> None:
    headers = {
        **mcp_lab.auth(),
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    async with httpx2.AsyncClient() as http:
        for path in ("/mcp", "/mcp-lab/conformance/mcp", "/mcp-lab/api/status"):
            r = await http.post(mcp_lab.origin + path, headers=headers, json={})
            assert r.status_code == 404, (path, r.status_code)
    # Unauthenticated requests below base_url get the MCP challenge. (A fresh client: the
    # token-authenticated requests above left Jupyter's login cookie in the first one.)
    async with httpx2.AsyncClient() as http:
        r = await http.post(mcp_lab.mcp_url(), headers={"Content-Type": "application/json"}, json={})
        assert r.status_code == 401
        assert r.headers["www-authenticate"].startswith("Bearer ")
