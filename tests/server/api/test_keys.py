"""Agent keys through the REST API, as the person manages them: issue (the secret once, with
configs that use it), list (never a secret), replace, revoke; bad requests change nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ...conftest import LabServer, open_mcp_client
from .conftest import Api, assert_error

FIELDS = {"name", "id", "created", "createdBy", "expires", "profiles", "lastUsed", "revoked", "state"}


async def test_issue_list_and_revoke(mcp_lab: LabServer, api: Api, root: Path) -> None:
    r = await api.post("keys", {"name": "claude-code", "days": 30, "profiles": ["lab"]})
    assert r.status_code == 201, r.text
    assert r.headers["cache-control"] == "no-store"
    issued = r.json()
    key, secret = issued["key"], issued["secret"]
    assert set(key) == FIELDS and issued["replaced"] is None
    assert (key["name"], key["createdBy"], key["profiles"], key["state"]) == (
        "claude-code",
        LOCAL_USER,
        ["lab"],
        "active",
    )
    assert key["expires"] - key["created"] == pytest.approx(30 * 86400)
    assert secret.startswith(f"jml_{key['id']}_")
    # Every endpoint's configs carry the new key, and nothing carries the server's token.
    texts = [c["text"] for e in issued["endpoints"] for c in e["configs"]]
    assert texts and all(f"Bearer {secret}" in t for t in texts)
    assert mcp_lab.token not in json.dumps(issued)

    listed = await api.ok("GET", "keys")
    assert listed == {"keys": [key]}
    assert secret not in json.dumps(listed)

    async with open_mcp_client(mcp_lab.mcp_url(), {"Authorization": f"Bearer {secret}"}) as client:
        await client.list_tools()
    [used] = (await api.ok("GET", "keys"))["keys"]
    assert used["lastUsed"] is not None and used["lastUsed"] >= key["created"]

    revoked = await api.ok("DELETE", "keys/claude-code")
    assert (revoked["id"], revoked["state"]) == (key["id"], "revoked") and revoked["revoked"] <= time.time()
    assert (await api.ok("GET", "keys"))["keys"] == []
    assert [k["state"] for k in (await api.ok("GET", "keys", revoked="true"))["keys"]] == ["revoked"]
    assert_error(await api.delete("keys/claude-code"), 404, "NOT_FOUND")


async def test_a_name_is_held_by_one_live_key(mcp_lab: LabServer, api: Api, root: Path) -> None:
    first = await api.ok("POST", "keys", {"name": "bot"}, expect=201)
    assert_error(await api.post("keys", {"name": "bot"}), 409, "CONFLICT")
    second = await api.ok("POST", "keys", {"name": "bot", "replace": True}, expect=201)
    assert second["replaced"]["id"] == first["key"]["id"] and second["replaced"]["state"] == "revoked"
    assert [k["id"] for k in (await api.ok("GET", "keys"))["keys"]] == [second["key"]["id"]]


@pytest.mark.parametrize(
    ("body", "argument"),
    [
        ({"name": "has space"}, "name"),
        ({"name": "a/b"}, "name"),
        ({"name": ""}, "name"),
        ({"name": "ok", "days": 0}, "days"),
        ({"name": "ok", "days": -1}, "days"),
        ({"name": "ok", "days": "30"}, "days"),
        ({"name": "ok", "profiles": ["nope"]}, "profiles"),
        ({"name": "ok", "secret": "jml_mine"}, "secret"),
        ({}, "name"),
    ],
)
async def test_bad_requests_change_nothing(mcp_lab: LabServer, api: Api, root: Path, body: dict, argument: str) -> None:
    error = assert_error(await api.post("keys", body), 400, "INVALID_ARGUMENT")
    assert error["argument"] == argument
    assert (await api.ok("GET", "keys", revoked="true"))["keys"] == []


async def test_keys_are_the_workspaces(mcp_lab: LabServer, api: Api, root: Path) -> None:
    """A key issued for another root in the same data directory is neither listed nor accepted."""
    from jupyter_mcp_lab.core.keys import KeyStore

    elsewhere = root.parent / "elsewhere"
    elsewhere.mkdir()
    with KeyStore.in_data_dir(mcp_lab.extension.data_dir, elsewhere) as store:
        _, secret, _ = store.add("foreign", created_by="ada")
    assert (await api.ok("GET", "keys"))["keys"] == []
    r = await api.http.post(
        mcp_lab.mcp_url(),
        headers={"Authorization": f"Bearer {secret}", "Accept": "application/json, text/event-stream"},
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
    )
    assert r.status_code == 401
