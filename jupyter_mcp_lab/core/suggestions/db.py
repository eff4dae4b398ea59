"""One SQLite connection shared by threads: explicit transactions, migrated on open.

The server's handlers and worker threads call in from anywhere, and SQLite serialises
writers anyway, so one connection under a lock is enough. ``BEGIN IMMEDIATE`` takes the
write lock before a transaction reads, so a check and its write cannot interleave with
another writer's, also in another process sharing the file.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .schema import migrate


class Database:
    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        file = None if path is None or str(path) == ":memory:" else Path(path)
        if file is not None:
            file.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module opens no transaction by itself (it would
        # not for DDL, and would open deferred ones); transaction() does, explicitly.
        self.conn = sqlite3.connect(
            ":memory:" if file is None else str(file), timeout=30, check_same_thread=False, isolation_level=None
        )
        self.conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        self.conn.execute("PRAGMA foreign_keys = ON")
        if file is not None:
            self.conn.execute("PRAGMA journal_mode = WAL")  # readers do not wait for writers
            self.conn.execute("PRAGMA synchronous = NORMAL")  # consistent after crashes in WAL mode
        self.version = migrate(self.conn)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write; nested calls join the outer transaction."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:  # also when COMMIT itself failed
                    self.conn.execute("ROLLBACK")
                raise
            finally:
                self._depth = 0

    def read(self, sql: str, args: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self.conn.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self.conn.close()
