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
import time
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
        incremental_vacuum: bool = False,
    ) -> None:
        """Open the SQLite file ``path`` (made with its folders), or a database in memory
        (None), and bring ``migrations`` up to date. Files use WAL: readers do not wait for
        the writer. ``busy_timeout`` is how long a writer waits for another's lock (seconds).
        ``incremental_vacuum``: a new file can give freed pages back to the filesystem a few
        at a time (``vacuum``) instead of only by rewriting itself whole."""
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
            if incremental_vacuum and not self.conn.execute("SELECT 1 FROM sqlite_master").fetchone():
                self.conn.execute("PRAGMA auto_vacuum = INCREMENTAL")  # only takes before the first table
            if file is not None:
                _set_wal(self.conn, busy_timeout)
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

    def free_bytes(self) -> int:
        """Bytes of the file no table uses any more (what ``vacuum`` would give back)."""
        with self._lock:
            pages = self.conn.execute("PRAGMA freelist_count").fetchone()[0]
            return int(pages) * int(self.conn.execute("PRAGMA page_size").fetchone()[0])

    def vacuum(self, lock_timeout: float = 2.0) -> bool:
        """Give the free pages back to the filesystem: a few at a time on a file set up for it,
        else by rewriting the file once (which also sets it up). Another process holding the
        database longer than ``lock_timeout`` seconds defers it (False)."""
        with self._lock:
            if self._depth:
                raise RuntimeError("vacuum inside a transaction")
            timeout = self.conn.execute("PRAGMA busy_timeout").fetchone()[0]
            self.conn.execute(f"PRAGMA busy_timeout = {int(lock_timeout * 1000):d}")
            try:
                if self.conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2:  # incremental
                    # executescript steps the pragma to its end (execute frees one page).
                    self.conn.executescript("PRAGMA incremental_vacuum;")
                else:
                    self.conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
                    self.conn.execute("VACUUM")
                if self.path is not None:
                    self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                return True
            except sqlite3.OperationalError:
                return False
            finally:
                self.conn.execute(f"PRAGMA busy_timeout = {int(timeout):d}")

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _set_wal(conn: sqlite3.Connection, busy_timeout: float) -> None:
    """Switch a file to WAL. SQLite answers "database is locked" at once, without waiting out
    the busy timeout, when another connection holds the file while it changes journal mode
    (two servers opening one new file): retried here for up to ``busy_timeout`` seconds."""
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)
