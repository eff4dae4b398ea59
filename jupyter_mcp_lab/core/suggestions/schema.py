"""The SQLite schema of the suggestion store, its migrations and row <-> record mapping.

Columns are named after the record fields (quoted: ``end`` and ``group`` are SQL
keywords), so one list of fields drives inserts and reads. Migrations run through the
SQLite layer (``core.db``) as the store ``suggestions``; a later version appends a
migration (``ALTER TABLE ... ADD COLUMN ... DEFAULT ...``) and never edits an earlier one,
since databases in users' data directories have already run them. The store's version was
``PRAGMA user_version`` before the layer, and still is, for older releases.

Records carry the canonical root of the workspace they belong to in a column (``root``)
that is not a record field: a store reads and writes its own workspace's rows only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import fields
from typing import Any, TypeVar

from .. import db
from . import patch
from .model import Checkpoint, Grant, Suggestion

STORE = "suggestions"
ROOT = "root"  # the column naming a record's workspace

_V1 = [
    """CREATE TABLE texts (
        revision TEXT PRIMARY KEY,
        text TEXT NOT NULL
    )""",
    """CREATE TABLE suggestions (
        "id" TEXT PRIMARY KEY,
        "path" TEXT NOT NULL,
        "kind" TEXT NOT NULL,
        "start" INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        "original" TEXT NOT NULL,
        "new" TEXT NOT NULL,
        "base_revision" TEXT NOT NULL,
        "author" TEXT NOT NULL,
        "user" TEXT NOT NULL,
        "session" TEXT NOT NULL,
        "rationale" TEXT NOT NULL DEFAULT '',
        "operation" TEXT NOT NULL DEFAULT '',
        "group" TEXT,
        "created" REAL NOT NULL,
        "status" TEXT NOT NULL CHECK ("status" IN ('pending', 'accepted', 'rejected', 'conflict')),
        "decided" REAL,
        "decided_by" TEXT,
        "result_revision" TEXT,
        "reason" TEXT,
        "line_start" INTEGER NOT NULL,
        "line_end" INTEGER NOT NULL
    )""",
    'CREATE INDEX suggestions_path ON suggestions ("path", "start", "created")',
    'CREATE INDEX suggestions_status ON suggestions ("status")',
    'CREATE INDEX suggestions_session ON suggestions ("session")',
    'CREATE INDEX suggestions_group ON suggestions ("group")',
    """CREATE TABLE grants (
        "id" TEXT PRIMARY KEY,
        "scope" TEXT NOT NULL,
        "agent" TEXT NOT NULL,
        "agent_kind" TEXT NOT NULL CHECK ("agent_kind" IN ('session', 'client')),
        "created" REAL NOT NULL,
        "expires" REAL NOT NULL,
        "created_by" TEXT NOT NULL,
        "revoked" REAL
    )""",
    """CREATE TABLE checkpoints (
        "id" TEXT PRIMARY KEY,
        "path" TEXT NOT NULL,
        "before_revision" TEXT NOT NULL,
        "after_revision" TEXT NOT NULL,
        "start" INTEGER NOT NULL,
        "old" TEXT NOT NULL,
        "new" TEXT NOT NULL,
        "author" TEXT NOT NULL,
        "user" TEXT NOT NULL,
        "session" TEXT NOT NULL,
        "source" TEXT NOT NULL CHECK ("source" IN ('auto', 'accepted', 'grant', 'revert', 'person')),
        "suggestion_id" TEXT REFERENCES suggestions ("id"),
        "grant_id" TEXT REFERENCES grants ("id"),
        "created" REAL NOT NULL,
        "reverted_by" TEXT REFERENCES checkpoints ("id"),
        "label" TEXT NOT NULL DEFAULT ''
    )""",
    'CREATE INDEX checkpoints_created ON checkpoints ("created")',
    'CREATE INDEX checkpoints_path ON checkpoints ("path", "created")',
]

# Checkpoints keep the agent's rationale (a reviewer reading "what changed" reads "why").
_V2 = ["""ALTER TABLE checkpoints ADD COLUMN "rationale" TEXT NOT NULL DEFAULT ''"""]

# Every record belongs to the workspace it was made in: the server's canonical root
# (``ROOT``). Records of earlier versions have none (NULL): no workspace sees or acts on
# them until one claims those its files prove were made there (``workspaces`` says which
# roots looked); the rest stay quarantined. Not compatible: older code would show every
# workspace's records to every server.
_V3 = db.Step(
    (
        f'ALTER TABLE suggestions ADD COLUMN "{ROOT}" TEXT',
        f'ALTER TABLE checkpoints ADD COLUMN "{ROOT}" TEXT',
        f'ALTER TABLE grants ADD COLUMN "{ROOT}" TEXT',
        f'CREATE INDEX suggestions_root ON suggestions ("{ROOT}", "path", "start", "created")',
        f'CREATE INDEX checkpoints_root ON checkpoints ("{ROOT}", "created")',
        f'CREATE INDEX grants_root ON grants ("{ROOT}", "created")',
        f"""CREATE TABLE workspaces (
            "{ROOT}" TEXT PRIMARY KEY,
            "claimed" REAL NOT NULL
        )""",
    ),
    compatible=False,
)


def _v4(conn: sqlite3.Connection) -> None:
    """Checkpoints keep their change as compressed hunks with context (``diff``, its size in
    ``bytes``) instead of one region's old and new text beside the whole text after it.
    Existing ones are converted, with their context from that text while it is stored.
    Not compatible: older code would read the emptied ``old`` and ``new``."""
    conn.execute('ALTER TABLE checkpoints ADD COLUMN "diff" BLOB')
    conn.execute('ALTER TABLE checkpoints ADD COLUMN "bytes" INTEGER NOT NULL DEFAULT 0')
    for (id,) in conn.execute("SELECT id FROM checkpoints").fetchall():
        start, old, new, after_revision = conn.execute(
            'SELECT "start", "old", "new", "after_revision" FROM checkpoints WHERE id = ?', (id,)
        ).fetchone()
        row = conn.execute("SELECT text FROM texts WHERE revision = ?", (after_revision,)).fetchone()
        after = row[0] if row else None
        if after is not None and after[start : start + len(new)] == new:
            hunks = patch.hunks_between(after[:start] + old + after[start + len(new) :], after)
        else:
            hunks = (patch.Hunk(start, old, new),)
        blob = patch.encode(hunks)
        conn.execute(
            "UPDATE checkpoints SET diff = ?, bytes = ?, old = '', new = '' WHERE id = ?", (blob, len(blob), id)
        )


# Suggestions on one part of a structured document (a notebook cell by id, an outline row):
# ``part`` names it and the offsets are in its text; ``change`` holds a structural change
# (insert, delete, move, set fields) as JSON. Not compatible: older code would apply such a
# suggestion's offsets to the whole file's text.
_V5 = db.Step(
    (
        'ALTER TABLE suggestions ADD COLUMN "part" TEXT',
        'ALTER TABLE suggestions ADD COLUMN "change" TEXT',
    ),
    compatible=False,
)

# A notebook's checkpoint says which cells it changed, and how (``review.cell_changes``):
# the review panel tells it by cell, as it tells a pending cell suggestion.
_V6 = ['ALTER TABLE checkpoints ADD COLUMN "cells" TEXT']

# Index i holds the statements that bring the version from i to i + 1.
MIGRATIONS: list[Sequence[str] | db.Step] = [_V1, _V2, _V3, db.Step(_v4), _V5, _V6]


def layer_migrations(migrations: Sequence[Sequence[str] | db.Step] = MIGRATIONS) -> db.Migrations:
    """The store's steps for the SQLite layer. A plain list of statements follows this
    store's rule (it only adds), so older code can still use the file; a ``db.Step`` says
    otherwise if ever needed."""
    steps = [m if isinstance(m, db.Step) else db.Step(tuple(m), compatible=True) for m in migrations]
    return db.Migrations(STORE, steps, user_version=True)


def migrate(conn: sqlite3.Connection, migrations: Sequence[Sequence[str] | db.Step] = MIGRATIONS) -> int:
    """Apply the migrations ``conn`` has not run, each atomically; returns the version.

    A database from a newer version (more migrations than known) is used as it is: later
    migrations only add columns with defaults, which the older code ignores (a newer release
    that broke that rule would have marked its step, and this code refuses: SchemaTooNew).
    """
    return db.migrate(conn, layer_migrations(migrations))


Record = TypeVar("Record", Suggestion, Checkpoint, Grant)


def columns(cls: type[Suggestion] | type[Checkpoint] | type[Grant]) -> list[str]:
    """The record's fields that are columns of the same name (a checkpoint's hunks are not)."""
    return [f.name for f in fields(cls) if f.metadata.get("column", True)]


def insert_sql(table: str, cls: type[Suggestion] | type[Checkpoint] | type[Grant], extra: Sequence[str] = ()) -> str:
    """An insert of the record's fields, then of the ``extra`` columns (a record's root)."""
    names = [*columns(cls), *extra]
    quoted = ", ".join(f'"{n}"' for n in names)
    return f"INSERT INTO {table} ({quoted}) VALUES ({', '.join('?' * len(names))})"


def values(record: Suggestion | Checkpoint | Grant, *extra: Any) -> tuple[Any, ...]:
    return (*(getattr(record, n) for n in columns(type(record))), *extra)


def from_row(cls: type[Record], row: sqlite3.Row) -> Record:
    # Only known fields: a newer version's extra columns are left out.
    return cls(**{n: row[n] for n in columns(cls)})
