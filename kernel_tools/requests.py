"""What a server asks of the person in the notebook: elicitation, sampling, roots.

A server's request becomes a ``PendingRequest`` in ``lab.pending``. It is answered by a
handler given to ``connect()`` (``on_elicit=``, ``on_sample=``: a function of the request
that returns the answer), or by the person: the inspector widget shows it as a form, and a
later cell can answer it (``lab.pending[0].respond({...})``). Roots are the notebook's
directory unless ``roots=`` says otherwise. Server notifications and log messages are kept
in ``lab.log`` (newest last) for the inspector's pane.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitResult,
    ErrorData,
    ListRootsResult,
    LoggingMessageNotificationParams,
    Root,
    TextContent,
)

Listener = Callable[[str, Any], None]
_ids = itertools.count(1)
LOG_LIMIT = 500
_PAST = {"decline": "declined", "cancel": "cancelled", "reject": "rejected"}


@dataclass
class PendingRequest:
    """One request from the server, waiting for the person's answer."""

    kind: str  # "elicitation" | "sampling"
    params: Any
    id: int = field(default_factory=lambda: next(_ids))
    created: float = field(default_factory=time.time)
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future, repr=False)

    @property
    def message(self) -> str:
        """What the server says it wants (the elicitation message, or the last sampled message's text)."""
        if self.kind == "elicitation":
            return str(self.params.message)
        texts = [b.text for m in self.params.messages for b in m.content_as_list if isinstance(b, TextContent)]
        return texts[-1] if texts else ""

    @property
    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the answer: the elicitation's form, or one text field for sampling."""
        if self.kind == "elicitation":
            if isinstance(self.params, ElicitRequestFormParams):
                return dict(self.params.requested_schema)
            return {"type": "object", "properties": {}}
        return {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The reply, as the model would give it."}},
            "required": ["text"],
        }

    @property
    def done(self) -> bool:
        return self.future.done()

    def respond(self, content: dict[str, Any] | str | None = None, *, action: str = "accept") -> None:
        """Answer it: elicitation ``content`` is the form's values; sampling takes the reply text."""
        if self.kind == "sampling":
            if action != "accept":
                answer: Any = ErrorData(
                    code=-1, message=f"The person {_PAST.get(action, action)} the sampling request."
                )
            else:
                text = content if isinstance(content, str) else (content or {}).get("text", "")
                answer = CreateMessageResult(
                    role="assistant",
                    content=TextContent(type="text", text=str(text)),
                    model="person-in-notebook",
                    stop_reason="endTurn",
                )
        else:
            if action not in ("accept", "decline", "cancel"):
                raise ValueError("action is accept, decline or cancel")
            answer = ElicitResult(action=action, content=dict(content or {}) if action == "accept" else None)  # type: ignore[arg-type]
        if not self.future.done():
            self.future.set_result(answer)

    def decline(self) -> None:
        self.respond(action="decline")

    def cancel(self) -> None:
        self.respond(action="cancel")

    def to_json(self) -> dict[str, Any]:
        """What the inspector widget shows."""
        out = {"id": self.id, "kind": self.kind, "message": self.message, "schema": self.schema}
        out["created"] = self.created
        if self.kind == "elicitation" and not isinstance(self.params, ElicitRequestFormParams):
            out["url"] = getattr(self.params, "url", None)
        if self.kind == "sampling":
            out["messages"] = [
                {"role": m.role, "text": " ".join(b.text for b in m.content_as_list if isinstance(b, TextContent))}
                for m in self.params.messages
            ]
            out["systemPrompt"] = self.params.system_prompt
            out["maxTokens"] = self.params.max_tokens
        return out


class ServerRequests:
    """Pending requests and the notification log of one client; listeners hear about both."""

    def __init__(
        self,
        on_elicit: Callable[[PendingRequest], Any] | None = None,
        on_sample: Callable[[PendingRequest], Any] | None = None,
        roots: list[str | Path] | None = None,
    ) -> None:
        self.on_elicit, self.on_sample = on_elicit, on_sample
        self.roots = [Path(r).resolve() for r in (roots if roots is not None else [Path.cwd()])]
        self.pending: list[PendingRequest] = []
        self.log: list[dict[str, Any]] = []
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self.arrived = threading.Condition(self._lock)  # a synchronous call waits on it (see client)

    # --- listeners (widgets) ---------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _tell(self, what: str, payload: Any) -> None:
        for listener in list(self._listeners):
            try:
                listener(what, payload)
            except Exception as exc:  # a broken widget must not break the session
                self._append_log({"kind": "client", "level": "error", "data": f"listener failed: {exc!r}"})

    @property
    def has_listeners(self) -> bool:
        return bool(self._listeners)

    # --- the SDK's callbacks -----------------------------------------------------------

    async def _ask(self, kind: str, params: Any, handler: Callable[[PendingRequest], Any] | None) -> Any:
        request = PendingRequest(kind, params)
        if handler is not None:
            answer = handler(request)
            if asyncio.iscoroutine(answer):
                answer = await answer
            if not request.done:
                if isinstance(answer, dict | str) or answer is None:
                    request.respond(answer)
                else:
                    return answer  # already an ElicitResult / CreateMessageResult
        else:
            with self._lock:
                self.pending.append(request)
                self.arrived.notify_all()
            self._tell("request", request)
        try:
            return await asyncio.wrap_future(request.future)
        finally:
            with self._lock:
                if request in self.pending:
                    self.pending.remove(request)
            self._tell("answered", request)

    async def elicitation(self, context: Any, params: ElicitRequestParams) -> ElicitResult | ErrorData:
        return await self._ask("elicitation", params, self.on_elicit)

    async def sampling(self, context: Any, params: CreateMessageRequestParams) -> CreateMessageResult | ErrorData:
        return await self._ask("sampling", params, self.on_sample)

    async def list_roots(self, context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=r.as_uri(), name=r.name or str(r)) for r in self.roots])

    async def logging(self, params: LoggingMessageNotificationParams) -> None:
        self._append_log({"kind": "log", "level": params.level, "logger": params.logger, "data": params.data})

    async def message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self._append_log({"kind": "error", "level": "error", "data": repr(message)})
            return
        root = getattr(message, "root", message)
        method = getattr(root, "method", type(root).__name__)
        if method == "notifications/message":
            return  # the logging callback has it
        params = getattr(root, "params", None)
        data = params.model_dump(mode="json", by_alias=True, exclude_none=True) if params is not None else None
        self._append_log({"kind": "notification", "method": method, "data": data})

    def _append_log(self, entry: dict[str, Any]) -> None:
        entry["time"] = time.time()
        with self._lock:
            self.log.append(entry)
            del self.log[:-LOG_LIMIT]
        self._tell("log", entry)
