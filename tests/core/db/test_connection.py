"""The SQLite layer's connections and transactions, on real files: pragmas, nested
transactions as savepoints, two connections contending for the write lock, FTS5."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.db import Database, Migrations, Step, fts5_available

COUNTER = Migrations("counter", [Step(["CREATE TABLE n (k TEXT PRIMARY KEY, v INTEGER NOT NULL)"])])


def value(db: Database, key: str = "a") -> int | None:
    rows = db.read("SELECT v FROM n WHERE k = ?", (key,))
    return rows[0]["v"] if rows else None


def test_a_file_opens_in_wal_with_foreign_keys_and_rows_by_name(tmp_path: Path) -> None:
    with Database(tmp_path / "deep" / "x.sqlite3", COUNTER) as db:
        assert db.read("PRAGMA journal_mode")[0][0] == "wal"
        assert db.read("PRAGMA foreign_keys")[0][0] == 1
        with db.transaction() as conn:
            conn.execute("INSERT INTO n VALUES ('a', 1)")
        assert db.read("SELECT * FROM n")[0]["v"] == 1
    with Database(None, COUNTER) as memory:  # in memory: no file, same schema
        assert memory.version == 1 and memory.path is None


def test_a_transaction_commits_or_rolls_back_as_a_whole(tmp_path: Path) -> None:
    with Database(tmp_path / "x.sqlite3", COUNTER) as db:
        with pytest.raises(RuntimeError), db.transaction() as conn:
            conn.execute("INSERT INTO n VALUES ('a', 1)")
            raise RuntimeError("boom")
        assert value(db) is None and not db.conn.in_transaction
        with db.transaction() as conn:
            conn.execute("INSERT INTO n VALUES ('a', 1)")
        assert value(db) == 1


def test_a_nested_transaction_is_a_savepoint_of_the_outer_one(tmp_path: Path) -> None:
    with Database(tmp_path / "x.sqlite3", COUNTER) as db:
        with db.transaction() as conn:
            conn.execute("INSERT INTO n VALUES ('a', 1)")
            with pytest.raises(sqlite3.IntegrityError), db.transaction() as inner:
                inner.execute("INSERT INTO n VALUES ('b', 2)")
                inner.execute("INSERT INTO n VALUES ('a', 3)")  # fails: only the inner part goes
            with db.transaction() as inner:
                inner.execute("UPDATE n SET v = 10 WHERE k = 'a'")
        assert (value(db), value(db, "b")) == (10, None)
        # The outer one failing undoes what its nested transactions had released.
        with pytest.raises(RuntimeError), db.transaction():
            with db.transaction() as inner:
                inner.execute("UPDATE n SET v = 11 WHERE k = 'a'")
            raise RuntimeError("boom")
        assert value(db) == 10 and not db.conn.in_transaction


def test_begin_immediate_serialises_writers_and_readers_do_not_wait(tmp_path: Path) -> None:
    # Two connections on one file, as two servers sharing a data directory would have.
    path = tmp_path / "x.sqlite3"
    first = Database(path, COUNTER)
    second = Database(path, COUNTER, busy_timeout=10)
    with first.transaction() as conn:
        conn.execute("INSERT INTO n VALUES ('a', 1)")
    order: list[str] = []
    held = threading.Event()

    def hold_the_lock() -> None:
        with first.transaction() as conn:
            v = conn.execute("SELECT v FROM n WHERE k = 'a'").fetchone()[0]
            held.set()
            assert value(second) == 1  # WAL: a reader on the other connection is not blocked
            time.sleep(0.3)
            conn.execute("UPDATE n SET v = ? WHERE k = 'a'", (v + 1,))
            order.append("first committed")

    thread = threading.Thread(target=hold_the_lock)
    thread.start()
    held.wait()
    started = time.monotonic()
    with second.transaction() as conn:  # BEGIN IMMEDIATE waits for the first writer's commit
        order.append("second began")
        v = conn.execute("SELECT v FROM n WHERE k = 'a'").fetchone()[0]
        conn.execute("UPDATE n SET v = ? WHERE k = 'a'", (v + 1,))
    waited = time.monotonic() - started
    thread.join()
    assert order == ["first committed", "second began"] and waited > 0.15
    assert value(first) == 3  # read-modify-write twice, no lost update
    first.close()
    second.close()


def test_a_writer_gives_up_after_its_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    holder = Database(path, COUNTER)
    impatient = Database(path, COUNTER, busy_timeout=0.2)
    with holder.transaction() as conn:
        conn.execute("INSERT INTO n VALUES ('a', 1)")
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"), impatient.transaction():
            pass  # pragma: no cover - BEGIN IMMEDIATE fails
        waited = time.monotonic() - started
    assert 0.15 < waited < 5
    assert not impatient.conn.in_transaction
    with impatient.transaction() as conn:  # free again
        conn.execute("UPDATE n SET v = 2")
    assert value(holder) == 2
    holder.close()
    impatient.close()


def test_a_connection_for_one_thread_refuses_others(tmp_path: Path) -> None:
    with Database(tmp_path / "x.sqlite3", COUNTER, check_same_thread=True) as db:
        failed: list[BaseException] = []
        thread = threading.Thread(target=lambda: _capture(failed, lambda: db.read("SELECT 1")))
        thread.start()
        thread.join()
        assert len(failed) == 1 and isinstance(failed[0], sqlite3.ProgrammingError)


def _capture(failed: list[BaseException], call: Callable[[], object]) -> None:
    try:
        call()
    except BaseException as exc:
        failed.append(exc)


def test_fts5_is_available_and_a_store_can_index_with_it(tmp_path: Path) -> None:
    assert fts5_available()
    index = Migrations("index", [Step(["CREATE VIRTUAL TABLE chunks USING fts5(body, tokenize = 'porter unicode61')"])])
    with Database(tmp_path / "index.sqlite3", index) as db:
        with db.transaction() as conn:
            conn.executemany("INSERT INTO chunks (body) VALUES (?)", [("Running notes",), ("unrelated",)])
        assert [r["body"] for r in db.read("SELECT body FROM chunks WHERE chunks MATCH 'run'")] == ["Running notes"]
