"""Agent keys as records, and their secrets: how one is made, hashed and read back.

A secret is ``jml_<id>_<random>``: the id finds the record, the random part (256 bits) is
what proves possession. Only the SHA-256 of the whole secret is stored; a high-entropy
secret needs no slow hash, and the comparison is constant-time (``hmac.compare_digest``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..errors import ArgumentError

PREFIX = "jml_"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_ID = re.compile(r"[0-9a-f]{12}")
_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([mhdw])")
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ArgumentError(
            f"a key name is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit, not {name!r}",
            "name",
        )
    return name


def parse_expiry(text: str, now: float | None = None) -> float:
    """Unix time from ``30d``/``12h``/``90m``/``2w`` (from now) or an ISO date or date-time
    (UTC unless it says otherwise)."""
    now = time.time() if now is None else now
    raw = text.strip()
    duration = _DURATION.fullmatch(raw)
    if duration:
        seconds = float(duration.group(1)) * _UNIT_SECONDS[duration.group(2)]
        if seconds <= 0:
            raise ArgumentError(f"expires must be in the future, not {text!r}", "expires")
        return now + seconds
    try:
        when = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        raise ArgumentError(
            f"expires is a duration (30d, 12h, 90m, 2w) or an ISO date or date-time, not {text!r}", "expires"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    stamp = when.timestamp()
    if stamp <= now:
        raise ArgumentError(f"expires must be in the future, not {text!r}", "expires")
    return stamp


def new_secret() -> tuple[str, str]:
    """A new key's (id, secret)."""
    key_id = secrets.token_hex(6)
    return key_id, f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def id_of(secret: str) -> str | None:
    """The record id a secret names, or None when it is not shaped like a key."""
    if not secret.startswith(PREFIX):
        return None
    key_id, sep, rest = secret[len(PREFIX) :].partition("_")
    return key_id if sep and rest and _ID.fullmatch(key_id) else None


def looks_like_key(credential: str) -> bool:
    return credential.startswith(PREFIX)


@dataclass(frozen=True, kw_only=True)
class AgentKey:
    """A key as stored: never its secret, only the secret's hash."""

    id: str
    name: str
    digest: str = field(repr=False)
    created: float
    created_by: str
    expires: float | None = None
    profiles: tuple[str, ...] | None = None  # None: every profile the server serves
    last_used: float | None = None
    revoked: float | None = None

    def matches(self, secret: str) -> bool:
        return hmac.compare_digest(self.digest, hash_secret(secret))

    def state(self, now: float) -> str:
        """``active``, ``expired`` or ``revoked``."""
        if self.revoked is not None:
            return "revoked"
        if self.expires is not None and now >= self.expires:
            return "expired"
        return "active"

    def allows(self, profile: str) -> bool:
        return self.profiles is None or profile in self.profiles

    def to_json(self, now: float | None = None) -> dict[str, Any]:
        """The REST API's view (camelCase; no secret, no hash)."""
        now = time.time() if now is None else now
        return {
            "name": self.name,
            "id": self.id,
            "created": self.created,
            "createdBy": self.created_by,
            "expires": self.expires,
            "profiles": list(self.profiles) if self.profiles is not None else None,
            "lastUsed": self.last_used,
            "revoked": self.revoked,
            "state": self.state(now),
        }
