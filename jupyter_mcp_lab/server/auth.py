"""Jupyter's auth as the MCP endpoint and the REST API both need it.

Jupyter answers a missing or wrong token on an API with 403 (and checks XSRF before
that); MCP clients and the UIs need 401 for "who are you?" and 403 for "not allowed".
And Jupyter's own identity providers invent a new anonymous user for every request
authenticated by token alone, so the person is named after the server's user there.

Every request still goes through Jupyter's checks; two of their answers are remembered
because they cost more than the rest of a small MCP call's host work (see ``check_host``
and ``_token_user_key``).
"""

from __future__ import annotations

from typing import Any

from jupyter_server.auth.identity import IdentityProvider, PasswordIdentityProvider, User
from jupyter_server.base.handlers import JupyterHandler
from tornado import web

from ..core.keys import looks_like_key
from ..surfaces.caller import LOCAL_USER
from .hub import refused_hub_user

# Per-application memories, kept in the Tornado settings so that two servers in one process
# never share them.
ALLOWED_HOSTS_KEY = "jupyter_mcp_lab_allowed_hosts"
TOKEN_USERS_KEY = "jupyter_mcp_lab_token_users"
MEMORY_LIMIT = 32  # entries; emptied when full (a few hosts and header spellings in practice)

# Jupyter's own providers, whose answer for a token request without cookies depends only on
# the server's token and the Authorization header. Subclasses (JupyterHub's, a site's) may
# check more (expiry, revocation): they are asked every time.
PLAIN_TOKEN_PROVIDERS = (IdentityProvider, PasswordIdentityProvider)


def presented_key(headers: Any) -> str | None:
    """The agent key in an ``Authorization: Bearer <key>`` (or ``token <key>``) header, or None.

    Keys travel in the header only: a URL's query string ends up in logs and histories.
    """
    scheme, _, credential = str(headers.get("Authorization", "")).partition(" ")
    credential = credential.strip()
    if scheme.lower() in ("bearer", "token") and looks_like_key(credential):
        return credential
    return None


class AuthHandler(JupyterHandler):
    """A base for handlers that answer 401 themselves (see ``authenticate``)."""

    #: Reuse the user a token header authenticated before (``_token_user_key``). Only for
    #: handlers that set no login cookie: Jupyter's provider sets one on the way, which a
    #: remembered answer would skip.
    remember_token_users = False

    def refuse_agent_keys(self) -> None:
        """Answer 403 to a request carrying an agent key: a key opens the MCP endpoints and
        nothing else, even beside a login cookie of the person (whose cookie a program
        acting with a key must not borrow)."""
        if presented_key(self.request.headers) is not None:
            raise web.HTTPError(403, "An agent key opens the MCP endpoints only; this route needs the person's login.")

    def refuse_hub_outsider(self) -> None:
        """Answer 403 to a credential JupyterHub knows but refused this server to (another
        user's token or login, a token without access to this server): it is no stranger to
        ask "who are you?" (401), and an MCP client would start an OAuth dance at a 401."""
        who = refused_hub_user(self)
        if who is not None:
            raise web.HTTPError(403, f"JupyterHub's {who} has no access to this server; its owner's credential does.")

    def check_xsrf_cookie(self) -> None:
        # Without a user the request is refused with 401; checking XSRF first would answer
        # 403 and hide that. Authenticated requests keep Jupyter's rules unchanged (cookie
        # auth needs the XSRF token, token auth does not).
        if getattr(self, "_jupyter_current_user", None) is None:
            return None
        return super().check_xsrf_cookie()

    def check_host(self) -> bool:
        # Jupyter's answer depends on the Host header and the server's settings alone (a regex
        # and an address parse, twice per request: ``authenticate`` and ``prepare``). Only
        # allowed hosts are remembered: a refused one is logged every time, as Jupyter does,
        # and a host naming a UNIX socket path depends on the file system.
        host = self.request.host
        if self.settings.get("allow_remote_access", False):
            return True
        allowed: dict[str, bool] = self.settings.setdefault(ALLOWED_HOSTS_KEY, {})
        if host in allowed:
            return True
        ok = bool(super().check_host())
        if ok and not host.startswith("/") and "%" not in host:
            if len(allowed) >= MEMORY_LIMIT:
                allowed.clear()
            allowed[host] = True
        return ok

    def _token_user_key(self) -> tuple[str, str] | None:
        """The inputs that decide Jupyter's answer for this request, when nothing else does.

        With Jupyter's own provider, a request with no cookie and no ``token`` argument is
        authenticated by comparing its Authorization header with the server's token; the
        user is a fresh anonymous one each time. The same header against the same token
        gets the same answer, so a user it authenticated before can be reused.
        """
        if not self.remember_token_users:
            return None
        provider = self.identity_provider
        if type(provider) not in PLAIN_TOKEN_PROVIDERS:
            return None
        token = provider.token
        request = self.request
        header = request.headers.get("Authorization")
        if not token or not header or "Cookie" in request.headers or "token" in request.query_arguments:
            return None
        return token, header

    async def authenticate(self, **prepare: Any) -> bool:
        """Jupyter's ``prepare`` (host check, user) without its 403 for a missing user;
        whether there is a user."""
        if not self.check_host():
            # Jupyter's error page asks for the user: set it before refusing.
            self.current_user = self._jupyter_current_user = None
            raise web.HTTPError(403, "Host not allowed")
        key = self._token_user_key()
        users: dict[tuple[str, str], User] = self.settings.setdefault(TOKEN_USERS_KEY, {}) if key else {}
        known = users.get(key) if key else None
        if known is not None:
            # Jupyter's provider returns a user already set on the handler as it is; prepare
            # still runs its CORS and XSRF steps (token-authenticated: no XSRF token needed).
            self._jupyter_current_user = known
            self._token_authenticated = True
        try:
            await super().prepare(**prepare)
        except web.HTTPError as exc:
            if exc.status_code != 403 or self.current_user is not None:
                raise
        user = self.current_user
        if key and known is None and user is not None and getattr(self, "_token_authenticated", False):
            if len(users) >= MEMORY_LIMIT:
                users.clear()
            users[key] = user
        return user is not None

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
