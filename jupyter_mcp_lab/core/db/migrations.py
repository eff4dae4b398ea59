"""Versioned schema steps per store, recorded in the database they migrate.

A store names itself and lists its steps in order: step ``i`` brings it from version ``i``
to ``i + 1``. Steps are appended, never edited: users' data directories have run the old
ones. Each store's version is a row of ``schema_versions``, so several stores can share
one file. A row also says which code can still use the database (``readable_from``): a
step that only adds (tables, indexes, columns with defaults) is ``compatible`` and leaves
older code able to read and write; any other step raises the bar to its own version, and
code that knows fewer steps than the bar refuses the file instead of corrupting it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

TABLE = "schema_versions"

_CREATE = f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    store TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    readable_from INTEGER NOT NULL
)"""


class SchemaTooNew(RuntimeError):
    """The database was migrated by newer code in a way this code cannot read."""


@dataclass(frozen=True)
class Step:
    """One migration: SQL statements run in order, or a function given the connection. It
    runs inside the layer's transaction and must not commit (no ``executescript``)."""

    sql: Sequence[str] | Callable[[sqlite3.Connection], None]
    # True when code that lacks this step still works with the result (it only adds).
    compatible: bool = False

    def run(self, conn: sqlite3.Connection) -> None:
        if callable(self.sql):
            self.sql(conn)
            return
        for statement in self.sql:
            conn.execute(statement)


@dataclass(frozen=True)
class Migrations:
    store: str
    steps: Sequence[Step]
    # The store kept its version in ``PRAGMA user_version`` before this layer existed: a
    # file without a row is at that version, and the pragma is kept in step for older code.
    user_version: bool = False

    @property
    def version(self) -> int:
        return len(self.steps)


@dataclass(frozen=True)
class Stamp:
    version: int
    readable_from: int


def stamp(conn: sqlite3.Connection, migrations: Migrations) -> Stamp:
    """Where ``migrations.store`` stands in this database (version 0: never migrated)."""
    has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)).fetchone()
    if has_table:
        row = conn.execute(
            f"SELECT version, readable_from FROM {TABLE} WHERE store = ?", (migrations.store,)
        ).fetchone()
        if row is not None:
            return Stamp(int(row[0]), int(row[1]))
    if migrations.user_version:
        # A file from before the layer: its steps only ever added, so any code may read it.
        return Stamp(int(conn.execute("PRAGMA user_version").fetchone()[0]), 0)
    return Stamp(0, 0)


def migrate(conn: sqlite3.Connection, migrations: Migrations) -> int:
    """Apply the steps this database lacks, each in its own ``BEGIN IMMEDIATE`` transaction,
    and return the store's version (newer than the code's when a newer release migrated it
    compatibly). A step that fails is rolled back and leaves the previous version.

    The version is read again inside each transaction, so two processes opening one new file
    at once do not run a step twice. Raises ``SchemaTooNew`` for a database this code cannot use.
    """
    current = stamp(conn, migrations)
    _check_readable(conn, migrations, current)
    if current.version >= migrations.version:
        return current.version  # up to date: no write lock taken
    while True:
        # Explicit BEGIN: the sqlite3 module would run DDL outside any transaction.
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = stamp(conn, migrations)
            _check_readable(conn, migrations, current)
            if current.version >= migrations.version:
                conn.execute("COMMIT")
                return current.version
            step = migrations.steps[current.version]
            step.run(conn)
            target = current.version + 1
            _record(conn, migrations, Stamp(target, current.readable_from if step.compatible else target))
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def _check_readable(conn: sqlite3.Connection, migrations: Migrations, current: Stamp) -> None:
    if current.version > migrations.version and current.readable_from > migrations.version:
        file = conn.execute("PRAGMA database_list").fetchone()[2] or ":memory:"
        raise SchemaTooNew(
            f"{file}: the {migrations.store!r} store is at schema version {current.version}, written by a "
            f"newer jupyter-mcp-lab; it needs code that knows version {current.readable_from} or later, and "
            f"this one knows {migrations.version}. Upgrade jupyter-mcp-lab or use another data directory."
        )


def _record(conn: sqlite3.Connection, migrations: Migrations, new: Stamp) -> None:
    conn.execute(_CREATE)
    conn.execute(
        f"INSERT INTO {TABLE} (store, version, readable_from) VALUES (?, ?, ?) "
        "ON CONFLICT (store) DO UPDATE SET version = excluded.version, readable_from = excluded.readable_from",
        (migrations.store, new.version, new.readable_from),
    )
    if migrations.user_version:
        conn.execute(f"PRAGMA user_version = {new.version:d}")
