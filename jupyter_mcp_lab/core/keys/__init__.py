"""Agent keys: named, expiring, revocable credentials a person issues to each agent.

A key opens the MCP endpoints (``server.key_auth``) and nothing else; it is stored hashed,
per workspace, in the data directory (``KeyStore``).
"""

from __future__ import annotations

from .model import PREFIX, AgentKey, check_name, hash_secret, looks_like_key, parse_expiry
from .store import STORE, KeyStore, check_profiles

__all__ = [
    "PREFIX",
    "STORE",
    "AgentKey",
    "KeyStore",
    "check_name",
    "check_profiles",
    "hash_secret",
    "looks_like_key",
    "parse_expiry",
]
