"""Trust grants: a person lets one agent apply directly below a path for a while.

Every change made under a grant is still a checkpoint (the review service records it),
so granting trades the per-change review for a revert, never for invisibility.
"""

from __future__ import annotations

import time

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.suggestions import Grant as GrantRecord
from .base import ApiHandler
from .decisions import person_decision
from .models import Grant, GrantList, NewGrant


def grant_body(g: GrantRecord, now: float) -> Grant:
    # "active" saves every UI from re-deriving it from expires/revoked and its own clock.
    return Grant.model_validate({**g.to_json(), "active": g.active(now)})


class GrantsHandler(ApiHandler):
    """GET ``grants?active=`` (all, only active, or only ended ones); POST a new grant (201)."""

    query_args = {"GET": frozenset({"active"})}
    responses = {"GET": GrantList, "POST": Grant}

    @web.authenticated
    @authorized
    def get(self) -> None:
        active = self.query_bool("active")
        now = time.time()
        grants = self.services.reviews.store.list_grants()
        if active is not None:
            grants = [g for g in grants if g.active(now) == active]
        self.reply(GrantList(grants=[grant_body(g, now) for g in grants]))

    @web.authenticated
    @authorized
    @person_decision("grant.create")
    def post(self) -> None:
        body = self.json_body(NewGrant)
        g = self.services.reviews.grant(body.scope, body.agent, body.agentKind, body.minutes, by=self.decider())
        self.reply(grant_body(g, time.time()), status=201)


class GrantHandler(ApiHandler):
    """DELETE ``grants/{id}``: revoke it now (404 unknown, 409 already revoked)."""

    responses = {"DELETE": Grant}

    @web.authenticated
    @authorized
    @person_decision("grant.revoke")
    def delete(self, id: str) -> None:
        g = self.services.reviews.revoke(id)
        self.reply(grant_body(g, time.time()))
