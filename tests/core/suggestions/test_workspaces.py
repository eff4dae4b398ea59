"""A store belongs to one workspace; records from before are claimed where known, else quarantined."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.suggestions import Checkpoint, Grant, SuggestionStore, new_suggestion
from jupyter_mcp_lab.core.suggestions.schema import MIGRATIONS, columns, migrate, values

V1 = "# Notes\n\nalpha\n"
V2 = "# Notes\n\nALPHA\n"
V3 = "# Notes\n\nALPHA beta\n"


def suggestion(base: str, path: str = "notes.md", **changes: object):  # type: ignore[no-untyped-def]
    s = new_suggestion(
        base, path=path, kind="insert", start=0, end=0, new="X", author="agent", user="u", session="s",
        operation="document.edit",
    )  # fmt: skip
    return dataclasses.replace(s, **changes)  # type: ignore[arg-type]


def checkpoint(before: str, after: str, path: str = "notes.md", **changes: object) -> Checkpoint:
    return Checkpoint(
        path=path, before_revision=revision_of(before), after_revision=revision_of(after), start=0, old="a",
        new="b", author="agent", user="u", session="s", source="auto", **changes,  # type: ignore[arg-type]
    )  # fmt: skip


def grant() -> Grant:
    return Grant(scope="notes.md", agent="agent", agent_kind="client", expires=4e9, created_by="u")


def workspace(tmp_path: Path, name: str, text: str | None) -> Path:
    root = tmp_path / name
    root.mkdir()
    if text is not None:
        (root / "notes.md").write_text(text)
    return root


def test_two_roots_on_one_file_never_see_or_touch_each_others_records(tmp_path: Path) -> None:
    file = tmp_path / "suggestions.sqlite3"
    a_root, b_root = workspace(tmp_path, "a", V1), workspace(tmp_path, "b", V1)
    with SuggestionStore(file, root=a_root) as a, SuggestionStore(file, root=b_root) as b:
        s, cp, g = suggestion(V1), checkpoint(V1, V2), grant()
        a.add(s, texts={s.base_revision: V1})
        a.add_grant(g)
        a.add_checkpoint(cp)
        assert (b.list(), b.counts(), b.list_checkpoints(), b.list_grants()) == ([], {}, [], [])
        assert b.get(s.id) is None and b.get_checkpoint(cp.id) is None
        assert b.decide(s.id, "accepted", decided_by="intruder") is None
        assert b.revoke_grant(g.id) is None and not b.mark_reverted(cp.id, None, expected_none=False)
        assert b.find_grant("notes.md", None, "agent", now=1e9) is None
        assert a.get(s.id) == s and a.list_grants() == [g] and a.list_checkpoints() == [cp]
        # The same folder by another spelling is the same workspace.
        with SuggestionStore(file, root=tmp_path / "b" / ".." / "a") as again:
            assert again.list() == [s]


def legacy_file(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A data directory's store from before roots were kept (version 2), with records of
    project A's notes.md (now at V3), made through V1 → V2 → V3, and one of somewhere else."""
    file = tmp_path / "suggestions.sqlite3"
    raw = sqlite3.connect(file, isolation_level=None)
    assert migrate(raw, MIGRATIONS[:2]) == 2
    records: dict[str, object] = {
        "first": checkpoint(V1, V2),
        "second": checkpoint(V2, V3),
        "accepted": suggestion(V2, status="accepted", result_revision=revision_of(V3)),
        "pending": suggestion(V3),
        "elsewhere": suggestion("# Notes\n\nsomewhere else\n"),
        "stale": suggestion("an older text of A's notes, unconnected\n"),
        "empty": suggestion(""),
        "grant": grant(),
    }
    for r in records.values():
        table = {Checkpoint: "checkpoints", Grant: "grants"}.get(type(r), "suggestions")  # type: ignore[arg-type]
        # The columns version 2 had (later versions add some: those records leave them out).
        known = {row[1] for row in raw.execute(f"PRAGMA table_info({table})")}
        names = [n for n in columns(type(r)) if n in known]  # type: ignore[arg-type]
        row = [v for n, v in zip(columns(type(r)), values(r), strict=True) if n in known]  # type: ignore[arg-type]
        quoted = ", ".join(f'"{n}"' for n in names)
        raw.execute(f"INSERT INTO {table} ({quoted}) VALUES ({', '.join('?' * len(names))})", row)
    raw.close()
    return file, records


def test_records_from_before_are_claimed_by_the_root_their_revisions_prove(tmp_path: Path) -> None:
    file, r = legacy_file(tmp_path)
    b_root = workspace(tmp_path, "b", "# Notes\n\nB's own text\n")
    with SuggestionStore(file, root=b_root) as b:  # opened first: nothing proves any of them B's
        assert b.claimed is not None and b.claimed.suggestions == b.claimed.checkpoints == []
        assert (b.list(), b.list_checkpoints(), b.list_grants()) == ([], [], [])
        assert b.quarantined() == {"suggestions": 5, "checkpoints": 2, "grants": 1}
    a_root = workspace(tmp_path, "a", V3)
    with SuggestionStore(file, root=a_root) as a:
        ids = {r[k].id for k in ("first", "second", "accepted", "pending")}  # type: ignore[attr-defined]
        assert {s.id for s in a.list()} | {c.id for c in a.list_checkpoints()} == ids
        # Not proven: another text, an unconnected older one, an empty file's; grants name no text.
        assert a.quarantined() == {"suggestions": 3, "checkpoints": 0, "grants": 1}
    with SuggestionStore(file, root=a_root) as again:  # claimed once, kept
        assert again.claimed is not None and again.claimed.suggestions == []
        assert len(again.list()) == 2 and len(again.list_checkpoints()) == 2
    with SuggestionStore(file, root=b_root) as b:
        assert b.list() == [] and b.get(r["pending"].id) is None  # type: ignore[attr-defined]


def test_an_empty_file_proves_nothing(tmp_path: Path) -> None:
    file, _ = legacy_file(tmp_path)
    with SuggestionStore(file, root=workspace(tmp_path, "new", "")) as store:
        assert store.list() == [] and store.list_checkpoints() == []
