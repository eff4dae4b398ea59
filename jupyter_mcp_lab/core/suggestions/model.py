"""Suggestions, checkpoints and trust grants as immutable records.

Records are frozen dataclasses: a decision makes a new record (``dataclasses.replace``) and
the store's compare-and-set decides which one is true, so no caller mutates shared state.
Offsets are Unicode code point offsets (Python ``str`` indexes) into the text named.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from ..errors import ArgumentError, DomainError
from ..paths import root_relative
from ..revision import revision_of
from ..text import LineIndex
from .patch import Hunk

Status = Literal["pending", "accepted", "rejected", "conflict"]
Source = Literal["auto", "accepted", "grant", "revert", "person"]
AgentKind = Literal["session", "client"]

STATUSES: tuple[str, ...] = get_args(Status)
SOURCES: tuple[str, ...] = get_args(Source)
AGENT_KINDS: tuple[str, ...] = get_args(AgentKind)


def new_id(prefix: str) -> str:
    """``prefix-`` and 12 random hex digits: unguessable, so ids cannot be enumerated."""
    return f"{prefix}-{secrets.token_hex(6)}"


def check_status(status: str, argument: str = "status") -> Status:
    if status not in STATUSES:
        raise ArgumentError(f"unknown status {status!r}; expected one of {', '.join(STATUSES)}", argument)
    return status  # type: ignore[return-value]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


class _Json:
    """camelCase JSON for the REST API and MCP results (the wire format is camelCase)."""

    def to_json(self) -> dict[str, Any]:
        return {_camel(f.name): getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


@dataclass(frozen=True, kw_only=True)
class Suggestion(_Json):
    """Replace ``base[start:end]`` (== ``original``) with ``new``, once a person accepts it."""

    id: str = field(default_factory=lambda: new_id("sug"))
    path: str
    kind: str
    start: int
    end: int
    original: str
    new: str
    base_revision: str
    author: str
    user: str
    session: str
    rationale: str = ""
    operation: str = ""
    group: str | None = None
    created: float = field(default_factory=time.time)
    status: Status = "pending"
    decided: float | None = None
    decided_by: str | None = None
    result_revision: str | None = None
    reason: str | None = None
    line_start: int = 1
    line_end: int = 1
    # A change to one part of a structured document (a notebook cell, an outline row):
    # ``part`` is its id, and start/end/original/new are in that part's text; ``change`` is
    # a structural change of that part as JSON (``core.content.part_edits``), None for a text
    # change. Both None: offsets into the whole document's text. On the wire ``change`` is
    # a summary (``change_summary``): a cell's outputs are counted, not copied.
    part: str | None = None
    change: str | None = None

    def __post_init__(self) -> None:
        check_status(self.status)
        if not 0 <= self.start <= self.end:
            raise ArgumentError(f"range {self.start}..{self.end} is not a range", "range")

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "change": change_summary(self.change)}


def change_summary(change: str | None) -> dict[str, Any] | None:
    """A part's structural change as the wire shows it: ``op``, where (``after``, ``index``)
    and the fields it sets, outputs as their count (``outputCount``)."""
    if change is None:
        return None
    data = json.loads(change)
    fields = dict(data.get("fields") or {})
    if "outputs" in fields:
        outputs = fields.pop("outputs")
        fields["outputCount"] = len(outputs) if isinstance(outputs, list) else 0
    return {"op": data.get("op"), "after": data.get("after"), "index": data.get("index", 0), "fields": fields}


@dataclass(frozen=True, kw_only=True)
class Checkpoint(_Json):
    """An applied change: ``before[start:start+len(old)] == old`` became ``new``.

    ``hunks`` is the change as stored: each changed place with its context (``patch``).
    ``start``, ``old`` and ``new`` summarise it as one region (exact for one place)."""

    id: str = field(default_factory=lambda: new_id("cp"))
    path: str
    before_revision: str
    after_revision: str
    start: int
    old: str
    new: str
    author: str
    user: str
    session: str
    source: Source
    suggestion_id: str | None = None
    grant_id: str | None = None
    created: float = field(default_factory=time.time)
    reverted_by: str | None = None
    label: str = ""
    rationale: str = ""  # the agent's, or the accepted suggestions' (joined when several differ)
    # A notebook's change told by cell (``review.cell_changes``) as JSON: {changes, more}.
    cells: str | None = None
    # Not a column of its own (stored compressed in ``diff``), not on the wire, not compared:
    # a record made from start/old/new alone equals the one read back with its hunks.
    hunks: tuple[Hunk, ...] = field(default=(), compare=False, repr=False, metadata={"column": False})

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ArgumentError(f"unknown checkpoint source {self.source!r}", "source")
        if not self.hunks:
            object.__setattr__(self, "hunks", (Hunk(self.start, self.old, self.new),))

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in super().to_json().items() if k != "hunks"}
        return {**data, "cells": json.loads(self.cells) if self.cells else None}


def normalize_scope(scope: str) -> str:
    """API path form: root-relative; "" is the whole root; a folder keeps its trailing "/".

    ``..`` is refused rather than resolved: a grant is a promise about exactly the
    documents it names, and one that climbs around the tree names something else.
    """
    if "\0" in scope:
        raise DomainError("INVALID_PATH", "scope contains a NUL character", argument="scope")
    parts = [p for p in scope.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise DomainError("INVALID_PATH", f"scope {scope!r} contains '..'", argument="scope")
    key = "/".join(parts)
    return key + "/" if key and scope.endswith("/") else key


@dataclass(frozen=True, kw_only=True)
class Grant(_Json):
    """Lets one agent apply directly (no suggestion) below ``scope`` until ``expires``."""

    id: str = field(default_factory=lambda: new_id("grant"))
    scope: str
    agent: str
    agent_kind: AgentKind
    created: float = field(default_factory=time.time)
    expires: float
    created_by: str
    revoked: float | None = None

    def __post_init__(self) -> None:
        if self.agent_kind not in AGENT_KINDS:
            raise ArgumentError(f"unknown agent kind {self.agent_kind!r}", "agentKind")
        if not self.agent:
            raise ArgumentError("a grant needs an agent", "agent")
        # Frozen: normalise in place once, so every copy compares and stores the same scope.
        object.__setattr__(self, "scope", normalize_scope(self.scope))

    def active(self, now: float) -> bool:
        return self.revoked is None and now < self.expires

    def covers(self, path: str, session: str | None, client: str | None, now: float) -> bool:
        if not self.active(now):
            return False
        if self.agent != (session if self.agent_kind == "session" else client):
            return False
        path = root_relative(path)
        if path == self.scope or self.scope == "":
            return True
        # Only a folder scope covers what is below it: "a/b" must not cover "a/bc".
        return self.scope.endswith("/") and path.startswith(self.scope)


def line_span(text: str, start: int, end: int, index: LineIndex | None = None) -> tuple[int, int]:
    """1-based first and last line of ``text[start:end]``, for display.

    A range ending right after a line break ends on that line, not on the next one.
    """
    index = index or LineIndex(text)
    first = index.line_of(start)
    last = index.line_of(end - 1) if end > start else first
    return first, last


def new_suggestion(
    base: str,
    *,
    path: str,
    kind: str,
    start: int,
    end: int,
    new: str,
    author: str,
    user: str,
    session: str,
    operation: str,
    rationale: str = "",
    group: str | None = None,
    now: float | None = None,
    index: LineIndex | None = None,
) -> Suggestion:
    """A pending suggestion against ``base``; original, revision and lines come from it."""
    if not 0 <= start <= end <= len(base):
        raise ArgumentError(f"range {start}..{end} is outside the document (0..{len(base)})", "range")
    line_start, line_end = line_span(base, start, end, index)
    return Suggestion(
        path=root_relative(path),
        kind=kind,
        start=start,
        end=end,
        original=base[start:end],
        new=new,
        base_revision=revision_of(base),
        author=author,
        user=user,
        session=session,
        rationale=rationale,
        operation=operation,
        group=group,
        created=time.time() if now is None else now,
        line_start=line_start,
        line_end=line_end,
    )
