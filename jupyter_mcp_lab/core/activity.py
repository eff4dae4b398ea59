"""A bounded in-memory log of tool calls and of the person's decisions, for the activity
views of the UIs (what each entry keeps of arguments and answers: ``activity_text``)."""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

# ``select(status=...)``: "error" stands for every status but "ok" (each error has its code).
OK = "ok"
ANY_ERROR = "error"


@dataclass(frozen=True)
class ActivityEntry:
    seq: int
    time: float
    profile: str
    tool: str
    client: str
    user: str
    session_id: str
    arguments: str
    status: str  # "ok" | "error" | an error code
    duration_ms: float
    # What the MCP client calls itself when ``client`` is an agent key's name ("": the same).
    label: str = ""
    # "agent": a tool call; "person": a decision in JupyterLab (server/api/decisions.py).
    actor: str = "agent"
    full_arguments: str = ""  # the arguments as JSON, whole up to 4 KB (activity_text)
    # What it answered, up to 1 KB (activity_text); or the function that makes it, called
    # when somebody first looks (most entries are never read: a call does not pay for it).
    answer: str | Callable[[], str] = field(default="", repr=False)

    @property
    def result(self) -> str:
        answer = self.answer
        if callable(answer):
            answer = answer()
            object.__setattr__(self, "answer", answer)  # made once (frozen otherwise)
        return answer

    def to_json(self) -> dict[str, Any]:
        """camelCase, as the REST API spells records (``session`` as on suggestions)."""
        return {
            "seq": self.seq,
            "time": self.time,
            "profile": self.profile,
            "tool": self.tool,
            "client": self.client,
            "label": self.label or self.client,
            "user": self.user,
            "session": self.session_id,
            "arguments": self.arguments,
            "status": self.status,
            "durationMs": self.duration_ms,
            "actor": self.actor,
            "fullArguments": self.full_arguments,
            "result": self.result,
        }

    def matches(self, client: str | None = None, tool: str | None = None, status: str | None = None) -> bool:
        """Whether the entry passes the filters (None: any)."""
        if client is not None and self.client != client:
            return False
        # A composite tool's calls are recorded as "tool.action": its name matches them all.
        if tool is not None and self.tool != tool and not self.tool.startswith(tool + "."):
            return False
        if status == ANY_ERROR:
            return self.status != OK
        return status is None or self.status == status


def summarize_arguments(arguments: dict[str, Any], limit: int = 160) -> str:
    """A one-line summary of tool arguments: long strings are cut, never logged whole."""
    parts = []
    for key, value in arguments.items():
        text = repr(value) if not isinstance(value, str) else repr(value[:40])
        if isinstance(value, str) and len(value) > 40:
            text = text[:-1] + f"…' ({len(value)} chars)"
        parts.append(f"{key}={text}")
    summary = ", ".join(parts)
    return summary if len(summary) <= limit else summary[: limit - 1] + "…"


Listener = Callable[[ActivityEntry], object]  # what it returns is ignored


class ActivityLog:
    """Keeps the last ``maxlen`` calls; appending is O(1) and never blocks a call.

    Listeners (the UIs' event stream) hear of each entry as it is recorded; they must
    return at once, and one that raises is logged and skipped: a tool call never fails
    because somebody was watching it.
    """

    def __init__(self, maxlen: int = 1000) -> None:
        self._entries: deque[ActivityEntry] = deque(maxlen=maxlen)
        self._seq = itertools.count(1)
        self._listeners: list[Listener] = []

    def record(self, *, result: str | Callable[[], str] = "", **fields: Any) -> ActivityEntry:
        """Log a call or a decision; ``result``: what it answered, or a function making that."""
        entry = ActivityEntry(seq=next(self._seq), time=time.time(), answer=result, **fields)
        self._entries.append(entry)
        for listener in list(self._listeners):
            try:
                listener(entry)
            except Exception:
                log.exception("an activity listener failed on %s", entry.tool)
        return entry

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every entry recorded from now on; returns the unsubscribe."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def since(self, seq: int = 0, limit: int = 200) -> list[ActivityEntry]:
        out = [e for e in list(self._entries) if e.seq > seq]
        return out[-limit:]

    def select(
        self,
        after: int = 0,
        limit: int = 200,
        client: str | None = None,
        tool: str | None = None,
        status: str | None = None,
    ) -> list[ActivityEntry]:
        """The newest ``limit`` entries after ``after`` that pass the filters, oldest first."""
        out = [e for e in list(self._entries) if e.seq > after and e.matches(client, tool, status)]
        return out[-limit:] if limit > 0 else []

    @property
    def latest(self) -> int:
        """The seq of the newest entry kept (0 while the log is empty)."""
        entries = self._entries
        return entries[-1].seq if entries else 0

    def __len__(self) -> int:
        return len(self._entries)
