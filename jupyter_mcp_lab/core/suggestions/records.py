"""The checkpoint and grant half of the suggestion store (``SuggestionStore`` mixes it in):
records of one workspace (``root``), a checkpoint's change stored as its compressed diff."""

from __future__ import annotations

import builtins
import dataclasses
import sqlite3
import time
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any

from . import patch
from .model import Checkpoint, Grant
from .retention import Pruned, Retention
from .schema import ROOT, from_row, insert_sql, values

# Retention runs at opening and after this many checkpoints or bytes of diffs.
PRUNE_EVERY = 20
PRUNE_EVERY_BYTES = 16 * 2**20


class CheckpointsAndGrants:
    root: str
    retention: Retention | None
    _added: tuple[int, int]  # checkpoints and their bytes since the last pruning
    _read: Any

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def _put_texts(self, conn: sqlite3.Connection, texts: Mapping[str, str] | None) -> None:
        raise NotImplementedError

    def prune(self, now: float | None = None, retention: Retention | None = None) -> Pruned:
        raise NotImplementedError

    # ------------------------------------------------------------------ checkpoints

    def add_checkpoint(self, cp: Checkpoint, texts: Mapping[str, str] | None = None) -> None:
        """Store ``cp`` with its hunks as its diff; prune now and then (``PRUNE_EVERY``)."""
        diff = patch.encode(cp.hunks)
        row = dataclasses.replace(cp, old="", new="")  # the diff holds them
        with self.transaction() as conn:
            self._put_texts(conn, texts)
            conn.execute(
                insert_sql("checkpoints", Checkpoint, [ROOT, "diff", "bytes"]), values(row, self.root, diff, len(diff))
            )
        count, size = self._added[0] + 1, self._added[1] + len(diff)
        self._added = (count, size)
        if self.retention is not None:
            # A small size limit is checked more often, so the store stays near it.
            every = min(PRUNE_EVERY_BYTES, self.retention.max_bytes // 8 or PRUNE_EVERY_BYTES)
            if count >= PRUNE_EVERY or size >= every:
                self.prune()

    def get_checkpoint(self, id: str) -> Checkpoint | None:
        rows = self._read(f"SELECT * FROM checkpoints WHERE id = ? AND {ROOT} = ?", (id, self.root))
        return _checkpoint(rows[0]) if rows else None

    def list_checkpoints(self, path: str | None = None, limit: int = 100) -> builtins.list[Checkpoint]:
        """Newest first."""
        where, args = (" AND path = ?", [path]) if path is not None else ("", [])
        rows = self._read(
            f"SELECT * FROM checkpoints WHERE {ROOT} = ?{where} ORDER BY created DESC, rowid DESC LIMIT ?",
            [self.root, *args, limit],
        )
        return [_checkpoint(r) for r in rows]

    def mark_reverted(self, id: str, by: str | None, expected_none: bool = True) -> bool:
        """Record that checkpoint ``by`` reverted ``id``; with ``expected_none``, only once."""
        guard = " AND reverted_by IS NULL" if expected_none else ""
        with self.transaction() as conn:
            sql = f"UPDATE checkpoints SET reverted_by = ? WHERE id = ? AND {ROOT} = ?{guard}"
            return conn.execute(sql, (by, id, self.root)).rowcount == 1

    # ------------------------------------------------------------------ grants

    def add_grant(self, g: Grant) -> None:
        with self.transaction() as conn:
            conn.execute(insert_sql("grants", Grant, [ROOT]), values(g, self.root))

    def list_grants(self, active_at: float | None = None) -> builtins.list[Grant]:
        """All grants, or those active at ``active_at``; oldest first."""
        if active_at is None:
            rows = self._read(f"SELECT * FROM grants WHERE {ROOT} = ? ORDER BY created, rowid", (self.root,))
        else:
            rows = self._read(
                f"SELECT * FROM grants WHERE {ROOT} = ? AND revoked IS NULL AND expires > ? ORDER BY created, rowid",
                (self.root, active_at),
            )
        return [from_row(Grant, r) for r in rows]

    def revoke_grant(self, id: str, now: float | None = None) -> Grant | None:
        """The revoked grant, or None if there is no such grant or it was revoked already."""
        with self.transaction() as conn:
            when = time.time() if now is None else now
            sql = f"UPDATE grants SET revoked = ? WHERE id = ? AND {ROOT} = ? AND revoked IS NULL"
            if conn.execute(sql, (when, id, self.root)).rowcount != 1:
                return None
            row = conn.execute(f"SELECT * FROM grants WHERE id = ? AND {ROOT} = ?", (id, self.root)).fetchone()
            return from_row(Grant, row)

    def find_grant(self, path: str, session: str | None, client: str | None, now: float) -> Grant | None:
        """The oldest active grant that lets this session or client apply to ``path``."""
        return next((g for g in self.list_grants(active_at=now) if g.covers(path, session, client, now)), None)


def _checkpoint(row: sqlite3.Row) -> Checkpoint:
    cp = from_row(Checkpoint, row)
    if row["diff"] is None:
        return cp  # only in a file a step 4 never converted: its one region, as stored
    hunks = patch.decode(row["diff"])
    start, old, new = patch.summary(hunks)
    return dataclasses.replace(cp, start=start, old=old, new=new, hunks=hunks)
