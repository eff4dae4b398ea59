"""Jupyter's auth as the MCP endpoint and the REST API both need it.

Jupyter answers a missing or wrong token on an API with 403 (and checks XSRF before
that); MCP clients and the UIs need 401 for "who are you?" and 403 for "not allowed".
And Jupyter's own identity providers invent a new anonymous user for every request
authenticated by token alone, so the person is named after the server's user there.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.base.handlers import JupyterHandler
from tornado import web

from ..surfaces.caller import LOCAL_USER


class AuthHandler(JupyterHandler):
    """A base for handlers that answer 401 themselves (see ``authenticate``)."""

    def check_xsrf_cookie(self) -> None:
        # Without a user the request is refused with 401; checking XSRF first would answer
        # 403 and hide that. Authenticated requests keep Jupyter's rules unchanged (cookie
        # auth needs the XSRF token, token auth does not).
        if getattr(self, "_jupyter_current_user", None) is None:
            return None
        return super().check_xsrf_cookie()

    async def authenticate(self, **prepare: Any) -> bool:
        """Jupyter's ``prepare`` (host check, user) without its 403 for a missing user;
        whether there is a user."""
        if not self.check_host():
            # Jupyter's error page asks for the user: set it before refusing.
            self.current_user = self._jupyter_current_user = None
            raise web.HTTPError(403, "Host not allowed")
        try:
            await super().prepare(**prepare)
        except web.HTTPError as exc:
            if exc.status_code != 403 or self.current_user is not None:
                raise
        return self.current_user is not None

    def person(self) -> tuple[str, str]:
        """(username, display name) of the person behind the request.

        Whoever holds the token or the login of a single-user server is its owner; other
        providers (JupyterHub) know real users.
        """
        if type(self.identity_provider).__module__.startswith("jupyter_server."):
            return LOCAL_USER, LOCAL_USER
        user = self.current_user
        name = str(getattr(user, "username", "") or getattr(user, "name", "") or LOCAL_USER)
        return name, str(getattr(user, "display_name", "") or name)
