"""How long a workspace keeps its history, and pruning it so the store stays bounded.

Checkpoints are kept while they are among the newest ``max_count``, younger than
``max_age_days`` and within ``max_bytes`` of stored diffs (newest first); the rest go, with
the revert checkpoints that point at them. Decided suggestions go by the same count and age
(pending ones never; a checkpoint still naming one keeps it), expired or revoked grants by
age, and texts once no open suggestion is based on them. Quarantined records (see
``legacy``) are pruned by the same rules: they belong to no workspace that could. Then the
freed pages are given back to the filesystem. A limit of 0 is no limit.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from ..db import Database
from .schema import ROOT

DAY = 86_400.0
# Vacuum once this much of the file is free (or a quarter of it).
VACUUM_BYTES = 16 * 2**20


@dataclass(frozen=True)
class Retention:
    max_count: int = 2_000
    max_age_days: float = 30.0
    max_bytes: int = 256 * 2**20


@dataclass
class Pruned:
    checkpoints: int = 0
    suggestions: int = 0
    grants: int = 0
    texts: int = 0
    vacuumed: bool = False


def prune(db: Database, root: str, retention: Retention, now: float | None = None) -> Pruned:
    """Apply ``retention`` to ``root``'s records and the quarantined ones; vacuum if worth it."""
    now = time.time() if now is None else now
    oldest = now - retention.max_age_days * DAY if retention.max_age_days > 0 else float("-inf")
    out = Pruned()
    with db.transaction() as conn:
        for owner in (root, None):
            doomed = set(_old_checkpoints(db, owner, retention, oldest))
            # A revert checkpoint points at what it reverted: both go (the older one first anyway).
            while True:
                marks = ", ".join("?" * len(doomed))
                more = {
                    r[0] for r in conn.execute(f"SELECT id FROM checkpoints WHERE reverted_by IN ({marks})", [*doomed])
                } - doomed
                if not more:
                    break
                doomed |= more
            conn.executemany("DELETE FROM checkpoints WHERE id = ?", [(i,) for i in doomed])
            out.checkpoints += len(doomed)
            out.suggestions += _prune_suggestions(conn, owner, retention.max_count, oldest)
            out.grants += conn.execute(
                f"""DELETE FROM grants WHERE {ROOT} IS ? AND (revoked IS NOT NULL OR expires < ?) AND created < ?
                    AND id NOT IN (SELECT grant_id FROM checkpoints WHERE grant_id IS NOT NULL)""",
                (owner, now, oldest),
            ).rowcount
        out.texts = conn.execute(
            """DELETE FROM texts WHERE revision NOT IN (
                SELECT base_revision FROM suggestions WHERE status IN ('pending', 'conflict'))"""
        ).rowcount
    free = db.free_bytes()
    size = db.path.stat().st_size if db.path is not None and db.path.exists() else 0
    if free >= min(VACUUM_BYTES, max(size // 4, 1)) and free > 0:
        out.vacuumed = db.vacuum()
    return out


def _old_checkpoints(db: Database, owner: str | None, retention: Retention, oldest: float) -> list[str]:
    rows = db.read(
        f"""SELECT id, created, SUM(bytes) OVER (ORDER BY created DESC, rowid DESC) AS total,
                   ROW_NUMBER() OVER (ORDER BY created DESC, rowid DESC) AS n
            FROM checkpoints WHERE {ROOT} IS ?""",
        (owner,),
    )
    return [
        r["id"]
        for r in rows
        if r["created"] < oldest or 0 < retention.max_count < r["n"] or 0 < retention.max_bytes < r["total"]
    ]


def _prune_suggestions(conn: sqlite3.Connection, owner: str | None, max_count: int, oldest: float) -> int:
    """Decided suggestions past the count or age, and conflicts past the age, unless a
    checkpoint still names them."""
    keep = (
        f"""SELECT id FROM suggestions WHERE {ROOT} IS ? AND status IN ('accepted', 'rejected')
            ORDER BY decided DESC, rowid DESC LIMIT ?"""
        if max_count > 0
        else f"SELECT id FROM suggestions WHERE {ROOT} IS ?"
    )
    args: list[object] = [owner, max_count] if max_count > 0 else [owner]
    return conn.execute(
        f"""DELETE FROM suggestions WHERE {ROOT} IS ? AND status != 'pending'
            AND id NOT IN (SELECT suggestion_id FROM checkpoints WHERE suggestion_id IS NOT NULL)
            AND (COALESCE(decided, created) < ? OR (status != 'conflict' AND id NOT IN ({keep})))""",
        [owner, oldest, *args],
    ).rowcount


def usage(db: Database, root: str) -> dict[str, float | int | None]:
    """The store's size on disk and this workspace's share of what retention counts."""
    row = db.read(
        f"SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b, MIN(created) AS oldest FROM checkpoints WHERE {ROOT} = ?",
        (root,),
    )[0]
    files = [db.path, *(db.path.with_name(db.path.name + s) for s in ("-wal", "-shm"))] if db.path else []
    return {
        "bytes": sum(f.stat().st_size for f in files if f.exists()),
        "checkpoints": int(row["n"]),
        "checkpointBytes": int(row["b"]),
        "oldestCheckpoint": row["oldest"],
    }
