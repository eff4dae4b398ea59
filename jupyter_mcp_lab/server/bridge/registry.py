"""The connected JupyterLabs: who they are, what they show, and requests to them.

One ``LabClient`` per websocket. A client's presence becomes its window's tabs (see
``Workspace.sync_window``) and the person's selection reaches the tab through
``report_person_selection``. Requests are correlated by id with an asyncio future each; an
unanswered one times out, and a client that disconnects fails its pending ones, so an
agent's call always ends with an answer or a clear error.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...core.documents import OpenDocument
from ...core.errors import DomainError, ErrorCode
from ...core.paths import to_api_path
from ...core.workspace import LabAnswer, report_person_selection
from ...ops.context import Services
from ..api.decisions import record_person
from .messages import MAX_DOCUMENTS, Hello, Presence, Response

log = logging.getLogger(__name__)

# The codes a client answers with, as the domain's (the client's own stays in ``labError``).
ERROR_CODES: dict[str, ErrorCode] = {
    "NOT_FOUND": "NOT_FOUND",
    "INVALID_ARGUMENT": "INVALID_ARGUMENT",
    "UNAVAILABLE": "NOT_IMPLEMENTED",
    "UNKNOWN_METHOD": "NOT_IMPLEMENTED",
}

Send = Callable[[dict[str, Any]], None]


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(eq=False)
class LabClient:
    """One JupyterLab connected over the bridge."""

    id: str
    label: str  # its window's label
    user: str
    display_name: str
    user_agent: str
    version: str
    send: Send
    close: Callable[[], None]
    connected_at: float = field(default_factory=time.time)
    last_seen: float = field(default_factory=time.time)
    last_active: float = field(default_factory=time.time)  # when the person last did something there
    presence: Presence | None = None
    connected: bool = True
    pending: dict[str, asyncio.Future[Any]] = field(default_factory=dict)
    reported_selection: tuple[str, int, int] | None = None

    def rank(self) -> tuple[bool, bool, float]:
        """Which client "the person used last" means: focused, then visible, then recent."""
        p = self.presence
        return (bool(p and p.focused), bool(p and p.visible), self.last_active)

    def describe(self) -> dict[str, Any]:
        p = self.presence
        return {
            "window": self.label,
            "clientId": self.id,
            "user": self.display_name or self.user,
            "userAgent": self.user_agent[:200],
            "connectedAt": _iso(self.connected_at),
            "lastSeen": _iso(self.last_seen),
            "focused": bool(p and p.focused),
            "visible": bool(p and p.visible),
            "active": p.active if p else None,
            "documents": [d.model_dump() for d in p.documents] if p else [],
            "selection": p.selection.model_dump(exclude_none=True) if p and p.selection else None,
        }


class LabBridge:
    """The registry of connected JupyterLabs (``core.workspace.LabClients``)."""

    def __init__(
        self,
        services: Services,
        *,
        request_timeout: float = 10.0,
        confirm_timeout: float = 60.0,
        reconnect_grace: float = 10.0,
        lab_url: str = "",
    ) -> None:
        self.services = services
        self.request_timeout = request_timeout
        self.confirm_timeout = confirm_timeout
        # A reload or a network blip reconnects within seconds: the window (and the agents'
        # focus on it) waits that long before it goes.
        self.reconnect_grace = reconnect_grace
        self.lab_url = lab_url
        self.clients: dict[str, LabClient] = {}  # by window label; disconnected ones during their grace
        self._labels: dict[str, str] = {}  # client id -> window label, for good (a reload gets its window back)
        self._windows = itertools.count(1)
        self._requests = itertools.count(1)
        self._removals: dict[str, asyncio.TimerHandle] = {}
        self.running = True

    # ------------------------------------------------------------------ connections

    def connect(self, hello: Hello, user: str, display_name: str, send: Send, close: Callable[[], None]) -> LabClient:
        """Register a client that said hello; its window appears in the workspace."""
        client_id = hello.clientId
        if any(c.id == client_id and c.connected for c in self.clients.values()):
            # A duplicated browser tab copies the session storage, id included.
            client_id = f"{client_id}-{secrets.token_hex(3)}"
        label = self._labels.get(client_id)
        if label is None:
            label = self._labels[client_id] = f"lab-{next(self._windows)}"
        timer = self._removals.pop(label, None)
        if timer is not None:
            timer.cancel()
        client = LabClient(
            id=client_id,
            label=label,
            user=user,
            display_name=display_name,
            user_agent=hello.userAgent,
            version=hello.version,
            send=send,
            close=close,
        )
        self.clients[label] = client
        self.services.workspace.add_window(label, client_id)
        log.debug("lab bridge: %s connected as %s (%s)", client_id, label, user)
        return client

    def disconnect(self, client: LabClient) -> None:
        """The client's socket closed: its pending requests fail; its window goes after the
        reconnect grace unless it comes back."""
        if not client.connected:
            return
        client.connected = False
        self._fail_pending(client, "disconnected", f"JupyterLab ({client.label}) disconnected before answering")
        if self.clients.get(client.label) is not client:
            return
        window = self.services.workspace.windows.get(client.label)
        if window is not None:
            window.client = None  # not a live JupyterLab while it is away (add_window restores it)
        if self.reconnect_grace <= 0 or not self.running:
            self._remove(client.label, client)
            return
        loop = asyncio.get_running_loop()
        self._removals[client.label] = loop.call_later(self.reconnect_grace, self._remove, client.label, client)

    def _remove(self, label: str, client: LabClient) -> None:
        self._removals.pop(label, None)
        if self.clients.get(label) is not client or client.connected:
            return  # it came back meanwhile
        del self.clients[label]
        self._release(self.services.workspace.remove_window(label))

    def _release(self, docs: list[OpenDocument]) -> None:
        """Drop the buffers of documents no tab shows any more (unless they hold unsaved work)."""
        workspace, documents = self.services.workspace, self.services.docs
        for doc in docs:
            if not workspace.is_shown(doc) and not doc.dirty and documents.find(doc.key) is doc:
                documents.close(doc)

    def _fail_pending(self, client: LabClient, reason: str, message: str) -> None:
        for future in client.pending.values():
            if not future.done():
                future.set_exception(self._no_client(message, reason=reason, window=client.label))
        client.pending.clear()

    async def stop(self) -> None:
        """The server stops: every pending request fails, every socket closes."""
        self.running = False
        for timer in self._removals.values():
            timer.cancel()
        self._removals.clear()
        for client in list(self.clients.values()):
            self._fail_pending(client, "disconnected", "the Jupyter server is stopping")
            if client.connected:
                try:
                    client.close()
                except Exception:  # already gone
                    log.debug("lab bridge: closing %s failed", client.label, exc_info=True)

    # ------------------------------------------------------------------ what clients say

    async def on_presence(self, client: LabClient, presence: Presence) -> None:
        now = time.time()
        client.last_seen = now
        if presence.documents[MAX_DOCUMENTS:]:
            presence = presence.model_copy(update={"documents": presence.documents[:MAX_DOCUMENTS]})
        previous = client.presence
        if previous is None or presence.focused or presence != previous:
            client.last_active = now
        client.presence = presence
        await self._apply(client, presence)

    def on_response(self, client: LabClient, response: Response) -> None:
        client.last_seen = time.time()
        future = client.pending.get(response.id)
        if future is None or future.done():
            return  # answered after its timeout: nobody waits any more
        if response.ok:
            future.set_result(response.result)
            return
        error = response.error
        code = error.code if error else "FAILED"
        message = (error.message if error else "") or "the request failed"
        future.set_exception(
            DomainError(
                ERROR_CODES.get(code, "INTERNAL"),
                f"JupyterLab ({client.label}): {message}",
                labError=code,
                window=client.label,
            )
        )

    def seen(self, client: LabClient) -> None:
        client.last_seen = time.time()

    async def _apply(self, client: LabClient, presence: Presence) -> None:
        """The presence as the window's tabs and the person's selection."""
        workspace, documents = self.services.workspace, self.services.docs
        window = workspace.windows.get(client.label)
        if window is None or self.clients.get(client.label) is not client:
            return
        root = self.services.settings.root_dir
        shown = {t.doc.path: t.doc for t in window.tabs if t.in_lab and t.doc.path}
        docs: dict[str, OpenDocument] = {}
        for info in presence.documents:
            if info.path in docs:
                continue
            doc = shown.get(info.path)
            if doc is None:
                try:
                    api = to_api_path(root, info.path)
                    doc = documents.find(api) or await documents.open(api)
                except DomainError as exc:
                    # Not a text document the server can read (an image, a folder, …): it
                    # stays in the presence, without a tab.
                    log.debug("lab bridge: no tab for %s: %s", info.path, exc.message)
                    continue
            docs[info.path] = doc
        if workspace.windows.get(client.label) is not window or not client.connected:
            return  # it left while files were read
        active = docs.get(presence.active) if presence.active else None
        self._release(workspace.sync_window(window, list(docs.values()), active))
        await self._report_selection(client, presence, docs)

    async def _report_selection(self, client: LabClient, presence: Presence, docs: dict[str, OpenDocument]) -> None:
        sel = presence.selection
        if sel is None or sel.cell is not None:
            return  # none, or in a notebook cell: no offsets into the notebook's source
        doc = docs.get(sel.path)
        if doc is None or doc.kind == "notebook":
            return
        key = (sel.path, sel.anchor, sel.head)
        if key == client.reported_selection:
            return  # unchanged: an agent's selection set since then stays
        window = self.services.workspace.windows.get(client.label)
        tab = self.services.workspace.tab_in(window, doc) if window else None
        if tab is None:
            return
        client.reported_selection = key
        await self.services.docs.refresh(doc)  # the offsets refer to the file as the person sees it
        person_dirty = any(d.dirty for d in presence.documents if d.path == sel.path)
        # A clean editor shows the saved file: the offsets are into that text, and the tab
        # maps them through the agent's unsaved changes (if any). A dirty one shows edits
        # the server has not seen: the offsets are clamped to what it has.
        text = doc.saved if not person_dirty and doc.saved is not None else None
        report_person_selection(tab, sel.anchor, sel.head, text=text)

    # ------------------------------------------------------------------ LabClients

    def _live(self) -> list[LabClient]:
        return [c for c in self.clients.values() if c.connected]

    def _no_client(self, message: str, **details: Any) -> DomainError:
        if self.lab_url:
            details.setdefault("labUrl", self.lab_url)
        return DomainError("NO_LAB_CLIENT", message, **details)

    def describe(self) -> list[dict[str, Any]]:
        return [c.describe() for c in sorted(self._live(), key=LabClient.rank, reverse=True)]

    def pick(self, window: str | None) -> str:
        live = self._live()
        if window:
            found = next((c for c in live if window in (c.label, c.id)), None)
            if found is None:
                names = ", ".join(c.label for c in live) or "none"
                raise self._no_client(
                    f"No connected JupyterLab {window!r} (connected: {names}); see lab clients.", window=window
                )
            return found.label
        if not live:
            where = f" ({self.lab_url})" if self.lab_url else ""
            raise self._no_client(
                f"No JupyterLab is connected to this server: ask the person to open JupyterLab{where} "
                "in a browser, then retry."
            )
        return max(live, key=LabClient.rank).label

    async def request(self, window: str, method: str, params: dict[str, Any], *, seconds: float | None = None) -> Any:
        client = self.clients.get(window)
        if client is None or not client.connected:
            raise self._no_client(
                f"JupyterLab {window!r} is not connected any more", reason="disconnected", window=window
            )
        timeout = self.request_timeout if seconds is None else seconds
        rid = f"r{next(self._requests)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        client.pending[rid] = future
        try:
            try:
                client.send({"type": "request", "id": rid, "method": method, "params": params})
            except Exception:
                raise self._no_client(
                    f"JupyterLab ({window}) disconnected", reason="disconnected", window=window
                ) from None
            try:
                return await asyncio.wait_for(future, timeout)
            except TimeoutError:
                self._cancel(client, rid)
                raise self._no_client(
                    f"JupyterLab ({window}) did not answer {method} within {timeout:g} s (is its browser tab "
                    "asleep or busy?)",
                    reason="timeout",
                    window=window,
                ) from None
            except asyncio.CancelledError:
                self._cancel(client, rid)  # the agent gave up: close a dialog it was waiting on
                raise
        finally:
            client.pending.pop(rid, None)

    def _cancel(self, client: LabClient, rid: str) -> None:
        if client.connected:
            try:
                client.send({"type": "cancel", "id": rid})
            except Exception:
                log.debug("lab bridge: cancel to %s failed", client.label, exc_info=True)

    async def ask(self, window: str, question: dict[str, Any]) -> LabAnswer:
        timeout = self.confirm_timeout
        try:
            result = await self.request(window, "confirm", {**question, "timeoutSeconds": timeout}, seconds=timeout)
        except DomainError as exc:
            if exc.code == "NO_LAB_CLIENT" and exc.details.get("reason") == "timeout":
                return "timeout"
            raise
        answer: LabAnswer = "allow" if isinstance(result, dict) and result.get("allowed") is True else "deny"
        # The person's Allow or Deny is theirs in the activity log (a timeout is nobody's).
        client = self.clients.get(window)
        if client is not None:
            record_person(
                self.services.activity,
                f"lab.{answer}",
                client.user,
                client.display_name or client.user,
                {"window": window, **question},
                answer={"allowed": answer == "allow"},
            )
        return answer
