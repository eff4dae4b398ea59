"""The SQLite layer every persistent store uses (suggestions today; the vault's index, the
activity log and agent keys next): one connection per store with WAL, a busy timeout and
foreign keys, ``BEGIN IMMEDIATE`` transactions (nested ones are savepoints), versioned
migrations per store, and the FTS5 check."""

from __future__ import annotations

from .connection import SUFFIX, Database, store_file
from .fts import fts5_available
from .migrations import Migrations, SchemaTooNew, Stamp, Step, migrate, stamp

__all__ = [
    "SUFFIX",
    "Database",
    "Migrations",
    "SchemaTooNew",
    "Stamp",
    "Step",
    "fts5_available",
    "migrate",
    "stamp",
    "store_file",
]
