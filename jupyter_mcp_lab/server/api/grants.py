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

from ...core.errors import DomainError
from ...core.suggestions import Grant
from .base import ApiHandler

MAX_MINUTES = 7 * 24 * 60  # the review service's limit: one week


def grant_json(g: Grant, now: float) -> dict[str, Any]:
    # "active" saves every UI from re-deriving it from expires/revoked and its own clock.
    return {**g.to_json(), "active": g.active(now)}


def scope_key(scope: str) -> str:
    """A grant's scope in the store's form: root-relative, a folder keeps its trailing "/".

    ``..`` is refused rather than resolved: a grant is a promise about exactly the
    documents it names, and one that climbs around the tree names something else.
    """
    if "\0" in scope:
        raise DomainError("INVALID_PATH", "scope contains a NUL character", argument="scope")
    parts = [p for p in scope.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise DomainError("INVALID_PATH", f"scope {scope!r} contains '..'", argument="scope")
    key = "/".join(parts)
    return key + "/" if key and scope.endswith("/") else key


class NewGrant(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    scope: str = Field(max_length=4096, description='A file, a folder ("notes/") or "" for the whole workspace.')
    agent: str = Field(min_length=1, max_length=512, description="An MCP session id or an MCP client name.")
    agentKind: Literal["session", "client"]
    minutes: float = Field(gt=0, le=MAX_MINUTES, allow_inf_nan=False)


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
        g = self.services.reviews.grant(
            scope_key(body.scope), body.agent, body.agentKind, body.minutes, by=self.person()
        )
        self.reply(grant_json(g, time.time()), status=201)


class GrantHandler(ApiHandler):
    """DELETE ``grants/{id}``: revoke it now (404 unknown, 409 already revoked)."""

    @web.authenticated
    @authorized
    def delete(self, id: str) -> None:
        review = self.services.reviews
        try:
            g = review.revoke(id)
        except DomainError as exc:
            if exc.code == "NOT_FOUND" and any(g.id == id for g in review.store.list_grants()):
                raise DomainError("CONFLICT", f"grant {id} was revoked already", grantId=id) from None
            raise
        self.reply(grant_json(g, time.time()))
