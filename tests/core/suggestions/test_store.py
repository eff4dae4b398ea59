"""The SQLite suggestion store: round trips, document order, compare-and-set decisions,
all-or-nothing batches, text pruning, grants, persistence, migrations and threads."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.suggestions import Checkpoint, Grant, Suggestion, SuggestionStore, new_suggestion
from jupyter_mcp_lab.core.suggestions.schema import MIGRATIONS, columns, migrate, values

BASE = "alpha beta 中文 😀 gamma\r\ndelta\n"


def sug(path: str = "a.md", start: int = 0, end: int = 5, *, now: float = 1.0, **changes: object) -> Suggestion:
    s = new_suggestion(
        BASE,
        path=path,
        kind="replace",
        start=start,
        end=end,
        new="NEW 😀",
        author="claude",
        user="alice",
        session="s-1",
        operation="document.edit",
        rationale="because",
        now=now,
    )
    return dataclasses.replace(s, **changes)  # type: ignore[arg-type]


def checkpoint(path: str = "a.md", *, created: float = 1.0, **changes: object) -> Checkpoint:
    fields: dict[str, object] = {
        "path": path,
        "before_revision": "rev-before",
        "after_revision": "rev-after",
        "start": 3,
        "old": "x",
        "new": "y",
        "author": "claude",
        "user": "alice",
        "session": "s-1",
        "source": "auto",
        "created": created,
    }
    return Checkpoint(**{**fields, **changes})  # type: ignore[arg-type]


def grant(scope: str = "docs/", **changes: object) -> Grant:
    fields: dict[str, object] = {
        "scope": scope,
        "agent": "s-1",
        "agent_kind": "session",
        "created": 1.0,
        "expires": 100.0,
        "created_by": "alice",
    }
    return Grant(**{**fields, **changes})  # type: ignore[arg-type]


@pytest.fixture
def store() -> Iterator[SuggestionStore]:
    with SuggestionStore(None) as s:
        yield s


def test_a_suggestion_round_trips(store: SuggestionStore) -> None:
    s = sug(start=11, end=16, group="g-1", reason=None)
    store.add(s, texts={s.base_revision: BASE})
    assert store.get(s.id) == s
    assert store.get("sug-missing") is None
    assert store.get_text(s.base_revision) == BASE


def test_list_is_in_document_order_and_filters(store: SuggestionStore) -> None:
    late_first = sug("b.md", 0, 1, now=9.0)
    early_first = sug("b.md", 0, 1, now=2.0)
    second = sug("b.md", 6, 10, now=1.0, session="s-2", group="g")
    other_file = sug("a.md", 20, 21, now=5.0, status="conflict")
    store.add_many([second, late_first, other_file, early_first])
    assert store.list() == [other_file, early_first, late_first, second]
    assert store.list(path="b.md", limit=2) == [early_first, late_first]
    assert store.list(status="conflict") == [other_file]
    assert store.list(status=["pending", "conflict"]) == [other_file, early_first, late_first, second]
    assert store.list(session="s-2") == store.list(group="g") == [second]
    assert store.list(path="b.md", status="accepted") == []
    assert store.counts() == {"a.md": {"conflict": 1}, "b.md": {"pending": 3}}
    with pytest.raises(DomainError):
        store.list(status="approved")


def test_decide_is_compare_and_set(store: SuggestionStore) -> None:
    s = sug()
    store.add(s)
    won = store.decide(s.id, "accepted", decided_by="bob", result_revision="rev-new", now=7.0)
    assert won == dataclasses.replace(s, status="accepted", decided=7.0, decided_by="bob", result_revision="rev-new")
    assert store.decide(s.id, "rejected", decided_by="carol", now=8.0) is None  # lost: no longer pending
    assert store.get(s.id) == won
    assert store.decide("sug-missing", "rejected", decided_by="carol") is None
    # A conflict can still be rejected, when the caller expects it.
    c = sug(status="conflict")
    store.add(c)
    assert store.decide(c.id, "rejected", decided_by="bob", now=9.0) is None
    rejected = store.decide(c.id, "rejected", expected=("pending", "conflict"), decided_by="bob", reason="gone")
    assert rejected is not None and (rejected.status, rejected.reason) == ("rejected", "gone")


@pytest.mark.parametrize(("status", "expected"), [("approved", "pending"), ("accepted", "done"), ("", "pending")])
def test_a_bad_status_changes_nothing(store: SuggestionStore, status: str, expected: str) -> None:
    s = sug()
    store.add(s)
    with pytest.raises(DomainError):
        store.decide(s.id, status, expected=expected, decided_by="bob")
    with pytest.raises(DomainError):
        store.decide_many([(s.id, "accepted", None, None), (s.id, status, None, None)], expected, decided_by="bob")
    assert store.get(s.id) == s
    # The schema refuses one too, as a last line of defence.
    with pytest.raises(sqlite3.IntegrityError), store.transaction() as conn:
        conn.execute("UPDATE suggestions SET status = 'approved'")
    assert store.get(s.id) == s


def test_decide_many_is_all_or_nothing(store: SuggestionStore) -> None:
    a, b, c = sug(start=0, end=1), sug(start=2, end=3), sug(start=4, end=5)
    store.add_many([a, b, c])
    store.decide(b.id, "rejected", decided_by="carol")
    with pytest.raises(DomainError) as failed:
        store.decide_many([(a.id, "accepted", "rev-1", None), (b.id, "accepted", "rev-1", None)], decided_by="bob")
    assert failed.value.code == "CONFLICT" and failed.value.details == {"id": b.id}
    assert store.get(a.id) == a  # rolled back
    done = store.decide_many(
        [(c.id, "conflict", None, "moved"), (a.id, "accepted", "rev-2", None)], decided_by="bob", now=3.0
    )
    assert [(d.id, d.status, d.result_revision, d.reason, d.decided) for d in done] == [
        (c.id, "conflict", None, "moved", 3.0),
        (a.id, "accepted", "rev-2", None, 3.0),
    ]
    assert store.decide_many([], decided_by="bob") == []


def test_texts_are_stored_once_per_revision(store: SuggestionStore) -> None:
    store.put_text("rev-1", "one")
    store.put_text("rev-1", "something else")  # content-addressed: the first text stays
    assert store.get_text("rev-1") == "one"
    assert store.get_text("rev-2") is None


def test_prune_keeps_the_texts_open_suggestions_need(store: SuggestionStore) -> None:
    # Checkpoints keep their diffs, not texts: only open suggestions (mapped through later
    # edits from their base) need one.
    texts = {f"rev-{n}": f"text {n}" for n in range(8)}
    for revision, text in texts.items():
        store.put_text(revision, text)
    store.add_many(
        [
            sug(base_revision="rev-0"),
            sug(base_revision="rev-1", status="conflict"),
            sug(base_revision="rev-2", status="accepted"),
            sug(base_revision="rev-3", status="rejected"),
        ]
    )
    store.add_checkpoint(checkpoint(created=1.0, before_revision="rev-4", after_revision="rev-5"))
    assert store.prune_texts() == 6
    assert {r for r in texts if store.get_text(r) is not None} == {"rev-0", "rev-1"}
    assert store.prune_texts() == 0


def test_checkpoints(store: SuggestionStore) -> None:
    s = sug()
    g = grant()
    store.add(s)
    store.add_grant(g)
    first = checkpoint(created=1.0, source="accepted", suggestion_id=s.id, label="Accept")
    second = checkpoint("b.md", created=2.0, source="grant", grant_id=g.id)
    third = checkpoint(created=3.0)
    for cp in (first, second, third):
        store.add_checkpoint(cp, texts={"rev-before": "x", "rev-after": "y"})
    assert store.get_checkpoint(first.id) == first and store.get_checkpoint("cp-missing") is None
    assert store.list_checkpoints() == [third, second, first]
    assert store.list_checkpoints(path="a.md", limit=1) == [third]
    assert store.get_text("rev-after") == "y"
    undo = checkpoint(created=4.0, source="revert")
    store.add_checkpoint(undo)
    assert store.mark_reverted(first.id, undo.id)
    assert not store.mark_reverted(first.id, undo.id)  # once
    assert not store.mark_reverted("cp-missing", undo.id)
    assert store.mark_reverted(first.id, None, expected_none=False)  # e.g. the revert was reverted
    assert store.get_checkpoint(first.id) == first
    with pytest.raises(sqlite3.IntegrityError):  # references must exist
        store.add_checkpoint(checkpoint(suggestion_id="sug-missing"))


def test_grants(store: SuggestionStore) -> None:
    older = grant("docs/", created=1.0)
    newer = grant("", created=2.0, agent="claude", agent_kind="client")
    expired = grant("", created=0.5, expires=10.0)
    for g in (older, newer, expired):
        store.add_grant(g)
    assert store.list_grants() == [expired, older, newer]
    assert store.list_grants(active_at=50.0) == [older, newer]
    assert store.find_grant("docs/a.md", "s-1", "claude", now=50.0) == older  # the first covering one
    assert store.find_grant("/other.md", "s-1", "claude", now=50.0) == newer
    assert store.find_grant("other.md", "s-1", "codex", now=50.0) is None
    assert store.find_grant("docs/a.md", "s-1", None, now=5.0) == expired
    revoked = store.revoke_grant(older.id, now=60.0)
    assert revoked == dataclasses.replace(older, revoked=60.0)
    assert store.revoke_grant(older.id, now=61.0) is None and store.revoke_grant("grant-missing") is None
    assert store.find_grant("docs/a.md", "s-1", None, now=70.0) is None
    assert store.list_grants(active_at=70.0) == [newer]


def test_an_error_inside_a_transaction_rolls_back_everything(store: SuggestionStore) -> None:
    a, b = sug(), sug()
    with pytest.raises(RuntimeError), store.transaction():
        store.add(a)
        store.put_text("rev-x", "x")
        raise RuntimeError("boom")
    assert store.get(a.id) is None and store.get_text("rev-x") is None
    with pytest.raises(sqlite3.IntegrityError):  # a duplicate id fails the whole batch
        store.add_many([b, a, b])
    assert store.list() == []


def test_everything_persists_across_reopening(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "suggestions.db"
    s, g = sug(group="g"), grant()
    cp = checkpoint(suggestion_id=s.id, grant_id=g.id)
    with SuggestionStore(path) as first:
        first.add(s, texts={s.base_revision: BASE})
        first.add_grant(g)
        first.add_checkpoint(cp)
        decided = first.decide(s.id, "accepted", decided_by="bob", result_revision="rev-2", now=2.0)
    with SuggestionStore(str(path)) as second:
        assert second.version == len(MIGRATIONS)
        assert second.list() == [decided]
        assert second.get_text(revision_of(BASE)) == BASE
        assert second.list_grants() == [g]
        assert second.list_checkpoints() == [cp]
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_later_migration_adds_a_column_and_old_code_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    s = sug()
    with SuggestionStore(path) as store:
        store.add(s)
    later = [*MIGRATIONS, ["ALTER TABLE suggestions ADD COLUMN tags TEXT NOT NULL DEFAULT ''"]]
    raw = sqlite3.connect(path, isolation_level=None)
    assert migrate(raw, later) == len(later)
    assert migrate(raw, later) == len(later)  # nothing left to run
    raw.close()
    with SuggestionStore(path) as store:  # this code knows one migration fewer than the file has
        assert store.version == len(later) and store.get(s.id) == s
        other = sug()
        store.add(other)
        assert {x.id for x in store.list()} == {s.id, other.id}


def test_a_first_version_store_opens_and_its_checkpoints_get_an_empty_rationale(tmp_path: Path) -> None:
    # A data_dir written by the first release: user_version 1, checkpoints without rationale.
    path = tmp_path / "s.db"
    raw = sqlite3.connect(path, isolation_level=None)
    assert migrate(raw, MIGRATIONS[:1]) == 1
    cp = Checkpoint(
        path="a.md", before_revision=revision_of("a"), after_revision=revision_of("b"), start=0, old="a", new="b",
        author="agent", user="u", session="s", source="auto",
    )  # fmt: skip
    later = ("rationale", "cells")  # columns of later versions
    old_columns = [c for c in columns(Checkpoint) if c not in later]
    quoted = ", ".join('"' + c + '"' for c in old_columns)
    raw.execute(
        f"INSERT INTO checkpoints ({quoted}) VALUES ({', '.join('?' for _ in old_columns)})",
        [v for c, v in zip(columns(Checkpoint), values(cp), strict=True) if c not in later],
    )
    raw.close()
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.md").write_text("b")  # the checkpoint's text: it was made in this workspace
    with SuggestionStore(path, root=root) as store:
        assert store.version == len(MIGRATIONS)
        assert store.list_checkpoints() == [cp]  # rationale "" by the column's default, cells NULL
        why = dataclasses.replace(cp, id="cp-new", rationale="fix the typo")
        store.add_checkpoint(why)
        assert store.get_checkpoint("cp-new") == why


def test_a_failed_migration_changes_nothing(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
    broken = [[*MIGRATIONS[0], "CREATE TABLE texts (x)"]]  # the last statement fails
    with pytest.raises(sqlite3.OperationalError):
        migrate(raw, broken)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 0
    assert raw.execute("SELECT name FROM sqlite_master").fetchall() == []
    assert migrate(raw) == len(MIGRATIONS)


@pytest.mark.parametrize("connections", [1, 2])
def test_threads_deciding_at_once_each_win_only_what_they_changed(tmp_path: Path, connections: int) -> None:
    # One store shared by 8 threads, or two stores (two connections) on one file, as two
    # processes would be: either way every suggestion gets exactly one decision.
    stores = [SuggestionStore(tmp_path / "s.db") for _ in range(connections)]
    suggestions = [sug(start=n % 20, end=n % 20 + 1) for n in range(50)]
    stores[0].add_many(suggestions)
    ids = [s.id for s in suggestions]
    barrier = threading.Barrier(8)
    wins: dict[int, list[str]] = {t: [] for t in range(8)}
    losses: dict[int, list[str]] = {t: [] for t in range(8)}
    failures: list[BaseException] = []

    def decide(t: int) -> None:
        try:
            store, order = stores[t % connections], random.Random(t).sample(ids, len(ids))
            barrier.wait()
            for id in order:
                status = "accepted" if t % 2 else "rejected"
                won = store.decide(id, status, decided_by=f"t{t}", result_revision=f"rev-{t}")
                if won is None:
                    losses[t].append(id)
                else:
                    assert (won.status, won.decided_by, won.result_revision) == (status, f"t{t}", f"rev-{t}")
                    wins[t].append(id)
        except BaseException as e:  # pragma: no cover - reported below
            failures.append(e)

    threads = [threading.Thread(target=decide, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    winners = {id: t for t, won in wins.items() for id in won}
    assert sorted(id for won in wins.values() for id in won) == sorted(ids)  # each once
    assert all(len(wins[t]) + len(losses[t]) == len(ids) for t in range(8))
    for id, t in winners.items():
        final = stores[-1].get(id)
        assert final is not None and (final.decided_by, final.result_revision) == (f"t{t}", f"rev-{t}")
    for store in stores:
        store.close()
