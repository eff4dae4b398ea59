"""One SQLite connection for one store, shared by threads: explicit transactions, migrated on open.

The server's handlers and worker threads call in from anywhere, and SQLite serialises
writers anyway, so one connection under a lock is enough. ``BEGIN IMMEDIATE`` takes the
write lock before a transaction reads, so a check and its write cannot interleave with
another writer's, also in another process sharing the file; that writer waits up to the
busy timeout for the lock. A transaction opened inside another is a savepoint: its
failure undoes its own writes and lets the outer transaction decide.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .migrations import Migrations, migrate

SUFFIX = ".sqlite3"


def store_file(data_dir: str | os.PathLike[str], store: str) -> Path:
    """The file of the store named ``store`` in a data directory."""
    return Path(data_dir) / f"{store}{SUFFIX}"


class Database:
    def __init__(
        self,
        path: str | os.PathLike[str] | None,
        migrations: Migrations | None = None,
        *,
        busy_timeout: float = 30.0,
        check_same_thread: bool = False,
    ) -> None:
        """Open the SQLite file ``path`` (made with its folders), or a database in memory
        (None), and bring ``migrations`` up to date. Files use WAL: readers do not wait for
        the writer. ``busy_timeout`` is how long a writer waits for another's lock (seconds)."""
        file = None if path is None or str(path) == ":memory:" else Path(path)
        if file is not None:
            file.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module opens no transaction by itself (it would
        # not for DDL, and would open deferred ones); transaction() does, explicitly.
        self.conn = sqlite3.connect(
            ":memory:" if file is None else str(file),
            timeout=busy_timeout,
            check_same_thread=check_same_thread,
            isolation_level=None,
        )
        self.path = file
        self.conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            if file is not None:
                self.conn.execute("PRAGMA journal_mode = WAL")
                self.conn.execute("PRAGMA synchronous = NORMAL")  # consistent after crashes in WAL mode
            self.version = migrate(self.conn, migrations) if migrations is not None else 0
        except BaseException:
            self.conn.close()
            raise

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write (``BEGIN IMMEDIATE``): committed at the end, rolled back on error.
        Nested in another (same thread), it is a savepoint of the outer one."""
        with self._lock:
            depth = self._depth
            savepoint = f"nested_{depth}"
            self.conn.execute(f"SAVEPOINT {savepoint}" if depth else "BEGIN IMMEDIATE")
            self._depth = depth + 1
            try:
                yield self.conn
                self.conn.execute(f"RELEASE {savepoint}" if depth else "COMMIT")
            except BaseException:
                if depth:
                    self.conn.execute(f"ROLLBACK TO {savepoint}")
                    self.conn.execute(f"RELEASE {savepoint}")
                elif self.conn.in_transaction:  # also when COMMIT itself failed
                    self.conn.execute("ROLLBACK")
                raise
            finally:
                self._depth = depth

    def read(self, sql: str, args: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self.conn.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
