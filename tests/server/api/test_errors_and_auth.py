"""Auth on every route (401 JSON), Jupyter's XSRF rules, and errors mapped in one place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.server.api import ROUTES

from ...conftest import LabServer
from .conftest import Api, assert_error

# Every route and method with a concrete path; checked against the route table below, so a
# new route without an entry here fails instead of going untested.
CALLS = [
    ("GET", "status"),
    ("GET", "suggestions"),
    ("GET", "suggestions/sug-1"),
    ("POST", "suggestions/sug-1/accept"),
    ("POST", "suggestions/sug-1/reject"),
    ("GET", "suggestions/sug-1/reapply"),
    ("POST", "suggestions/sug-1/reapply"),
    ("POST", "suggestions/sug-1/reopen"),
    ("POST", "suggestions/accept-all"),
    ("POST", "suggestions/reject-all"),
    ("GET", "checkpoints"),
    ("GET", "checkpoints/cp-1"),
    ("POST", "checkpoints/cp-1/revert"),
    ("GET", "grants"),
    ("POST", "grants"),
    ("DELETE", "grants/grant-1"),
    ("GET", "keys"),
    ("POST", "keys"),
    ("DELETE", "keys/a-key"),
    ("GET", "activity"),
    ("GET", "outline"),
    ("GET", "events"),
    ("GET", "openapi.yaml"),
    ("GET", "openapi.json"),
]


def test_calls_cover_the_route_table() -> None:
    covered = set()
    for pattern, handler in ROUTES:
        methods = {m for m in handler.allowed_methods() if m != "OPTIONS"}
        for method in methods:
            hits = [path for m, path in CALLS if m == method and re.fullmatch(pattern, path)]
            assert hits, f"no call covers {method} {pattern}"
            covered.update((method, path) for path in hits)
    assert covered == set(CALLS)


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "token wrong"}, {"Authorization": "Bearer wrong"}, {"Authorization": "garbage"}],
    ids=["none", "wrong-token", "wrong-bearer", "garbage"],
)
async def test_every_route_needs_auth(mcp_lab: LabServer, root: Path, headers: dict[str, str]) -> None:
    # A fresh client each time: no login cookie from an earlier authenticated call.
    async with httpx.AsyncClient(timeout=10) as anonymous:
        for method, route in CALLS:
            r = await anonymous.request(method, mcp_lab.url("mcp-lab/api/" + route), headers=headers, json={})
            body = assert_error(r, 401, "UNAUTHORIZED")
            assert r.headers["www-authenticate"].startswith("token"), (method, route)
            assert "token" in body["message"]
    assert mcp_lab.extension.services.reviews.store.list_grants() == []


async def test_cors_preflight_needs_no_credentials(mcp_lab: LabServer, root: Path) -> None:
    # Browsers send OPTIONS without credentials; Jupyter answers it, the real call is checked.
    async with httpx.AsyncClient(timeout=10) as anonymous:
        r = await anonymous.options(mcp_lab.url("mcp-lab/api/suggestions?status=all"))
    assert r.status_code in (200, 204), r.text
    assert "POST" in r.headers["access-control-allow-methods"]


@pytest.mark.parametrize("scheme", ["token", "Bearer"])
async def test_both_header_schemes_and_the_url_token(mcp_lab: LabServer, root: Path, scheme: str) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.get(mcp_lab.url("mcp-lab/api/status"), headers=mcp_lab.auth(scheme))
        assert r.status_code == 200 and r.json()["version"]
        new = {"scope": "a.md", "agent": "a", "agentKind": "client", "minutes": 1}
        r = await http.post(mcp_lab.url("mcp-lab/api/grants"), headers=mcp_lab.auth(scheme), json=new)
        assert r.status_code == 201, r.text  # token auth needs no XSRF token
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.get(mcp_lab.url("mcp-lab/api/suggestions"), params={"token": mcp_lab.token})
        assert r.status_code == 200, r.text


async def test_cookie_auth_keeps_jupyters_xsrf_rule(mcp_lab: LabServer, root: Path) -> None:
    new = {"scope": "a.md", "agent": "a", "agentKind": "client", "minutes": 1}
    url = mcp_lab.url("mcp-lab/api/grants")
    async with httpx.AsyncClient(timeout=10) as browser:
        # A token-authenticated request leaves Jupyter's login cookie, as a browser has one.
        assert (await browser.get(url, headers=mcp_lab.auth())).status_code == 200
        assert browser.cookies, "Jupyter set no login cookie"
        assert (await browser.get(url)).status_code == 200  # reads with the cookie alone

        for method, route, body in (("POST", "grants", new), ("DELETE", "grants/grant-1", None)):
            r = await browser.request(method, mcp_lab.url("mcp-lab/api/" + route), json=body)
            assert_error(r, 403, "FORBIDDEN")
            assert "_xsrf" in r.json()["message"]
        assert mcp_lab.extension.services.reviews.store.list_grants() == []
        # A mismatching XSRF token is refused too.
        browser.cookies.set("_xsrf", "the-cookie-value")
        r = await browser.post(url, json=new, headers={"X-XSRFToken": "another-value"})
        assert_error(r, 403, "FORBIDDEN")

        # With the XSRF cookie and the same token in the header (what JupyterLab sends).
        r = await browser.post(url, json=new, headers={"X-XSRFToken": "the-cookie-value"})
        assert r.status_code == 201, r.text
    assert len(mcp_lab.extension.services.reviews.store.list_grants()) == 1


async def test_method_not_allowed_names_the_allowed_ones(mcp_lab: LabServer, api: Api, root: Path) -> None:
    for method, route, allowed in (
        ("GET", "suggestions/accept-all", "POST, OPTIONS"),
        ("DELETE", "status", "GET, OPTIONS"),
        ("PUT", "grants", "GET, POST, OPTIONS"),
        ("POST", "suggestions/sug-1", "GET, OPTIONS"),
        ("GET", "grants/grant-1", "DELETE, OPTIONS"),
    ):
        r = await api.request(method, route)
        assert_error(r, 405, "METHOD_NOT_ALLOWED")
        assert r.headers["allow"] == allowed, (method, route)


async def test_unknown_query_arguments_are_refused(mcp_lab: LabServer, api: Api, root: Path) -> None:
    body = assert_error(await api.get("suggestions", stauts="all"), 400, "INVALID_ARGUMENT")
    assert body["argument"] == "stauts"
    assert assert_error(await api.get("status", limit="3"), 400, "INVALID_ARGUMENT")["argument"] == "limit"
    r = await api.request("POST", "grants", None, active="true")
    assert assert_error(r, 400, "INVALID_ARGUMENT")["argument"] == "active"


INTERNAL = pytest.mark.server_tracebacks_expected()


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (DomainError("NOT_FOUND", "gone", suggestionId="x"), 404, "NOT_FOUND"),
        (DomainError("CONFLICT", "decided", status="accepted"), 409, "CONFLICT"),
        (DomainError("STALE", "changed", current_revision="rev-1"), 409, "STALE"),
        (DomainError("INVALID_ARGUMENT", "bad", argument="x"), 400, "INVALID_ARGUMENT"),
        (DomainError("INVALID_PATH", "outside", path="/etc"), 400, "INVALID_PATH"),
        (DomainError("INVALID_PATCH", "no such key"), 400, "INVALID_PATCH"),
        (DomainError("APPROVAL_REQUIRED", "ask a person"), 403, "APPROVAL_REQUIRED"),
        (DomainError("READ_ONLY", "read-only"), 403, "READ_ONLY"),
        pytest.param(DomainError("NO_LAB_CLIENT", "no lab"), 500, "INTERNAL", marks=INTERNAL),
        pytest.param(RuntimeError("secret detail"), 500, "INTERNAL", marks=INTERNAL),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
async def test_errors_map_to_status_and_envelope(
    mcp_lab: LabServer, api: Api, root: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, status: int, code: str
) -> None:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(mcp_lab.extension.services.reviews, "get", fail)
    r = await api.get("suggestions/sug-1")
    body = assert_error(r, status, code)
    if isinstance(error, DomainError) and status < 500:
        assert body == error.envelope()
    elif isinstance(error, DomainError):
        assert (body["message"], body["cause"]) == (error.message, error.code)
    else:
        assert "secret detail" not in r.text and "RuntimeError" not in r.text
        assert set(body) == {"error", "message"}


async def test_jupyterlabs_cache_buster_is_not_an_unknown_argument(mcp_lab: LabServer, api: Api) -> None:
    # ServerConnection.makeRequest appends "?<milliseconds>" to GETs; the panel broke on it once.
    r = await api.http.get(api.url("status") + "?1795329041275", headers=mcp_lab.auth())
    assert r.status_code == 200, r.text
    assert_error(await api.http.get(api.url("status") + "?12ab", headers=mcp_lab.auth()), 400, "INVALID_ARGUMENT")
    assert_error(await api.http.get(api.url("status") + "?123=x", headers=mcp_lab.auth()), 400, "INVALID_ARGUMENT")
