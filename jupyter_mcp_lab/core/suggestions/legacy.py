"""Records from before stores were kept per workspace: claimed where known, else quarantined.

Until schema version 3 every server of an OS user shared one store, and records named a
root-relative path without saying which root. Applying such a record in another workspace
is what let a suggestion made on project A's ``notes.md`` change project B's. So a record
without a root is quarantined (no workspace lists or acts on it), and the first time a
workspace opens the store it claims the ones its files prove were made there: a file's
current text is a revision a checkpoint produced (its ``after``) or a suggestion was based
on or produced, and from there back through the checkpoints' ``before`` revisions. Empty
texts prove nothing (every new file has one). Grants name no content and stay quarantined:
a person grants again. ``quarantined`` counts what is left, for the server's status.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..db import Database
from ..errors import DomainError
from ..paths import resolve_in_root
from ..revision import revision_of
from .schema import ROOT

log = logging.getLogger(__name__)

EMPTY = revision_of("")
TABLES = ("suggestions", "checkpoints", "grants")


@dataclass(frozen=True)
class Claimed:
    """What a workspace claimed at its first opening (empty on later ones)."""

    suggestions: list[str] = field(default_factory=list)
    checkpoints: list[str] = field(default_factory=list)


def read_file(root: str) -> Callable[[str], str | None]:
    """The text of a root-relative path below ``root`` as it is on disk, or None."""

    def read(path: str) -> str | None:
        if path.startswith("untitled:"):
            return None
        try:
            with open(resolve_in_root(Path(root), path), encoding="utf-8", newline="") as f:
                return f.read()
        except (OSError, UnicodeDecodeError, DomainError):
            return None

    return read


def claim(db: Database, root: str, read: Callable[[str], str | None] | None = None) -> Claimed:
    """Give ``root`` the unattributed records its files prove were made there, once per root."""
    if db.read("SELECT 1 FROM workspaces WHERE root = ?", (root,)):
        return Claimed()
    read = read or read_file(root)
    suggestions: set[str] = set()
    checkpoints: set[str] = set()
    paths = db.read(
        f"SELECT path FROM suggestions WHERE {ROOT} IS NULL UNION SELECT path FROM checkpoints WHERE {ROOT} IS NULL"
    )
    for (path,) in paths:
        text = read(path)
        if text is not None:
            s, c = _proven(db, path, revision_of(text))
            suggestions |= s
            checkpoints |= c
    with db.transaction() as conn:
        # Only rows still unattributed: another server may have claimed meanwhile.
        for table, ids in (("suggestions", suggestions), ("checkpoints", checkpoints)):
            conn.executemany(f"UPDATE {table} SET {ROOT} = ? WHERE id = ? AND {ROOT} IS NULL", [(root, i) for i in ids])
        conn.execute("INSERT OR IGNORE INTO workspaces (root, claimed) VALUES (?, ?)", (root, time.time()))
    left = quarantined(db)
    if suggestions or checkpoints or any(left.values()):
        log.warning(
            "%s claimed %d suggestions and %d checkpoints made before stores were kept per workspace; "
            "quarantined (made in a workspace not known): %s",
            root,
            len(suggestions),
            len(checkpoints),
            ", ".join(f"{n} {table}" for table, n in left.items()),
        )
    return Claimed(sorted(suggestions), sorted(checkpoints))


def _proven(db: Database, path: str, current: str) -> tuple[set[str], set[str]]:
    """The unattributed suggestions and checkpoints of ``path`` whose revisions chain back
    from its current text, and those tied to them by a suggestion id."""
    known = {current} - {EMPTY}
    suggestions: set[str] = set()
    checkpoints: set[str] = set()
    linked: set[str] = set()  # suggestions whose acceptance a claimed checkpoint recorded
    while True:
        grown = False
        for row in db.read(
            f"SELECT id, before_revision, after_revision, suggestion_id FROM checkpoints "
            f"WHERE {ROOT} IS NULL AND path = ?",
            (path,),
        ):
            if row["id"] not in checkpoints and (row["after_revision"] in known or row["suggestion_id"] in suggestions):
                checkpoints.add(row["id"])
                if row["suggestion_id"]:
                    linked.add(row["suggestion_id"])
                known |= {row["before_revision"], row["after_revision"]} - {EMPTY}
                grown = True
        for row in db.read(
            f"SELECT id, base_revision, result_revision FROM suggestions WHERE {ROOT} IS NULL AND path = ?", (path,)
        ):
            if row["id"] not in suggestions and (
                row["id"] in linked or {row["base_revision"], row["result_revision"]} & known
            ):
                suggestions.add(row["id"])
                known |= {row["base_revision"], row["result_revision"]} - {EMPTY, None}
                grown = True
        if not grown:
            return suggestions, checkpoints


def quarantined(db: Database) -> dict[str, int]:
    return {t: int(db.read(f"SELECT COUNT(*) FROM {t} WHERE {ROOT} IS NULL")[0][0]) for t in TABLES}
