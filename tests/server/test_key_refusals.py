"""An agent holding only a key tries every way to change a document without the person: this
project's REST routes, the events stream, the lab bridge (and its Allow dialogs), Jupyter's
contents, kernels, sessions and terminals, the review tools over MCP, forged identity
fields and another session's id. Nothing changes, and the key appears in no log line and
no activity entry."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from ..conftest import LabServer, Tools
from .api.test_errors_and_auth import CALLS
from .keys import bearer, issue_key
from .test_bridge import bridge_url
from .test_mcp_endpoint import INITIALIZE, STREAMABLE

DOC = "# Notes\n\nalpha line\n\nbeta line\n"

# Jupyter's own APIs, read and write: a key is not Jupyter's token.
JUPYTER_CALLS: list[tuple[str, str, Any]] = [
    ("GET", "api/contents", None),
    ("GET", "api/contents/notes.md", None),
    ("PUT", "api/contents/notes.md", {"type": "file", "format": "text", "content": "rewritten by an agent"}),
    ("PUT", "api/contents/new.md", {"type": "file", "format": "text", "content": "planted"}),
    ("DELETE", "api/contents/notes.md", None),
    ("GET", "api/kernels", None),
    ("POST", "api/kernels", {"name": "python3"}),
    ("GET", "api/sessions", None),
    ("POST", "api/sessions", {"path": "x.ipynb", "type": "notebook", "kernel": {"name": "python3"}}),
    ("GET", "api/terminals", None),
    ("POST", "api/terminals", {}),
    ("GET", "api/me", None),
]


@pytest.fixture
def mcp_app_config() -> dict[str, Any]:
    return {"approval": "suggest"}


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(DOC, encoding="utf-8")
    return root


def state(server: LabServer, root: Path) -> dict[str, Any]:
    """Everything an agent might try to change behind the person's back."""
    app = server.serverapp
    review = server.extension.services.reviews
    terminals = getattr(app.web_app.settings.get("terminal_manager"), "terminals", {})
    return {
        "files": sorted((p.name, p.read_text(encoding="utf-8")) for p in root.iterdir() if p.is_file()),
        "suggestions": [(s.id, s.status) for s in review.store.list()],
        "grants": [g.id for g in review.store.list_grants()],
        "checkpoints": [c.id for c in review.store.list_checkpoints()],
        "kernels": list(app.kernel_manager.list_kernel_ids()),
        "terminals": list(terminals),
        "keys": [k.name for k in server.extension.keys.store.list()],
        "labs": len(server.extension.bridge.clients),
    }


async def test_a_key_opens_nothing_but_the_mcp_endpoints(
    mcp_lab: LabServer, mcp_client: Any, root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = (await issue_key(mcp_lab, "prober"))["secret"]
    key = bearer(secret)
    async with mcp_client(headers=key, client_name="prober-client") as client:
        tools = Tools(client)
        staged = await tools.ok(
            "document", "edit", path="notes.md", edits=[{"op": "find_replace", "find": "alpha", "replace": "ALPHA"}]
        )
        [sid] = staged["suggestionIds"]
        # Its own suggestion, through the review tools: refused, whatever it claims.
        refused = await tools.fail("review", "accept", suggestionIds=[sid])
        assert refused["error"] in ("APPROVAL_REQUIRED", "FORBIDDEN", "INVALID_ARGUMENT"), refused
        before = state(mcp_lab, root)
        assert before["suggestions"] == [(sid, "pending")]

        async with httpx.AsyncClient(timeout=30) as http:
            # Every route of this project's REST API, with the key in either header form.
            for scheme in ("Bearer", "token"):
                headers = {"Authorization": f"{scheme} {secret}"}
                for method, route in CALLS:
                    route = route.replace("sug-1", sid)
                    body = {"scope": "", "agent": "prober", "agentKind": "client", "minutes": 60}
                    r = await http.request(method, mcp_lab.url("mcp-lab/api/" + route), headers=headers, json=body)
                    assert r.status_code == 403, (method, route, r.status_code, r.text)
                    assert r.json()["error"] == "FORBIDDEN" and "agent key" in r.json()["message"]
            # Jupyter's APIs: the key is nobody to Jupyter.
            for method, route, body in JUPYTER_CALLS:
                r = await http.request(method, mcp_lab.url(route), headers=key, json=body)
                assert r.status_code in (401, 403), (method, route, r.status_code, r.text)
                assert r.status_code != 403 or "rewritten" not in r.text
            # Forged identity fields next to the key change nothing either.
            forged = {**key, "X-Forwarded-User": "person", "X-Remote-User": "person", "Cookie": "username-x=person"}
            r = await http.post(mcp_lab.url(f"mcp-lab/api/suggestions/{sid}/accept"), headers=forged, json={})
            assert r.status_code == 403

        # The lab bridge, where Allow dialogs are answered: the key in the header or the URL.
        for request in (
            HTTPRequest(bridge_url(mcp_lab), headers=key),
            HTTPRequest(bridge_url(mcp_lab), headers={"Authorization": f"token {secret}"}),
            bridge_url(mcp_lab, secret),
        ):
            with pytest.raises(HTTPClientError) as closed:
                await websocket_connect(request)
            assert closed.value.code in (401, 403)

        # The MCP session still works: the refusals ended nothing and changed nothing.
        await tools.ok("session", "get_state")
    assert state(mcp_lab, root) == before
    assert (root / "notes.md").read_text(encoding="utf-8") == DOC

    # The key is in no log line and no activity entry.
    logged = "\n".join(
        f"{r.getMessage()} {r.args!r} {r.exc_text or ''}"
        for r in caplog.get_records("setup") + caplog.get_records("call")
    )
    assert len(logged) > 1000 and "prober" in logged  # the log is being captured
    assert secret not in logged and secret.split("_")[-1] not in logged
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.get(mcp_lab.url("mcp-lab/api/activity"), headers=mcp_lab.auth())
    entries = r.json()["entries"]
    assert entries and {e["client"] for e in entries} == {"prober"}
    assert {e["label"] for e in entries} == {"prober-client"}
    assert secret not in json.dumps(entries)


async def test_a_key_next_to_the_persons_login_cookie_is_still_refused(mcp_lab: LabServer, root: Path) -> None:
    secret = (await issue_key(mcp_lab, "borrower"))["secret"]
    async with httpx.AsyncClient(timeout=30) as browser:
        assert (await browser.get(mcp_lab.url("mcp-lab/api/status"), headers=mcp_lab.auth())).status_code == 200
        assert browser.cookies, "Jupyter set no login cookie"
        assert (await browser.get(mcp_lab.url("mcp-lab/api/status"))).status_code == 200  # the cookie alone
        r = await browser.get(mcp_lab.url("mcp-lab/api/status"), headers=bearer(secret))
        assert r.status_code == 403 and r.json()["error"] == "FORBIDDEN"
        xsrf = browser.cookies.get("_xsrf") or "x"
        browser.cookies.set("_xsrf", xsrf)
        new = {"scope": "", "agent": "borrower", "agentKind": "client", "minutes": 60}
        r = await browser.post(
            mcp_lab.url("mcp-lab/api/grants"), headers={**bearer(secret), "X-XSRFToken": xsrf}, json=new
        )
        assert r.status_code == 403
    assert mcp_lab.extension.services.reviews.store.list_grants() == []


async def test_a_key_is_not_a_jupyter_identity_even_on_mcp(mcp_lab: LabServer, root: Path) -> None:
    """Jupyter's request log names no user for a key request, and its authorizer is never asked."""
    secret = (await issue_key(mcp_lab, "anonymous-to-jupyter"))["secret"]
    seen: list[Any] = []
    authorizer = mcp_lab.serverapp.authorizer
    original = authorizer.is_authorized

    def spy(handler: Any, user: Any, action: str, resource: str) -> bool:
        seen.append(user)
        return bool(original(handler, user, action, resource))

    authorizer.is_authorized = spy
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            r = await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **bearer(secret)}, json=INITIALIZE)
            assert r.status_code == 200, r.text
            assert "set-cookie" not in r.headers  # no Jupyter login for a key
            assert seen == []
            r = await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **mcp_lab.auth()}, json=INITIALIZE)
            assert r.status_code == 200 and seen and seen[-1] is not None
    finally:
        authorizer.is_authorized = original
