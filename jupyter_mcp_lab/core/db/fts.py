"""Whether this Python's SQLite can build full-text indexes (FTS5).

Most builds include FTS5, but SQLite is compiled per platform (system libraries, conda,
embedded Pythons) and some leave it out; a store that needs it asks first and says so
instead of failing on its first ``CREATE VIRTUAL TABLE``.
"""

from __future__ import annotations

import functools
import sqlite3


@functools.cache
def fts5_available() -> bool:
    """True when FTS5 with the porter and unicode61 tokenizers works (checked once, in memory)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE probe USING fts5(body, tokenize = 'porter unicode61')")
        conn.execute("INSERT INTO probe (body) VALUES ('indexes searching')")
        return conn.execute("SELECT count(*) FROM probe WHERE probe MATCH 'index'").fetchone()[0] == 1
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()
