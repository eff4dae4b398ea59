"""Trust grants: a person lets one agent apply directly on a file or folder for a while."""

from __future__ import annotations

import time

from ..errors import DomainError
from ..suggestions import Grant
from ..suggestions.model import AgentKind
from .base import ReviewBase
from .policy import Author

MAX_GRANT_MINUTES = 7 * 24 * 60  # a week: a grant is for one long agent run, not for good


class GrantsMixin(ReviewBase):
    def grant(self, scope: str, agent: str, agent_kind: AgentKind, minutes: float, by: str) -> Grant:
        if not 0 < minutes <= MAX_GRANT_MINUTES:
            raise DomainError("INVALID_ARGUMENT", "minutes must be between 0 and one week", argument="minutes")
        now = time.time()
        g = Grant(
            scope=scope, agent=agent, agent_kind=agent_kind, created=now, expires=now + minutes * 60, created_by=by
        )
        self.store.add_grant(g)
        self.events.publish("grant", action="created", grant=g.to_json())
        return g

    def revoke(self, id: str) -> Grant:
        g = self.store.revoke_grant(id, time.time())
        if g is None:
            if any(x.id == id for x in self.store.list_grants()):
                raise DomainError("CONFLICT", f"grant {id!r} is already revoked", grantId=id)
            raise DomainError("NOT_FOUND", f"no grant {id!r}", grantId=id)
        self.events.publish("grant", action="revoked", grant=g.to_json())
        return g

    def grant_for(self, path: str, who: Author) -> Grant | None:
        return self.store.find_grant(path, who.session, who.name, time.time())
