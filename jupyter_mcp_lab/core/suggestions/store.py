"""Persistent suggestions, checkpoints, grants and the texts they refer to (SQLite).

A store belongs to one workspace: the canonical root it was opened with. Every record it
writes carries that root and every read, decision and revocation is limited to it, so
servers on different roots sharing one data directory never see or act on each other's
records, and a lab and a standalone server on the same root share theirs. Records from
before roots were kept are claimed by the workspace whose files prove they were made
there (``legacy``); the rest stay quarantined.

Decisions are compare-and-set (``UPDATE ... WHERE status IN expected``): when two people
decide at once, exactly one wins, whichever thread or process they come from. Texts are
stored once per revision (content-addressed) and shared by every record that names it.
"""

from __future__ import annotations

import builtins
import os
import sqlite3
import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Literal

from ..db import Database, store_file
from ..errors import DomainError
from .legacy import Claimed, claim, quarantined
from .model import Suggestion, check_status
from .records import CheckpointsAndGrants
from .retention import Pruned, Retention, prune, usage
from .schema import ROOT, STORE, from_row, insert_sql, layer_migrations, values

PathLike = str | os.PathLike[str]
Decision = tuple[str, str, str | None, str | None]  # id, status, result_revision, reason


def _statuses(status: str | Sequence[str], argument: str) -> list[str]:
    wanted = [status] if isinstance(status, str) else list(status)
    return [check_status(s, argument) for s in wanted]


def _marks(items: Sequence[object]) -> str:
    return ", ".join("?" * len(items))


def canonical_root(root: PathLike) -> str:
    """The key of a workspace: its root folder's real path (symlinks and ``..`` resolved)."""
    return os.path.realpath(root)


class SuggestionStore(CheckpointsAndGrants):
    def __init__(
        self, path: PathLike | None = None, *, root: PathLike | None = None, retention: Retention | None = None
    ) -> None:
        """A store in the SQLite file ``path`` (made with its folders), or in memory (None),
        for the workspace rooted at ``root``. Without a root, the records of no workspace
        (tests, tools). A root's first opening claims its records from before roots were
        kept (``claimed``). With a ``retention`` policy the store prunes itself at opening
        and as checkpoints are added; without one only when asked (``prune``)."""
        self._db = Database(path, layer_migrations(), incremental_vacuum=True)
        # Diffs of whole-file writes are big: fold the write-ahead log back into the file
        # every megabyte and keep it no bigger (SQLite's defaults let it grow to 4 MB and stay).
        self._db.conn.execute("PRAGMA wal_autocheckpoint = 256")
        self._db.conn.execute(f"PRAGMA journal_size_limit = {2**20:d}")
        self._read = self._db.read
        self.version = self._db.version
        self.root = canonical_root(root) if root is not None else ""
        self.path = self._db.path
        self.retention = retention
        self.claimed: Claimed | None = claim(self._db, self.root) if root is not None else None
        self._added = (0, 0)  # checkpoints and their bytes since the last pruning
        self.pruned = self.prune() if retention is not None else None

    @classmethod
    def in_data_dir(
        cls, data_dir: PathLike, root: PathLike | None = None, retention: Retention | None = None
    ) -> SuggestionStore:
        """The store of a server's data directory (``suggestions.sqlite3``) for ``root``,
        kept by ``retention`` (by default ``Retention()``'s limits)."""
        return cls(store_file(data_dir, STORE), root=root, retention=retention or Retention())

    def quarantined(self) -> dict[str, int]:
        """Records from before roots were kept that no workspace has claimed, by kind."""
        return quarantined(self._db)

    def prune(self, now: float | None = None, retention: Retention | None = None) -> Pruned:
        """Apply the store's retention policy (or ``retention``) now (see ``retention``)."""
        self._added = (0, 0)
        return prune(self._db, self.root, retention or self.retention or Retention(), now)

    def usage(self) -> dict[str, float | int | None]:
        """Bytes on disk, and this workspace's checkpoints: how many, their bytes, the oldest."""
        return usage(self._db, self.root)

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """Group several writes (this store's methods join it as savepoints) into one atomic one."""
        return self._db.transaction()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SuggestionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ texts

    def put_text(self, revision: str, text: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO texts (revision, text) VALUES (?, ?)", (revision, text))

    def _put_texts(self, conn: sqlite3.Connection, texts: Mapping[str, str] | None) -> None:
        if texts:
            conn.executemany("INSERT OR IGNORE INTO texts (revision, text) VALUES (?, ?)", texts.items())

    def get_text(self, revision: str) -> str | None:
        rows = self._read("SELECT text FROM texts WHERE revision = ?", (revision,))
        return rows[0]["text"] if rows else None

    def prune_texts(self) -> int:
        """Delete texts no open suggestion is based on; returns how many went."""
        with self.transaction() as conn:
            return conn.execute(
                """DELETE FROM texts WHERE revision NOT IN (
                    SELECT base_revision FROM suggestions WHERE status IN ('pending', 'conflict'))"""
            ).rowcount

    # ------------------------------------------------------------------ suggestions

    def add(self, s: Suggestion, texts: Mapping[str, str] | None = None) -> None:
        self.add_many([s], texts)

    def add_many(self, suggestions: Sequence[Suggestion], texts: Mapping[str, str] | None = None) -> None:
        """Add suggestions (and the texts they are based on, in the same transaction)."""
        with self.transaction() as conn:
            self._put_texts(conn, texts)
            conn.executemany(insert_sql("suggestions", Suggestion, [ROOT]), [values(s, self.root) for s in suggestions])

    def get(self, id: str) -> Suggestion | None:
        rows = self._read(f"SELECT * FROM suggestions WHERE id = ? AND {ROOT} = ?", (id, self.root))
        return from_row(Suggestion, rows[0]) if rows else None

    def list(
        self,
        path: str | None = None,
        status: str | Sequence[str] | None = None,
        session: str | None = None,
        group: str | None = None,
        limit: int | None = None,
        order: Literal["document", "recent"] = "document",
    ) -> builtins.list[Suggestion]:
        """Matching suggestions in document order (by path, then position, then age), or
        ``recent``: the last decided (else created) first."""
        where: builtins.list[str] = [f"{ROOT} = ?"]
        args: builtins.list[object] = [self.root]
        for column, value in (("path", path), ("session", session), ("group", group)):
            if value is not None:
                where.append(f'"{column}" = ?')
                args.append(value)
        if status is not None:
            wanted = _statuses(status, "status")
            where.append(f"status IN ({_marks(wanted)})")
            args += wanted
        sql = "SELECT * FROM suggestions WHERE " + " AND ".join(where)
        if order == "recent":
            sql += ' ORDER BY COALESCE("decided", "created") DESC, rowid DESC'
        else:
            sql += ' ORDER BY "path", "start", "created", rowid'
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [from_row(Suggestion, r) for r in self._read(sql, args)]

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        rows = self._read(
            f"SELECT path, status, COUNT(*) AS n FROM suggestions WHERE {ROOT} = ? GROUP BY path, status", (self.root,)
        )
        for row in rows:
            out.setdefault(row["path"], {})[row["status"]] = row["n"]
        return out

    def decide(
        self,
        id: str,
        status: str,
        *,
        expected: str | Sequence[str] = "pending",
        decided_by: str,
        result_revision: str | None = None,
        reason: str | None = None,
        now: float | None = None,
    ) -> Suggestion | None:
        """Compare-and-set: the decided suggestion, or None if it was not in ``expected``."""
        check_status(status)
        wanted = _statuses(expected, "expected")
        with self.transaction() as conn:
            if not self._set(conn, id, status, wanted, decided_by, result_revision, reason, now):
                return None
            row = conn.execute(f"SELECT * FROM suggestions WHERE id = ? AND {ROOT} = ?", (id, self.root)).fetchone()
            return from_row(Suggestion, row)

    def decide_many(
        self,
        items: Sequence[Decision],
        expected: str | Sequence[str] = "pending",
        *,
        decided_by: str,
        now: float | None = None,
    ) -> builtins.list[Suggestion]:
        """Decide all or none: CONFLICT (and nothing changed) if any was not in ``expected``."""
        for _, status, _, _ in items:
            check_status(status)
        wanted = _statuses(expected, "expected")
        when = time.time() if now is None else now
        with self.transaction() as conn:
            for id, status, result_revision, reason in items:
                if not self._set(conn, id, status, wanted, decided_by, result_revision, reason, when):
                    raise DomainError(
                        "CONFLICT", f"suggestion {id} is no longer {' or '.join(wanted)}; nothing was decided", id=id
                    )
            ids = [item[0] for item in items]
            rows = conn.execute(
                f"SELECT * FROM suggestions WHERE id IN ({_marks(ids)}) AND {ROOT} = ?", [*ids, self.root]
            ).fetchall()
        by_id = {r["id"]: from_row(Suggestion, r) for r in rows}
        return [by_id[i] for i in ids]

    def _set(
        self,
        conn: sqlite3.Connection,
        id: str,
        status: str,
        expected: builtins.list[str],
        decided_by: str,
        result_revision: str | None,
        reason: str | None,
        now: float | None,
    ) -> bool:
        when = time.time() if now is None else now
        cur = conn.execute(
            f"""UPDATE suggestions SET status = ?, decided = ?, decided_by = ?, result_revision = ?, reason = ?
                WHERE id = ? AND {ROOT} = ? AND status IN ({_marks(expected)})""",
            (status, when, decided_by, result_revision, reason, id, self.root, *expected),
        )
        return cur.rowcount == 1
