"""The key store: issued once, stored hashed, listed without secrets, per workspace, revocable."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.keys import KeyStore, check_profiles, hash_secret


@pytest.fixture
def file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "keys.sqlite3"


def test_a_secret_is_stored_as_its_hash_only(file: Path, tmp_path: Path) -> None:
    with KeyStore(file, tmp_path) as store:
        key, secret, replaced = store.add("claude-code", created_by="ada")
    assert replaced is None
    assert secret.startswith(f"jml_{key.id}_") and len(secret) > 50
    raw = file.read_bytes() + (
        file.with_name(file.name + "-wal").read_bytes() if file.with_name(file.name + "-wal").exists() else b""
    )
    assert secret.encode() not in raw
    rows = sqlite3.connect(file).execute("SELECT digest FROM keys").fetchall()
    assert rows == [(hash_secret(secret),)]
    assert "digest" not in repr(key) and secret not in repr(key)
    assert set(key.to_json()) == {
        "name",
        "id",
        "created",
        "createdBy",
        "expires",
        "profiles",
        "lastUsed",
        "revoked",
        "state",
    }


def test_find_by_secret_only_with_the_whole_secret(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    key, secret, _ = store.add("a", created_by="ada")
    assert store.find(secret) == key
    assert store.find(secret[:-1]) is None
    assert store.find(secret + "x") is None
    other_id = "0" * 12 if key.id != "0" * 12 else "1" * 12
    assert store.find(secret.replace(key.id, other_id)) is None
    assert store.find("jml_") is None and store.find("jml_nothex_x") is None and store.find("token") is None


def test_names_are_checked_and_unique_while_live(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    for bad in ["", "a b", "../x", "-lead", "x" * 65, "a@b", "é"]:
        with pytest.raises(ArgumentError):
            store.add(bad, created_by="ada")
    first, _, _ = store.add("bot", created_by="ada")
    with pytest.raises(DomainError) as refused:
        store.add("bot", created_by="ada")
    assert refused.value.code == "CONFLICT"
    second, secret, replaced = store.add("bot", created_by="ada", replace=True)
    assert replaced is not None and replaced.id == first.id and replaced.state(time.time()) == "revoked"
    assert [k.id for k in store.list()] == [second.id]
    assert [k.id for k in store.list(include_revoked=True)] == [first.id, second.id]
    assert store.find(secret) == second


def test_an_expired_key_gives_its_name_up_without_asking(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    now = time.time()
    old, old_secret, _ = store.add("bot", created_by="ada", expires=now + 10, now=now)
    assert old.state(now + 11) == "expired"
    new, _, replaced = store.add("bot", created_by="ada", now=now + 20)
    assert replaced is not None and replaced.id == old.id
    assert store.find(old_secret) is not None and store.find(old_secret).state(now + 20) == "revoked"  # type: ignore[union-attr]
    assert new.state(now + 20) == "active"


def test_expiry_in_the_past_is_refused(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    with pytest.raises(ArgumentError):
        store.add("bot", created_by="ada", expires=time.time() - 60)


def test_revoke(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    key, secret, _ = store.add("bot", created_by="ada")
    revoked = store.revoke("bot")
    assert revoked.id == key.id and revoked.revoked is not None
    assert store.find(secret).state(time.time()) == "revoked"  # type: ignore[union-attr]
    with pytest.raises(DomainError) as again:
        store.revoke("bot")
    assert again.value.code == "NOT_FOUND"
    assert store.list() == []


def test_profiles(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    key, _, _ = store.add("bot", created_by="ada", profiles=["vmark", "lab", "vmark"])
    assert key.profiles == ("vmark", "lab")
    assert key.allows("lab") and not key.allows("vault")
    assert store.list()[0].profiles == ("vmark", "lab")
    everything, _, _ = store.add("all", created_by="ada", profiles=[])
    assert everything.profiles is None and everything.allows("vault")
    assert check_profiles(["lab"], ["lab", "vmark"]) == ("lab",)
    with pytest.raises(ArgumentError):
        check_profiles(["lab", "nope"], ["lab", "vmark"])


def test_keys_belong_to_one_workspace(file: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (tmp_path / "link").symlink_to(a)
    with KeyStore(file, a) as store_a, KeyStore(file, b) as store_b, KeyStore(file, tmp_path / "link") as via_link:
        key, secret, _ = store_a.add("bot", created_by="ada")
        assert store_b.find(secret) is None and store_b.list() == []
        with pytest.raises(DomainError):
            store_b.revoke("bot")
        store_b.add("bot", created_by="bob")  # the same name in another workspace
        assert via_link.find(secret) == key  # the canonical root: the link's target


def test_changed_sees_writes_of_other_connections_only(file: Path, tmp_path: Path) -> None:
    with KeyStore(file, tmp_path) as server, KeyStore(file, tmp_path) as cli:
        assert not server.changed()
        server.add("own", created_by="ada")
        assert not server.changed()  # its own writes: it knows
        cli.add("bot", created_by="ada")
        assert server.changed()
        assert not server.changed()
        cli.revoke("bot")
        assert server.changed()


def test_touch_keeps_the_latest_use(tmp_path: Path) -> None:
    store = KeyStore(None, tmp_path)
    key, _, _ = store.add("bot", created_by="ada")
    store.touch({key.id: 100.0})
    store.touch({key.id: 50.0})
    assert store.get(key.id).last_used == 100.0  # type: ignore[union-attr]
    store.touch({})
