"""Agent keys, as the person manages them: list, issue (the secret is answered once), revoke.

These are the person's routes like every other one here: an agent key is refused on them
(``ApiHandler.prepare``), so no agent can issue itself another key or keep its own alive.
Revoking ends the key's open MCP sessions before the answer.
"""

from __future__ import annotations

import time

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.errors import DomainError
from ..key_auth import KEYS_SETTING, AgentKeys
from .base import ApiHandler
from .models import AgentKey, IssuedKey, KeyList, NewKey
from .status import endpoints_with_configs


class KeysBase(ApiHandler):
    @property
    def keys(self) -> AgentKeys:
        keys = self.settings.get(KEYS_SETTING)
        if keys is None:
            raise DomainError("INTERNAL", "agent keys are not set up on this server")
        return keys


class KeysHandler(KeysBase):
    """GET ``keys?revoked=`` (live keys; with revoked ones too); POST a new key (201)."""

    query_args = {"GET": frozenset({"revoked"})}
    responses = {"GET": KeyList, "POST": IssuedKey}

    @web.authenticated
    @authorized
    def get(self) -> None:
        self.keys.flush_used()
        now = time.time()
        keys = self.keys.store.list(include_revoked=bool(self.query_bool("revoked")))
        self.set_header("Cache-Control", "no-store")
        self.reply(KeyList(keys=[AgentKey.model_validate(k.to_json(now)) for k in keys]))

    @web.authenticated
    @authorized
    def post(self) -> None:
        body = self.json_body(NewKey)
        now = time.time()
        key, secret, replaced = self.keys.issue(
            body.name,
            created_by=self.decider(),
            expires=now + body.days * 86400 if body.days is not None else None,
            profiles=body.profiles,
            replace=body.replace,
            now=now,
        )
        self.set_header("Cache-Control", "no-store")  # the one answer carrying the secret
        self.reply(
            IssuedKey(
                key=AgentKey.model_validate(key.to_json(now)),
                secret=secret,
                replaced=AgentKey.model_validate(replaced.to_json(now)) if replaced is not None else None,
                endpoints=endpoints_with_configs(self, secret),
            ),
            status=201,
        )


class KeyHandler(KeysBase):
    """DELETE ``keys/{name}``: revoke the live key of that name and end its MCP sessions (404: none)."""

    responses = {"DELETE": AgentKey}

    @web.authenticated
    @authorized
    async def delete(self, name: str) -> None:
        key = await self.keys.revoke(name)
        self.reply(AgentKey.model_validate(key.to_json()))
