"""GET status: ready-to-paste client configs per endpoint (never with the server's token) and the agents seen."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import httpx
import pytest
from jupyter_server.auth import passwd
from jupyter_server.auth.identity import PasswordIdentityProvider
from traitlets.config import Config

from jupyter_mcp_lab.server.client_config import CLIENTS, KEY_PLACEHOLDER

from ...conftest import LabServer, open_mcp_client
from .conftest import Api

PASSWORD = "a-password-for-the-login-form"


class SiteIdentityProvider(PasswordIdentityProvider):
    """Stands for an identity provider of another package (JupyterHub's, a site's own)."""


def configs_of(endpoint: dict[str, Any]) -> dict[str, str]:
    assert [c["client"] for c in endpoint["configs"]] == list(CLIENTS)
    for c in endpoint["configs"]:
        assert c["label"] and c["where"] and not c["text"].startswith("#")  # pasted as is
    return {c["client"]: c["text"] for c in endpoint["configs"]}


@pytest.mark.parametrize("jp_base_url", ["/", "/jh/user/a%40b/"])
async def test_configs_name_each_endpoint_and_never_carry_the_token(mcp_lab: LabServer, api: Api, root: Path) -> None:
    r = await api.get("status")
    assert r.headers["cache-control"] == "no-store"  # who is working, and their sessions
    status = r.json()
    assert status["tokenPlaceholder"] == KEY_PLACEHOLDER
    assert mcp_lab.token not in r.text
    by_profile = {e["profile"]: e for e in status["endpoints"]}
    assert set(by_profile) == {"lab", "conformance"}
    for profile, endpoint in by_profile.items():
        url, name = mcp_lab.mcp_url(profile), "jupyter-lab" if profile == "lab" else f"jupyter-lab-{profile}"
        assert endpoint["url"] == url
        texts = configs_of(endpoint)
        bearer = f"Bearer {KEY_PLACEHOLDER}"
        assert shlex.split(texts["claude-code"]) == [
            *("claude", "mcp", "add", "--transport", "http", name, url),
            *("--header", f"Authorization: {bearer}"),
        ]
        desktop = json.loads(texts["claude-desktop"])["mcpServers"][name]
        assert desktop["command"] == "npx" and url in desktop["args"]
        assert desktop["env"] == {"AUTH_HEADER": bearer}
        vscode = json.loads(texts["vscode"])["servers"][name]
        assert vscode == {"type": "http", "url": url, "headers": {"Authorization": bearer}}
        cursor = json.loads(texts["cursor"])["mcpServers"][name]
        assert cursor == {"url": url, "headers": {"Authorization": bearer}}


async def test_configs_use_the_address_the_person_reached(mcp_lab: LabServer, api: Api, root: Path) -> None:
    # Behind a proxy, or by another name: the configs say what this browser reached.
    host = f"localhost:{mcp_lab.port}"
    r = await api.http.get(mcp_lab.status_url, headers={**mcp_lab.auth(), "Host": host})
    assert r.status_code == 200, r.text
    [lab] = [e for e in r.json()["endpoints"] if e["profile"] == "lab"]
    assert lab["url"] == f"http://{host}/mcp"
    assert all(lab["url"] in text for text in configs_of(lab).values())


async def test_a_pasted_config_connects(mcp_lab: LabServer, api: Api, root: Path) -> None:
    """What VS Code does with the config an issued key comes with: the URL and headers, nothing
    else, reach the tools, as the key's agent."""
    issued = await api.ok("POST", "keys", {"name": "vs-code-agent"}, expect=201)
    [lab] = [e for e in issued["endpoints"] if e["profile"] == "lab"]
    server = json.loads(configs_of(lab)["vscode"])["servers"]["jupyter-lab"]
    assert server["headers"] == {"Authorization": f"Bearer {issued['secret']}"}
    async with open_mcp_client(server["url"], server["headers"], client_name="pasted") as client:
        tools = await client.list_tools()
        read = await client.call_tool("document", {"action": "read", "path": "notes.md"})
    assert "document" in {t.name for t in tools.tools} and not read.is_error
    [agent] = (await api.ok("GET", "status"))["agents"]
    assert (agent["client"], agent["calls"]) == ("vs-code-agent", 1)  # the connection card lists it


@pytest.fixture
def jp_server_config(jp_server_config: Config, request: pytest.FixtureRequest) -> Config:
    """The shared config with the auth of the test's ``auth`` parameter (token by default)."""
    auth = getattr(request, "param", "token")
    if auth == "password":
        jp_server_config.IdentityProvider.token = ""
        jp_server_config.ServerApp.token = ""  # else pytest-jupyter sets a token of its own
        jp_server_config.PasswordIdentityProvider.hashed_password = passwd(PASSWORD)
    elif auth == "site":
        jp_server_config.ServerApp.identity_provider_class = SiteIdentityProvider
    return jp_server_config


@pytest.mark.parametrize("jp_server_config", ["password"], indirect=True)
async def test_password_login_gets_a_placeholder(mcp_lab: LabServer, root: Path) -> None:
    assert mcp_lab.serverapp.identity_provider.token == ""
    async with httpx.AsyncClient(timeout=10, follow_redirects=False) as browser:
        await browser.get(mcp_lab.url("login"))  # the login form sets the _xsrf cookie
        form = {"password": PASSWORD, "_xsrf": browser.cookies["_xsrf"]}
        assert (await browser.post(mcp_lab.url("login"), data=form)).status_code == 302
        r = await browser.get(mcp_lab.status_url)  # the login cookie, as the panel sends it
    assert r.status_code == 200, r.text
    status = r.json()
    assert status["tokenPlaceholder"] == KEY_PLACEHOLDER
    for endpoint in status["endpoints"]:
        for text in configs_of(endpoint).values():
            assert KEY_PLACEHOLDER in text and endpoint["url"] in text
            assert mcp_lab.token not in text


@pytest.mark.parametrize("jp_server_config", ["site"], indirect=True)
async def test_another_identity_provider_never_gets_the_token(mcp_lab: LabServer, api: Api, root: Path) -> None:
    # It may let in people who must not hold the server's token, so the configs leave it out.
    assert type(mcp_lab.serverapp.identity_provider) is SiteIdentityProvider
    status = await api.ok("GET", "status")
    assert status["tokenPlaceholder"] == KEY_PLACEHOLDER
    texts = [t for e in status["endpoints"] for t in configs_of(e).values()]
    assert texts and all(KEY_PLACEHOLDER in t and mcp_lab.token not in t for t in texts)
