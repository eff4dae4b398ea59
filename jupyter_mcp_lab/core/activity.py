"""A bounded in-memory log of tool calls, for the activity views of the UIs."""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any


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

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


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


class ActivityLog:
    """Keeps the last ``maxlen`` calls; appending is O(1) and never blocks a call."""

    def __init__(self, maxlen: int = 1000) -> None:
        self._entries: deque[ActivityEntry] = deque(maxlen=maxlen)
        self._seq = itertools.count(1)

    def record(self, **fields: Any) -> ActivityEntry:
        entry = ActivityEntry(seq=next(self._seq), time=time.time(), **fields)
        self._entries.append(entry)
        return entry

    def since(self, seq: int = 0, limit: int = 200) -> list[ActivityEntry]:
        out = [e for e in self._entries if e.seq > seq]
        return out[-limit:]

    def __len__(self) -> int:
        return len(self._entries)
