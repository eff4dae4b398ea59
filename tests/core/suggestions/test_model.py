"""Suggestion, checkpoint and grant records: ids, JSON shape, validation, grant scopes."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.suggestions import Checkpoint, Grant, Suggestion, line_span, new_id, new_suggestion

BASE = "# Title\r\n\r\nfirst 中文 😀 line\r\nsecond line\r\n"


def suggestion(**changes: object) -> Suggestion:
    fields: dict[str, object] = {
        "base": BASE,
        "path": "/notes/a.md",
        "kind": "replace",
        "start": BASE.index("中文"),
        "end": BASE.index("second") + 6,
        "new": "new",
        "author": "claude",
        "user": "alice",
        "session": "s-1",
        "operation": "document.edit",
        "now": 1000.0,
    }
    return new_suggestion(**{**fields, **changes})  # type: ignore[arg-type]


def test_new_suggestion_takes_original_revision_and_lines_from_the_base() -> None:
    s = suggestion()
    assert s.path == "notes/a.md"  # API paths are relative
    assert s.original == "中文 😀 line\r\nsecond" == BASE[s.start : s.end]
    assert s.base_revision == revision_of(BASE)
    assert (s.line_start, s.line_end) == (3, 4)
    assert (s.status, s.decided, s.group, s.created) == ("pending", None, None, 1000.0)
    assert re.fullmatch(r"sug-[0-9a-f]{12}", s.id)


def test_ids_are_unique_and_prefixed() -> None:
    assert len({new_id("sug") for _ in range(1000)}) == 1000
    assert re.fullmatch(r"cp-[0-9a-f]{12}", Checkpoint(**CHECKPOINT).id)
    assert re.fullmatch(r"grant-[0-9a-f]{12}", grant("").id)


@pytest.mark.parametrize(
    ("text", "start", "end", "lines"),
    [
        ("a\nb\nc", 0, 1, (1, 1)),
        ("a\nb\nc", 0, 2, (1, 1)),  # ends after the break: still line 1
        ("a\nb\nc", 0, 3, (1, 2)),
        ("a\r\nb", 0, 3, (1, 1)),
        ("a\r\nb", 3, 3, (2, 2)),  # an insertion point
        ("a\rb\nc", 4, 5, (3, 3)),  # a lone CR breaks a line too
        ("", 0, 0, (1, 1)),
    ],
)
def test_line_span(text: str, start: int, end: int, lines: tuple[int, int]) -> None:
    assert line_span(text, start, end) == lines


def test_to_json_is_camel_case_and_complete() -> None:
    s = dataclasses.replace(suggestion(group="g-1"), status="accepted", decided_by="bob", result_revision="rev-x")
    data = s.to_json()
    assert set(data) == {
        "id", "path", "kind", "start", "end", "original", "new", "baseRevision", "author", "user", "session",
        "rationale", "operation", "group", "created", "status", "decided", "decidedBy", "resultRevision", "reason",
        "lineStart", "lineEnd", "part", "change",
    }  # fmt: skip
    assert (data["decidedBy"], data["resultRevision"], data["group"]) == ("bob", "rev-x", "g-1")
    assert (data["part"], data["change"]) == (None, None)  # a change to the whole text
    assert set(Checkpoint(**CHECKPOINT).to_json()) >= {"beforeRevision", "afterRevision", "suggestionId", "revertedBy"}
    assert grant("a/").to_json()["agentKind"] == "session"


def test_records_are_immutable_and_replace_makes_a_new_one() -> None:
    s = suggestion()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.status = "accepted"  # type: ignore[misc]
    decided = dataclasses.replace(s, status="rejected", decided=5.0)
    assert (s.status, decided.status, decided.id) == ("pending", "rejected", s.id)


@pytest.mark.parametrize(
    "changes",
    [{"status": "approved"}, {"start": 5, "end": 4}, {"start": -1}],
)
def test_invalid_suggestions_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(DomainError):
        dataclasses.replace(suggestion(), **changes)  # type: ignore[arg-type]


def test_new_suggestion_refuses_a_range_outside_the_base() -> None:
    with pytest.raises(ArgumentError):
        suggestion(start=0, end=len(BASE) + 1)


CHECKPOINT: dict[str, Any] = {
    "path": "a.md",
    "before_revision": "rev-1",
    "after_revision": "rev-2",
    "start": 0,
    "old": "a",
    "new": "b",
    "author": "claude",
    "user": "alice",
    "session": "s-1",
    "source": "accepted",
}


def test_a_checkpoint_refuses_an_unknown_source() -> None:
    with pytest.raises(ArgumentError):
        Checkpoint(**{**CHECKPOINT, "source": "magic"})


# --------------------------------------------------------------------------- grants


def grant(scope: str, **changes: object) -> Grant:
    fields: dict[str, object] = {
        "scope": scope,
        "agent": "s-1",
        "agent_kind": "session",
        "created": 0.0,
        "expires": 100.0,
        "created_by": "alice",
    }
    return Grant(**{**fields, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("scope", "normalized"), [("/", ""), ("", ""), ("/docs/", "docs/"), ("docs/a.md", "docs/a.md")]
)
def test_grant_scopes_are_api_paths(scope: str, normalized: str) -> None:
    assert grant(scope).scope == normalized


@pytest.mark.parametrize(
    ("scope", "path", "covered"),
    [
        ("", "anything/at/all.md", True),
        ("docs/", "docs/a.md", True),
        ("docs/", "docs/deep/b.md", True),
        ("/docs/", "/docs/a.md", True),
        ("docs/", "docsx/a.md", False),
        ("docs/", "a.md", False),
        ("docs/a.md", "docs/a.md", True),
        ("docs/a.md", "docs/a.md.bak", False),  # a file scope is not a prefix
        ("docs", "docs/a.md", False),  # nor is a path without the folder's "/"
    ],
)
def test_grant_covers_its_scope(scope: str, path: str, covered: bool) -> None:
    assert grant(scope).covers(path, "s-1", "claude", now=50.0) is covered


def test_grant_covers_only_its_agent_while_active() -> None:
    by_session = grant("docs/")
    assert by_session.covers("docs/a.md", "s-1", None, 50.0)
    assert not by_session.covers("docs/a.md", "s-2", "s-1", 50.0)  # a client named like the session
    assert not by_session.covers("docs/a.md", None, None, 50.0)
    assert not by_session.covers("docs/a.md", "s-1", None, 100.0)  # expired
    assert not dataclasses.replace(by_session, revoked=10.0).covers("docs/a.md", "s-1", None, 50.0)
    by_client = grant("docs/", agent="claude", agent_kind="client")
    assert by_client.covers("docs/a.md", "any-session", "claude", 50.0)
    assert not by_client.covers("docs/a.md", "claude", "other", 50.0)


def test_invalid_grants_are_refused() -> None:
    with pytest.raises(ArgumentError):
        grant("", agent_kind="user")
    with pytest.raises(ArgumentError):
        grant("", agent="")
