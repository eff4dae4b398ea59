"""Agent keys at the MCP endpoints, with the official SDK client against a real server: a key's
name is who is calling, profile limits, expiry, revocation that cuts open sessions (from the
REST API and from the command line), and sessions bound to the credential that opened them."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest

from ..conftest import LabServer, Tools, run_process
from .keys import bearer, issue_key, revoke_key
from .test_mcp_endpoint import INITIALIZE, INITIALIZED, LEGACY_PROTOCOL, STREAMABLE, TOOLS_LIST, sse_messages

DOC = "# Notes\n\nalpha line\n\nbeta line\n"


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(DOC, encoding="utf-8")
    return root


async def edit(tools: Tools, find: str, replace: str) -> dict[str, Any]:
    return await tools.ok(
        "document",
        "edit",
        path="notes.md",
        mode="apply",
        edits=[{"op": "find_replace", "find": find, "replace": replace}],
    )


async def person(server: LabServer, method: str, route: str, body: Any = None) -> Any:
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.request(method, server.url("mcp-lab/api/" + route), json=body, headers=server.auth())
    assert r.status_code < 300, r.text
    return r.json()


async def open_session(
    http: httpx2.AsyncClient, server: LabServer, headers: dict[str, str], profile: str = "lab"
) -> str:
    """A legacy MCP session over raw HTTP with these credentials; its id."""
    r = await http.post(server.mcp_url(profile), headers={**STREAMABLE, **headers}, json=INITIALIZE)
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    r = await http.post(server.mcp_url(profile), headers={**session_headers(sid), **headers}, json=INITIALIZED)
    assert r.status_code == 202, r.text
    return sid


def session_headers(sid: str) -> dict[str, str]:
    return {**STREAMABLE, "mcp-session-id": sid, "mcp-protocol-version": LEGACY_PROTOCOL}


async def tools_list(http: httpx2.AsyncClient, server: LabServer, sid: str, headers: dict[str, str]) -> httpx2.Response:
    return await http.post(server.mcp_url(), headers={**session_headers(sid), **headers}, json=TOOLS_LIST)


@asynccontextmanager
async def open_stream(server: LabServer, sid: str, headers: dict[str, str]) -> AsyncIterator[asyncio.Task[int]]:
    """The session's standalone GET stream, read in a task that ends (with the status) when the
    server ends it. The server sends the head with the first event, so it is not awaited here."""
    http = httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60))

    async def read() -> int:
        async with http.stream("GET", server.mcp_url(), headers={**session_headers(sid), **headers}) as r:
            async for _ in r.aiter_bytes():
                pass
            return int(r.status_code)

    task = asyncio.create_task(read())
    try:
        await asyncio.sleep(0.5)
        assert not task.done(), task.result()  # open, waiting for events
        yield task
    finally:
        task.cancel()
        await http.aclose()


async def ends_within(task: asyncio.Task[int], seconds: float) -> float:
    started = time.monotonic()
    status = await asyncio.wait_for(asyncio.shield(task), seconds)
    assert status == 200  # the stream that was open, ended by the server
    return time.monotonic() - started


# --------------------------------------------------------------------------- identity


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])
async def test_the_keys_name_is_who_is_calling(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    issued = await issue_key(mcp_lab, "claude-code")
    async with mcp_client(headers=bearer(issued["secret"]), client_name="trusted-bot") as client:
        tools = Tools(client)
        caller = (await tools.ok("session", "get_state"))["caller"]
        staged = await edit(tools, "alpha", "ALPHA")
        status = await person(mcp_lab, "GET", "status")
    assert caller["clientName"] == "claude-code"
    assert staged["mode"] == "suggest" and staged["applied"] is False
    [suggestion] = (await person(mcp_lab, "GET", "suggestions"))["suggestions"]
    assert suggestion["author"] == "claude-code" and suggestion["session"] == caller["sessionId"]
    entries = (await person(mcp_lab, "GET", "activity"))["entries"]
    assert {(e["client"], e["label"]) for e in entries} == {("claude-code", "trusted-bot")}  # a label only
    [agent] = status["agents"]
    assert (agent["client"], agent["label"], agent["session"]) == ("claude-code", "trusted-bot", caller["sessionId"])


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])
async def test_a_grant_goes_by_the_key_not_by_a_claimed_name(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    await person(mcp_lab, "POST", "grants", {"scope": "", "agent": "trusted-bot", "agentKind": "client", "minutes": 5})
    intruder = await issue_key(mcp_lab, "intruder")
    async with mcp_client(headers=bearer(intruder["secret"]), client_name="trusted-bot") as client:
        claimed = await edit(Tools(client), "alpha", "ALPHA")
    assert (claimed["mode"], claimed["applied"]) == ("suggest", False)
    assert (root / "notes.md").read_text(encoding="utf-8") == DOC

    await person(mcp_lab, "POST", "grants", {"scope": "", "agent": "builder", "agentKind": "client", "minutes": 5})
    builder = await issue_key(mcp_lab, "builder")
    async with mcp_client(headers=bearer(builder["secret"]), client_name="anything") as client:
        granted = await edit(Tools(client), "beta", "BETA")
    assert (granted["mode"], granted["applied"]) == ("apply", True)
    assert (root / "notes.md").read_text(encoding="utf-8") == DOC.replace("beta", "BETA")


async def test_a_sessionless_client_is_its_key(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    issued = await issue_key(mcp_lab, "modern")
    async with mcp_client(mode="auto", headers=bearer(issued["secret"]), client_name="modern-client") as client:
        caller = (await Tools(client).ok("session", "get_state"))["caller"]
    assert (caller["clientName"], caller["sessionId"]) == ("modern", "key:modern")


# --------------------------------------------------------------------------- refusals at the endpoint


async def test_unknown_expired_and_revoked_keys_get_401_envelopes(mcp_lab: LabServer, root: Path) -> None:
    store = mcp_lab.extension.keys.store
    # 5 s: the first request must come before the expiry even on a loaded machine.
    expires = time.time() + 5
    _, short, _ = store.add("short", created_by="ada", expires=expires)
    revoked = await issue_key(mcp_lab, "gone")
    await revoke_key(mcp_lab, "gone")
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **bearer(short)}, json=INITIALIZE)
        assert r.status_code == 200, r.text  # still valid
        await asyncio.sleep(max(0.0, expires - time.time()) + 0.1)
        answers = {
            "expired": await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **bearer(short)}, json=INITIALIZE),
            "revoked": await http.post(
                mcp_lab.mcp_url(), headers={**STREAMABLE, **bearer(revoked["secret"])}, json=INITIALIZE
            ),
            "Unknown": await http.post(
                mcp_lab.mcp_url(), headers={**STREAMABLE, **bearer("jml_000000000000_" + "x" * 43)}, json=INITIALIZE
            ),
        }
    for word, r in answers.items():
        assert r.status_code == 401, (word, r.text)
        assert r.headers["www-authenticate"].startswith("Bearer ")
        assert r.headers["content-type"].startswith("application/json")
        assert r.json()["error"] == "unauthorized" and word in r.json()["message"], r.json()
        assert "mcp-session-id" not in r.headers


async def test_a_key_opens_only_its_profiles(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    issued = await issue_key(mcp_lab, "lab-only", profiles=["lab"])
    assert issued["key"]["profiles"] == ["lab"]
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.post(
            mcp_lab.mcp_url("conformance"), headers={**STREAMABLE, **bearer(issued["secret"])}, json=INITIALIZE
        )
        assert r.status_code == 403, r.text
        assert r.json()["error"] == "forbidden" and "lab" in r.json()["message"]
        assert "mcp-session-id" not in r.headers
    async with mcp_client(headers=bearer(issued["secret"])) as client:
        assert (await Tools(client).ok("session", "get_state"))["caller"]["clientName"] == "lab-only"


@pytest.mark.parametrize("mcp_app_config", [{"allow_jupyter_credential": False}])
async def test_the_operator_can_keep_the_persons_credential_off_mcp(
    mcp_lab: LabServer, mcp_client: Any, root: Path
) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.post(mcp_lab.mcp_url(), headers={**STREAMABLE, **mcp_lab.auth()}, json=INITIALIZE)
    assert r.status_code == 403 and r.json()["error"] == "forbidden" and "agent key" in r.json()["message"]
    issued = await issue_key(mcp_lab, "only-keys")  # the REST API still takes the person's token
    async with mcp_client(headers=bearer(issued["secret"])) as client:
        await Tools(client).ok("session", "get_state")


# --------------------------------------------------------------------------- sessions bound to their credential


async def test_a_session_id_serves_only_the_credential_that_opened_it(mcp_lab: LabServer, root: Path) -> None:
    a = bearer((await issue_key(mcp_lab, "agent-a"))["secret"])
    b = bearer((await issue_key(mcp_lab, "agent-b"))["secret"])
    async with httpx2.AsyncClient(timeout=30) as http:
        sid = await open_session(http, mcp_lab, a)
        person_sid = await open_session(http, mcp_lab, mcp_lab.auth())
        # Another key, the person's token, or nothing at all: never served as agent-a.
        assert (await tools_list(http, mcp_lab, sid, b)).status_code == 404
        assert (await tools_list(http, mcp_lab, sid, mcp_lab.auth())).status_code == 404
        assert (await tools_list(http, mcp_lab, sid, {})).status_code == 401
        assert (await tools_list(http, mcp_lab, person_sid, a)).status_code == 404
        r = await http.delete(mcp_lab.mcp_url(), headers={**session_headers(sid), **b})
        assert r.status_code == 404
        # The refusals ended nothing: both owners still use their sessions.
        r = await tools_list(http, mcp_lab, sid, a)
        assert r.status_code == 200 and sse_messages(r.text)[0]["result"]["tools"]
        assert (await tools_list(http, mcp_lab, person_sid, mcp_lab.auth())).status_code == 200


# --------------------------------------------------------------------------- revocation cuts sessions


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])
async def test_revoking_a_key_cuts_its_session_mid_call(mcp_lab: LabServer, mcp_client: Any, root: Path) -> None:
    issued = await issue_key(mcp_lab, "waiter")
    other = await issue_key(mcp_lab, "bystander")
    seen: dict[str, Any] = {}
    async with mcp_client(headers=bearer(other["secret"])) as bystander:
        with contextlib.suppress(Exception, BaseExceptionGroup):  # the SDK reports the cut on the way out
            async with mcp_client(headers=bearer(issued["secret"])) as client:
                await edit(Tools(client), "alpha", "ALPHA")  # a suggestion to wait for
                waiting = asyncio.create_task(client.call_tool("review", {"action": "wait", "seconds": 60}))
                await asyncio.sleep(0.5)
                seen["waiting"] = not waiting.done()
                started = time.monotonic()
                seen["revoked"] = (await revoke_key(mcp_lab, "waiter"))["state"]
                done, _ = await asyncio.wait({waiting}, timeout=15)
                seen["cut after"] = time.monotonic() - started if done else None
                seen["answer"] = (waiting.exception() or waiting.result()) if done else None
                try:
                    await asyncio.wait_for(client.call_tool("session", {"action": "get_state"}), 15)
                    seen["next call"] = "served"
                except Exception as exc:
                    seen["next call"] = type(exc).__name__
        # Another key's session carries on.
        await Tools(bystander).ok("session", "get_state")
    assert seen["waiting"] and seen["revoked"] == "revoked"
    assert seen["cut after"] is not None and seen["cut after"] < 10, seen  # not the 60 s the call would wait
    assert isinstance(seen["answer"], BaseException) or seen["answer"].is_error, seen
    assert seen["next call"] not in ("served", "TimeoutError"), seen
    [suggestion] = (await person(mcp_lab, "GET", "suggestions"))["suggestions"]
    assert suggestion["status"] == "pending"


async def test_revoking_ends_the_open_stream_at_once(mcp_lab: LabServer, root: Path) -> None:
    headers = bearer((await issue_key(mcp_lab, "streamer"))["secret"])
    async with httpx2.AsyncClient(timeout=30) as http:
        sid = await open_session(http, mcp_lab, headers)
        async with open_stream(mcp_lab, sid, headers) as stream:
            await revoke_key(mcp_lab, "streamer")
            assert await ends_within(stream, 5) < 5
        assert (await tools_list(http, mcp_lab, sid, headers)).status_code == 401


async def test_a_key_revoked_from_the_command_line_ends_its_sessions(mcp_lab: LabServer, root: Path) -> None:
    headers = bearer((await issue_key(mcp_lab, "cli-revoked"))["secret"])
    keep = bearer((await issue_key(mcp_lab, "cli-kept"))["secret"])
    data_dir = mcp_lab.extension.data_dir
    async with httpx2.AsyncClient(timeout=30) as http:
        sid = await open_session(http, mcp_lab, headers)
        kept_sid = await open_session(http, mcp_lab, keep)
        async with open_stream(mcp_lab, sid, headers) as stream:
            done = await run_process(
                sys.executable,
                *("-m", "jupyter_mcp_lab", "keys", "revoke", "cli-revoked"),
                *("--root", str(root), "--data-dir", data_dir),
                time_limit=60,
            )
            assert done.returncode == 0, done.stderr
            assert "Revoked agent key 'cli-revoked'" in done.stderr
            await ends_within(stream, 5)  # the watcher noticed the store changed
        assert (await tools_list(http, mcp_lab, sid, headers)).status_code == 401
        assert (await tools_list(http, mcp_lab, kept_sid, keep)).status_code == 200


async def test_an_expiring_key_ends_its_sessions(mcp_lab: LabServer, root: Path) -> None:
    # 5 s: opening the session and its stream must happen before the expiry on a loaded machine.
    _, secret, _ = mcp_lab.extension.keys.store.add("brief", created_by="ada", expires=time.time() + 5)
    headers = bearer(secret)
    async with httpx2.AsyncClient(timeout=30) as http:
        sid = await open_session(http, mcp_lab, headers)
        async with open_stream(mcp_lab, sid, headers) as stream:
            await ends_within(stream, 10)
        r = await tools_list(http, mcp_lab, sid, headers)
    assert r.status_code == 401 and "expired" in r.json()["message"]
