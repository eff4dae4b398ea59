"""The SQLite layer's migrations, on real files: from empty, from a first-release
suggestions store, a failing step, a database newer than the code, stores sharing a file."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.db import Database, Migrations, SchemaTooNew, Step, migrate, stamp, store_file
from jupyter_mcp_lab.core.suggestions import SuggestionStore
from jupyter_mcp_lab.core.suggestions.schema import MIGRATIONS, layer_migrations

NOTES = [
    Step(["CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"]),
    Step(["ALTER TABLE notes ADD COLUMN title TEXT NOT NULL DEFAULT ''"], compatible=True),
    Step(["CREATE INDEX notes_title ON notes (title)"], compatible=True),
]


def names(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


def versions(path: Path) -> dict[str, tuple[int, int]]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT store, version, readable_from FROM schema_versions").fetchall()
    return {store: (version, readable) for store, version, readable in rows}


def test_an_empty_file_gets_every_step(tmp_path: Path) -> None:
    path = store_file(tmp_path / "data", "notes")
    assert path == tmp_path / "data" / "notes.sqlite3"
    db = Database(path, Migrations("notes", NOTES))
    assert db.version == 3
    assert {"notes", "notes_title", "schema_versions"} <= names(db.conn)
    with db.transaction() as conn:
        conn.execute("INSERT INTO notes (body) VALUES ('x')")
    db.close()
    # Step 1 is not compatible: code that knows no steps could not read this file.
    assert versions(path) == {"notes": (3, 1)}
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 0  # not this store's
    again = Database(path, Migrations("notes", NOTES))
    assert again.version == 3 and again.read("SELECT title, body FROM notes")[0]["body"] == "x"
    again.close()


def test_a_file_at_version_one_runs_only_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    Database(path, Migrations("notes", NOTES[:1])).close()
    ran: list[int] = []

    def second(conn: sqlite3.Connection) -> None:
        ran.append(2)
        NOTES[1].run(conn)

    steps = [Step(lambda conn: ran.append(1)), Step(second, compatible=True), NOTES[2]]
    with Database(path, Migrations("notes", steps)) as db:
        assert db.version == 3 and ran == [2]


def test_a_first_release_suggestions_file_opens_and_is_recorded(tmp_path: Path) -> None:
    # What the first release wrote: version 1 in PRAGMA user_version, no schema_versions table.
    path = tmp_path / "suggestions.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        raw.execute(statement)
    raw.execute("PRAGMA user_version = 1")
    raw.execute("INSERT INTO texts (revision, text) VALUES ('rev-1', 'kept')")
    raw.close()
    with SuggestionStore(path) as store:
        assert store.version == len(MIGRATIONS) and store.get_text("rev-1") == "kept"
    # Older code may read it up to the step that keyed records by workspace (it would show
    # every workspace's records), from which on it is refused.
    bar = max(i + 1 for i, step in enumerate(layer_migrations().steps) if not step.compatible)
    assert versions(path) == {"suggestions": (len(MIGRATIONS), bar)}
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)  # older releases read it
        assert "rationale" in {r[1] for r in raw.execute("PRAGMA table_info(checkpoints)")}


def test_a_failing_step_rolls_back_and_leaves_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    broken = [*NOTES[:2], Step(["CREATE TABLE tags (name TEXT)", "CREATE INDEX nowhere ON missing (x)"])]
    with pytest.raises(sqlite3.OperationalError, match="missing"):
        Database(path, Migrations("notes", broken))
    raw = sqlite3.connect(path, isolation_level=None)
    assert versions(path) == {"notes": (2, 1)}  # steps 1 and 2 each committed on their own
    assert "tags" not in names(raw)  # step 3's first statement went with it
    assert migrate(raw, Migrations("notes", NOTES)) == 3
    raw.close()


def test_a_failing_first_step_leaves_nothing(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "n.sqlite3", isolation_level=None)
    with pytest.raises(sqlite3.OperationalError):
        migrate(raw, Migrations("notes", [Step(["CREATE TABLE a (x)", "CREATE TABLE a (x)"])]))
    assert names(raw) == set()  # not even the versions table
    raw.close()


def test_a_database_newer_than_the_code_is_refused_unless_its_steps_only_added(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    incompatible = Step(["ALTER TABLE notes RENAME COLUMN body TO text"])
    Database(path, Migrations("notes", [*NOTES, incompatible])).close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew) as refused:
        Database(path, Migrations("notes", NOTES))
    message = str(refused.value)
    assert "'notes'" in message and "version 4" in message and "knows 3" in message and str(path) in message
    assert path.read_bytes() == before
    # Newer, but every newer step only added: older code uses it as it is.
    other = tmp_path / "other.sqlite3"
    Database(other, Migrations("notes", NOTES)).close()
    with Database(other, Migrations("notes", NOTES[:1])) as old:
        assert old.version == 3
        with old.transaction() as conn:
            conn.execute("INSERT INTO notes (body) VALUES ('older code writes too')")


def test_the_suggestion_store_refuses_a_file_a_newer_release_changed_incompatibly(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    later = layer_migrations([*MIGRATIONS, Step(["DROP INDEX suggestions_group"])])
    assert migrate(raw, later) == len(MIGRATIONS) + 1
    raw.close()
    with pytest.raises(SchemaTooNew, match=f"'suggestions' store is at schema version {len(MIGRATIONS) + 1}"):
        SuggestionStore(path)


def test_stores_sharing_a_file_keep_their_own_versions(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    log = Migrations("activity", [Step(["CREATE TABLE calls (tool TEXT)"])])
    Database(path, Migrations("notes", NOTES)).close()
    with Database(path, log) as db:
        assert db.version == 1
        assert stamp(db.conn, Migrations("notes", NOTES)).version == 3
    assert versions(path) == {"notes": (3, 1), "activity": (1, 1)}


def test_two_servers_opening_a_new_file_at_once_run_each_step_once(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    runs: list[str] = []
    barrier = threading.Barrier(4)

    def counted(conn: sqlite3.Connection) -> None:
        runs.append(threading.current_thread().name)
        conn.execute("CREATE TABLE once (x)")

    migrations = Migrations("race", [Step(counted)])
    opened: list[int] = []
    failures: list[BaseException] = []

    def open_it() -> None:
        try:
            barrier.wait()
            with Database(path, migrations) as db:
                opened.append(db.version)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and opened == [1, 1, 1, 1] and len(runs) == 1
