"""Trust grants: a person lets one agent apply directly below a path for a while.

Every change made under a grant is still a checkpoint (the review service records it),
so granting trades the per-change review for a revert, never for invisibility.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from jupyter_server.auth.decorator import authorized
from pydantic import BaseModel, ConfigDict, Field
from tornado import web

from ...core.review.grants import MAX_GRANT_MINUTES
from ...core.suggestions import Grant
from .base import ApiHandler


def grant_json(g: Grant, now: float) -> dict[str, Any]:
    # "active" saves every UI from re-deriving it from expires/revoked and its own clock.
    return {**g.to_json(), "active": g.active(now)}


class NewGrant(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    scope: str = Field(max_length=4096, description='A file, a folder ("notes/") or "" for the whole workspace.')
    agent: str = Field(min_length=1, max_length=512, description="An MCP session id or an MCP client name.")
    agentKind: Literal["session", "client"]
    minutes: float = Field(gt=0, le=MAX_GRANT_MINUTES, allow_inf_nan=False)


class GrantsHandler(ApiHandler):
    """GET ``grants?active=`` (all, only active, or only ended ones); POST a new grant (201)."""

    query_args = {"GET": frozenset({"active"})}

    @web.authenticated
    @authorized
    def get(self) -> None:
        active = self.query_bool("active")
        now = time.time()
        grants = self.services.reviews.store.list_grants()
        if active is not None:
            grants = [g for g in grants if g.active(now) == active]
        self.reply({"grants": [grant_json(g, now) for g in grants]})

    @web.authenticated
    @authorized
    def post(self) -> None:
        body = self.json_body(NewGrant)
        g = self.services.reviews.grant(body.scope, body.agent, body.agentKind, body.minutes, by=self.decider())
        self.reply(grant_json(g, time.time()), status=201)


class GrantHandler(ApiHandler):
    """DELETE ``grants/{id}``: revoke it now (404 unknown, 409 already revoked)."""

    @web.authenticated
    @authorized
    def delete(self, id: str) -> None:
        g = self.services.reviews.revoke(id)
        self.reply(grant_json(g, time.time()))
