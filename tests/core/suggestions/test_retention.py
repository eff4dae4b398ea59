"""Retention: a workspace keeps checkpoints by count, age and size; the file shrinks back."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path

from jupyter_mcp_lab.core.history import change_between
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.suggestions import Checkpoint, Grant, Retention, SuggestionStore, new_suggestion
from jupyter_mcp_lab.core.suggestions.retention import DAY
from jupyter_mcp_lab.core.suggestions.schema import MIGRATIONS, columns, migrate, values

NOW = 1_000 * DAY


def cp(n: int, *, size: int = 10, root_created: float | None = None, **changes: object) -> Checkpoint:
    return Checkpoint(
        id=f"cp-{n:03d}", path="a.md", before_revision=f"r{n}", after_revision=f"r{n + 1}", start=0,
        old=f"{n}", new=os.urandom(size // 2).hex(), author="agent", user="u", session="s", source="auto",
        created=NOW - 100 + n if root_created is None else root_created, **changes,  # type: ignore[arg-type]
    )  # fmt: skip


def ids(store: SuggestionStore) -> list[str]:
    return [c.id for c in store.list_checkpoints(limit=1_000)][::-1]


def test_count_age_and_size_each_prune_the_oldest(tmp_path: Path) -> None:
    with SuggestionStore(tmp_path / "s.sqlite3", root=tmp_path) as store:
        for n in range(10):
            store.add_checkpoint(cp(n))
        assert store.prune(NOW, Retention(max_count=6, max_age_days=0, max_bytes=0)).checkpoints == 4
        assert ids(store) == [f"cp-{n:03d}" for n in range(4, 10)]
        store.add_checkpoint(cp(99, root_created=NOW - 40 * DAY))  # old, though added last
        assert store.prune(NOW, Retention(max_count=0, max_age_days=30, max_bytes=0)).checkpoints == 1
        assert len(ids(store)) == 6
        half = int(store.usage()["checkpointBytes"] or 0) // 2
        assert store.prune(NOW, Retention(max_count=0, max_age_days=0, max_bytes=half)).checkpoints >= 3
        assert 0 < int(store.usage()["checkpointBytes"] or 0) <= half
        assert ids(store)[-1] == "cp-009"  # newest kept


def test_a_reverted_checkpoint_and_its_revert_go_together(tmp_path: Path) -> None:
    with SuggestionStore(None, root=tmp_path) as store:
        for n in range(3):
            store.add_checkpoint(cp(n))
        store.mark_reverted("cp-000", "cp-001")
        # Pruning only the older one would leave a revert pointing nowhere: both go.
        assert store.prune(NOW, Retention(max_count=2, max_age_days=0, max_bytes=0)).checkpoints == 1
        assert ids(store) == ["cp-001", "cp-002"]
        store.mark_reverted("cp-001", "cp-002")
        assert store.prune(NOW, Retention(max_count=1, max_age_days=0, max_bytes=0)).checkpoints == 1
        assert ids(store) == ["cp-002"]


def test_suggestions_grants_and_texts_follow_and_other_workspaces_are_untouched(tmp_path: Path) -> None:
    file = tmp_path / "s.sqlite3"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with SuggestionStore(file, root=tmp_path / "a") as a, SuggestionStore(file, root=tmp_path / "b") as b:

        def sug(base: str, **changes: object):  # type: ignore[no-untyped-def]
            s = new_suggestion(base, path="a.md", kind="insert", start=0, end=0, new="x", author="agent",
                               user="u", session="s", operation="edit", now=NOW - 50 * DAY)  # fmt: skip
            return dataclasses.replace(s, **changes)  # type: ignore[arg-type]

        pending, accepted, named = sug("p"), sug("q", status="accepted", decided=NOW - 40 * DAY), sug("r")
        named = dataclasses.replace(named, status="accepted", decided=NOW - 40 * DAY)
        a.add_many([pending, accepted, named], texts={revision_of(t): t for t in "pqr"})
        a.add_checkpoint(cp(1, suggestion_id=named.id))
        ended = Grant(scope="", agent="x", agent_kind="client", created=NOW - 40 * DAY, expires=NOW - 39 * DAY,
                      created_by="u")  # fmt: skip
        a.add_grant(ended)
        b.add(sug("p"), texts={revision_of("p"): "p"})
        b.add_checkpoint(cp(2, root_created=NOW - 400 * DAY))
        pruned = a.prune(NOW, Retention(max_age_days=30))
        assert (pruned.suggestions, pruned.grants) == (1, 1)
        assert {s.id for s in a.list()} == {pending.id, named.id}  # pending stays; a checkpoint names `named`
        assert a.list_grants() == []
        assert {r for r in ("p", "q", "r") if a.get_text(revision_of(r))} == {"p"}  # only open ones' bases
        assert len(b.list()) == 1 and ids(b) == ["cp-002"]  # b's own policy decides about b's


def test_pruned_space_goes_back_to_the_filesystem(tmp_path: Path) -> None:
    file = tmp_path / "s.sqlite3"
    with SuggestionStore(file, root=tmp_path) as store:
        for n in range(40):
            store.add_checkpoint(cp(n, size=400_000))
        big = file.stat().st_size
        assert big > 7_000_000
        pruned = store.prune(NOW, Retention(max_count=2))
        assert pruned.checkpoints == 38 and pruned.vacuumed
        assert file.stat().st_size < 2_000_000


def test_a_file_from_before_keeps_its_checkpoints_as_diffs_and_shrinks(tmp_path: Path) -> None:
    # Version 2: whole old/new regions and the text after each change, no incremental vacuum.
    file = tmp_path / "s.sqlite3"
    raw = sqlite3.connect(file, isolation_level=None)
    assert migrate(raw, MIGRATIONS[:2]) == 2
    before = "".join(f"line {n}\n" for n in range(50_000))
    after = "TOP\n" + before + "BOTTOM\n"  # one region from the first to the last change: all of it
    region = change_between(before, after)
    old = Checkpoint(path="a.md", before_revision=revision_of(before), after_revision=revision_of(after),
                     start=region.start, old=region.old, new=region.new, author="agent", user="u", session="s",
                     source="auto")  # fmt: skip
    later = ("rationale", "cells")  # columns of later versions
    names = [c for c in columns(Checkpoint) if c not in later]
    raw.execute(
        f"INSERT INTO checkpoints ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [v for c, v in zip(columns(Checkpoint), values(old), strict=True) if c not in later],
    )
    raw.execute("INSERT INTO texts (revision, text) VALUES (?, ?)", (old.after_revision, after))
    raw.close()
    grown = file.stat().st_size
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.md").write_text(after)  # its workspace claims it
    with SuggestionStore(file, root=root, retention=Retention()) as store:
        [kept] = store.list_checkpoints()
        assert [(h.old, h.new) for h in kept.hunks] == [("", "TOP\n"), ("", "BOTTOM\n")]  # two small hunks
        assert (kept.start, kept.old, kept.new) == (0, "\n…\n", "TOP\n\n…\nBOTTOM\n")
        assert store.usage()["checkpointBytes"] < 1_000
        assert store.get_text(old.after_revision) is None
    assert file.stat().st_size < grown / 5
