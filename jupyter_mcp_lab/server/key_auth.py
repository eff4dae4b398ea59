"""Agent keys at the MCP endpoints: who a key is, which sessions it opened, cutting them off.

A key is looked up per request (a few microseconds: the record by the id its secret
carries, remembered until the key store changes), so a key issued or revoked from the
command line counts at the next request. Each MCP session a key opens is remembered
with it; revoking the key (here, or from the command line: a watcher notices the store
changed) ends those sessions at once, through the session manager's own DELETE, and a
key that expires ends its sessions the same way.

The SDK binds every session to the principal that opened it: a key's principal is the
key itself (its id), the person's is their Jupyter user, so nobody else's credential
can use a session id it learned.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken

from ..core.keys import AgentKey, KeyStore, hash_secret
from .endpoints import MCPEndpoints

log = logging.getLogger(__name__)

# Where MCPLabApp leaves this server's AgentKeys for the REST routes (Tornado settings).
KEYS_SETTING = "jupyter_mcp_lab_keys"
SESSIONS_PER_KEY = 256  # remembered per key, newest kept (ended sessions are not reported)
CACHE_LIMIT = 256  # keys remembered by secret hash between store changes


@functools.lru_cache(maxsize=256)
def person_principal(username: str) -> AuthenticatedUser:
    """The SDK's principal for a person authenticated by Jupyter (token, cookie, hub token)."""
    return AuthenticatedUser(AccessToken(token="", client_id="jupyter", subject=username, scopes=[]))


@functools.lru_cache(maxsize=256)
def key_principal(key_id: str) -> AuthenticatedUser:
    """The SDK's principal for an agent key: the key itself, not its name or its person."""
    return AuthenticatedUser(AccessToken(token="", client_id=f"key:{key_id}", scopes=[]))


@dataclass(frozen=True)
class Refusal:
    status: int
    code: str
    message: str


def refusal(key: AgentKey | None, profile: str | None, now: float) -> Refusal | None:
    """Why ``key`` may not use ``profile`` now (None: it may; no profile: any of them)."""
    if key is None:
        return Refusal(401, "unauthorized", "Unknown agent key: ask the person for a key (keys add NAME).")
    state = key.state(now)
    if state != "active":
        return Refusal(401, "unauthorized", f"The agent key {key.name!r} is {state}: ask the person for a new one.")
    if profile is not None and not key.allows(profile):
        allowed = ", ".join(key.profiles or ())
        return Refusal(403, "forbidden", f"The agent key {key.name!r} opens only these profiles: {allowed}.")
    return None


class AgentKeys:
    """The keys of this server's workspace, as the MCP handler and the REST API use them."""

    def __init__(self, store: KeyStore, endpoints: MCPEndpoints, poll_interval: float = 1.0) -> None:
        self.store = store
        self.endpoints = endpoints
        self.poll_interval = poll_interval
        self._by_hash: dict[str, AgentKey] = {}
        # key id -> (profile, session id) it opened, oldest first
        self._sessions: dict[str, OrderedDict[tuple[str, str], None]] = {}
        self._bound: dict[str, AgentKey] = {}  # key id -> its record, for keys with sessions
        self._used: dict[str, float] = {}  # key id -> last use, not yet written
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._pending: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ per request

    def authenticate(self, secret: str, now: float | None = None) -> AgentKey | None:
        """The key this secret is (whatever its state), or None."""
        now = time.time() if now is None else now
        if self.store.changed():
            self._forget_records()
        digest = hash_secret(secret)
        key = self._by_hash.get(digest)
        if key is None:
            key = self.store.find(secret)
            if key is None:
                return None
            if len(self._by_hash) >= CACHE_LIMIT:
                self._by_hash.clear()
            self._by_hash[digest] = key
        if key.state(now) == "active":
            self._used[key.id] = now
        return key

    def bind(self, key: AgentKey, profile: str, session_id: str) -> None:
        """Remember that ``key`` opened this MCP session (it ends when the key does)."""
        sessions = self._sessions.setdefault(key.id, OrderedDict())
        sessions[(profile, session_id)] = None
        while len(sessions) > SESSIONS_PER_KEY:
            sessions.popitem(last=False)
        self._bound[key.id] = key

    def sessions_of(self, key_id: str) -> list[tuple[str, str]]:
        return list(self._sessions.get(key_id, ()))

    # ------------------------------------------------------------------ issuing and revoking

    def issue(
        self,
        name: str,
        *,
        created_by: str,
        expires: float | None = None,
        profiles: Iterable[str] | None = None,
        replace: bool = False,
        now: float | None = None,
    ) -> tuple[AgentKey, str, AgentKey | None]:
        """A new key, its secret, and the key it replaced (revoked now; its sessions end)."""
        key, secret, replaced = self.store.add(
            name, created_by=created_by, expires=expires, profiles=profiles, replace=replace, now=now
        )
        self._forget_records()
        if replaced is not None:
            self._spawn(self.end_sessions(replaced.id))
        return key, secret, replaced

    async def revoke(self, name: str) -> AgentKey:
        """Revoke the key named ``name`` and end its open sessions before answering."""
        key = self.store.revoke(name)
        self._forget_records()
        await self.end_sessions(key.id)
        return key

    async def end_sessions(self, key_id: str) -> int:
        """End every MCP session ``key_id`` opened that is still open; how many were asked to end."""
        sessions = self._sessions.pop(key_id, OrderedDict())
        self._bound.pop(key_id, None)
        principal = key_principal(key_id)
        ended = 0
        for profile, session_id in sessions:
            manager = self.endpoints.managers.get(profile)
            if manager is None or not self.endpoints.running:
                continue
            status = await _delete_session(manager, session_id, principal)
            ended += status == 200
        if ended:
            log.info("jupyter-mcp-lab: ended %d MCP session(s) of a revoked or expired agent key", ended)
        return ended

    def flush_used(self) -> None:
        """Write the keys' last-use times (batched: not a write per request)."""
        used, self._used = self._used, {}
        try:
            self.store.touch(used)
        except Exception:
            log.exception("jupyter-mcp-lab: recording when agent keys were last used failed")

    # ------------------------------------------------------------------ the watcher

    async def start(self) -> None:
        self._stop.clear()
        self._task = asyncio.create_task(self._watch(), name="jupyter-mcp-lab agent keys")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, timeout=5)
            self._task = None
        for task in list(self._pending):
            task.cancel()
        self.flush_used()

    async def _watch(self) -> None:
        """End the sessions of keys revoked elsewhere or expired; write last-use times now and then."""
        last_flush = time.monotonic()
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.poll_interval)
            try:
                await self.check()
                if time.monotonic() - last_flush > 30:
                    last_flush = time.monotonic()
                    await asyncio.to_thread(self.flush_used)
            except Exception:
                log.exception("jupyter-mcp-lab: checking agent keys failed")

    async def check(self, now: float | None = None) -> None:
        """End the sessions of every key that is no longer active."""
        now = time.time() if now is None else now
        if self.store.changed():
            self._forget_records()
        for key_id, key in list(self._bound.items()):
            if key.state(now) != "active":
                await self.end_sessions(key_id)

    def _forget_records(self) -> None:
        """The store changed: look keys up afresh, and learn the state of keys with sessions."""
        self._by_hash.clear()
        for key_id in list(self._bound):
            fresh = self.store.get(key_id)
            if fresh is None:
                # Not this workspace's any more (cannot happen) or deleted by hand: end it too.
                old = self._bound[key_id]
                fresh = dataclasses.replace(old, revoked=old.revoked or time.time())
            self._bound[key_id] = fresh

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)


async def _delete_session(manager: Any, session_id: str, principal: AuthenticatedUser) -> int:
    """The manager's answer to a DELETE of ``session_id`` by ``principal`` (200: ended, 404: gone)."""
    status = 0
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the manager answers without reading further
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "DELETE",
        "scheme": "http",
        "path": "/",
        "raw_path": b"/",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"mcp-session-id", session_id.encode("latin-1"))],
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 80),
        "state": {},
        "user": principal,
    }
    try:
        await manager.handle_request(scope, receive, send)
    except Exception:
        log.exception("jupyter-mcp-lab: ending an MCP session failed")
    return status
