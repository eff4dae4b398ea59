"""The agent keys of a workspace, in ``keys.sqlite3`` of the data directory.

Keys belong to the workspace (canonical root) they were issued for, like every other
record: a server on another root sharing the data directory neither lists nor accepts
them. A name names at most one key that is not revoked; revoked keys stay listed (when
asked) so a refused agent can be told why.

The command line writes to the same file while a server runs: ``changed`` tells the
server (cheaply, by SQLite's ``data_version``) that another connection wrote, so it can
drop what it remembered and end the sessions of keys revoked there.
"""

from __future__ import annotations

import builtins
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping

from ..db import Database, Migrations, Step, store_file
from ..errors import ArgumentError, DomainError
from ..suggestions.store import canonical_root
from .model import AgentKey, check_name, hash_secret, id_of, new_secret

STORE = "keys"

_V1 = [
    """CREATE TABLE keys (
        "id" TEXT PRIMARY KEY,
        "root" TEXT NOT NULL,
        "name" TEXT NOT NULL,
        "digest" TEXT NOT NULL,
        "created" REAL NOT NULL,
        "created_by" TEXT NOT NULL,
        "expires" REAL,
        "profiles" TEXT,
        "last_used" REAL,
        "revoked" REAL
    )""",
    # One key per name and workspace that is not revoked.
    'CREATE UNIQUE INDEX keys_live_name ON keys ("root", "name") WHERE "revoked" IS NULL',
]

MIGRATIONS = Migrations(STORE, [Step(_V1)])
PathLike = str | os.PathLike[str]


def _key(row: sqlite3.Row) -> AgentKey:
    profiles = json.loads(row["profiles"]) if row["profiles"] is not None else None
    return AgentKey(
        id=row["id"],
        name=row["name"],
        digest=row["digest"],
        created=row["created"],
        created_by=row["created_by"],
        expires=row["expires"],
        profiles=tuple(profiles) if profiles is not None else None,
        last_used=row["last_used"],
        revoked=row["revoked"],
    )


def check_profiles(profiles: Iterable[str] | None, known: Iterable[str] | None = None) -> tuple[str, ...] | None:
    """A key's profile limit: None or empty means every profile; each must be known (when given)."""
    if profiles is None:
        return None
    wanted = tuple(dict.fromkeys(p.strip() for p in profiles if p.strip()))
    if not wanted:
        return None
    if known is not None:
        allowed = set(known)
        unknown = [p for p in wanted if p not in allowed]
        if unknown:
            raise ArgumentError(
                f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(sorted(allowed))}", "profiles"
            )
    return wanted


class KeyStore:
    def __init__(self, path: PathLike | None, root: PathLike) -> None:
        """The keys of the workspace ``root`` in the SQLite file ``path`` (None: in memory)."""
        self._db = Database(path, MIGRATIONS)
        self.root = canonical_root(root)
        self.path = self._db.path
        self._data_version = self._version()

    @classmethod
    def in_data_dir(cls, data_dir: PathLike, root: PathLike) -> KeyStore:
        return cls(store_file(data_dir, STORE), root)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> KeyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writes

    def add(
        self,
        name: str,
        *,
        created_by: str,
        expires: float | None = None,
        profiles: Iterable[str] | None = None,
        replace: bool = False,
        now: float | None = None,
    ) -> tuple[AgentKey, str, AgentKey | None]:
        """Issue a key: (the record, its secret, the key it replaced). The secret exists only
        in this answer. A name held by a live key is a CONFLICT unless ``replace`` (that key
        is revoked in the same transaction); an expired one is replaced without asking."""
        check_name(name)
        now = time.time() if now is None else now
        if expires is not None and expires < now:
            raise ArgumentError("expires must not be in the past", "expires")
        limited = check_profiles(profiles)
        key_id, secret = new_secret()
        record = AgentKey(
            id=key_id,
            name=name,
            digest=hash_secret(secret),
            created=now,
            created_by=created_by,
            expires=expires,
            profiles=limited,
        )
        with self._db.transaction() as conn:
            old = conn.execute(
                'SELECT * FROM keys WHERE "root" = ? AND "name" = ? AND "revoked" IS NULL', (self.root, name)
            ).fetchone()
            replaced = _key(old) if old is not None else None
            if replaced is not None:
                if replaced.state(now) == "active" and not replace:
                    raise DomainError(
                        "CONFLICT",
                        f"a key named {name!r} exists (its secret was shown once, when it was issued); "
                        "revoke it first, or replace it (keys add --replace; replace: true over REST)",
                        name=name,
                    )
                conn.execute('UPDATE keys SET "revoked" = ? WHERE "id" = ?', (now, replaced.id))
                replaced = _key(conn.execute('SELECT * FROM keys WHERE "id" = ?', (replaced.id,)).fetchone())
            conn.execute(
                'INSERT INTO keys ("id", "root", "name", "digest", "created", "created_by", "expires", "profiles") '
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key_id,
                    self.root,
                    name,
                    record.digest,
                    now,
                    created_by,
                    expires,
                    json.dumps(list(limited)) if limited is not None else None,
                ),
            )
        return record, secret, replaced

    def revoke(self, name: str, now: float | None = None) -> AgentKey:
        """Revoke the live key named ``name`` (NOT_FOUND when there is none)."""
        now = time.time() if now is None else now
        with self._db.transaction() as conn:
            row = conn.execute(
                'SELECT * FROM keys WHERE "root" = ? AND "name" = ? AND "revoked" IS NULL', (self.root, name)
            ).fetchone()
            if row is None:
                raise DomainError("NOT_FOUND", f"no key named {name!r} (revoked keys stay revoked)", name=name)
            conn.execute('UPDATE keys SET "revoked" = ? WHERE "id" = ?', (now, row["id"]))
            return _key(conn.execute('SELECT * FROM keys WHERE "id" = ?', (row["id"],)).fetchone())

    def touch(self, used: Mapping[str, float]) -> None:
        """Record when keys (by id) were last used; never moves a time back."""
        if not used:
            return
        with self._db.transaction() as conn:
            conn.executemany(
                'UPDATE keys SET "last_used" = ? WHERE "id" = ? AND "root" = ? '
                'AND ("last_used" IS NULL OR "last_used" < ?)',
                [(t, key_id, self.root, t) for key_id, t in used.items()],
            )

    # ------------------------------------------------------------------ reads

    def list(self, include_revoked: bool = False) -> builtins.list[AgentKey]:
        sql = 'SELECT * FROM keys WHERE "root" = ?' + ("" if include_revoked else ' AND "revoked" IS NULL')
        return [_key(r) for r in self._db.read(sql + ' ORDER BY "created", "name"', (self.root,))]

    def get(self, key_id: str) -> AgentKey | None:
        rows = self._db.read('SELECT * FROM keys WHERE "id" = ? AND "root" = ?', (key_id, self.root))
        return _key(rows[0]) if rows else None

    def find(self, secret: str) -> AgentKey | None:
        """The key whose secret this is (in any state), or None."""
        key_id = id_of(secret)
        if key_id is None:
            return None
        key = self.get(key_id)
        return key if key is not None and key.matches(secret) else None

    def _version(self) -> int:
        return int(self._db.read("PRAGMA data_version")[0][0])

    def changed(self) -> bool:
        """Whether another connection (the command line, another server) wrote since the last call."""
        version = self._version()
        if version == self._data_version:
            return False
        self._data_version = version
        return True
