"""The Tornado handler for the MCP endpoints: Jupyter auth, then the SDK's session manager.

Auth is Jupyter's (token header, cookie with XSRF, JupyterHub tokens). An unauthenticated
request gets 401 with ``WWW-Authenticate`` (MCP clients expect that) and never reaches a
tool. The Jupyter user is put into the ASGI scope: tools see who is calling, and the SDK
binds each MCP session to the user who opened it.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from jupyter_server.prometheus.metrics import HTTP_REQUEST_DURATION_SECONDS
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from tornado import web

from ..surfaces.caller import SCOPE_USER_KEY
from .asgi_bridge import TornadoASGIBridge, build_scope
from .auth import AuthHandler
from .endpoints import MCPEndpoints

AUTH_RESOURCE = "contents"  # MCP tools act on the contents of the workspace


@functools.lru_cache(maxsize=256)
def principal(username: str) -> AuthenticatedUser:
    """The SDK's user for a Jupyter user: read only, so one per name (not a model per request)."""
    return AuthenticatedUser(AccessToken(token="", client_id=username, scopes=[]))


@functools.lru_cache(maxsize=64)
def _duration_metric(method: str, handler: str, status: int) -> Any:
    """Jupyter's request-duration histogram for these labels (as ``prometheus_log_method``
    records it), looked up once: finding a labelled child costs twice the observation."""
    return HTTP_REQUEST_DURATION_SECONDS.labels(method=method, handler=handler, status_code=status)


class MCPHandler(AuthHandler):
    """``{base_url}mcp`` and ``{base_url}mcp-lab/<profile>/mcp``."""

    auth_resource = AUTH_RESOURCE
    remember_token_users = True  # sets no login cookie (below)

    def initialize(self, endpoints: MCPEndpoints, profile: str | None = None) -> None:
        self.endpoints = endpoints
        self.fixed_profile = profile
        self._bridge: TornadoASGIBridge | None = None

    def set_secure_cookie(self, *args: Any, **kwargs: Any) -> None:
        # MCP clients send the token with every request. A login cookie would be signed here
        # and its signature checked on every later request, for nothing.
        return None

    set_signed_cookie = set_secure_cookie

    def _log(self) -> None:
        # The hot path stays quiet: a successful call only feeds the metrics; Jupyter's
        # request log builds a discarded debug record per call otherwise.
        status = self.get_status()
        if status < 300:
            handler = f"{type(self).__module__}.{type(self).__name__}"
            _duration_metric(self.request.method or "", handler, status).observe(self.request.request_time())
        else:
            super()._log()

    async def prepare(self) -> None:  # type: ignore[override]
        if not await self.authenticate(_redirect_to_login=False):
            self._unauthorized()
            raise web.Finish()

    def _unauthorized(self) -> None:
        self.set_status(401)
        self.set_header("WWW-Authenticate", 'Bearer realm="jupyter", error="invalid_token"')
        self._json_error(
            "unauthorized",
            "A Jupyter token is required: send 'Authorization: token <token>' or 'Authorization: Bearer <token>'.",
        )

    def _json_error(self, code: str, message: str) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": code, "message": message}))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        # MCP clients read JSON, not Jupyter's HTML error pages.
        exc = kwargs.get("exc_info", (None, None, None))[1]
        message = exc.log_message if isinstance(exc, web.HTTPError) and exc.log_message else self._reason
        self._json_error(self._reason.lower().replace(" ", "_"), message)

    def on_connection_close(self) -> None:
        if self._bridge is not None:
            self._bridge.on_connection_close()

    async def get(self, profile: str | None = None) -> None:
        await self._serve(profile)

    async def post(self, profile: str | None = None) -> None:
        await self._serve(profile)

    async def delete(self, profile: str | None = None) -> None:
        await self._serve(profile)

    async def _serve(self, profile: str | None) -> None:
        name = self.fixed_profile or profile or "lab"
        manager = self.endpoints.managers.get(name)
        if manager is None:
            raise web.HTTPError(404, f"No MCP profile {name!r} is enabled on this server.")
        if not self.endpoints.running:
            self.set_header("Retry-After", "2")
            raise web.HTTPError(503, "The MCP endpoints are starting or stopping; retry shortly.")
        action = "read" if self.request.method == "GET" else "write"
        if not self.authorizer.is_authorized(self, self.current_user, action, AUTH_RESOURCE):
            raise web.HTTPError(403, "Not authorized to use the MCP endpoint.")
        username, display_name = self.person()
        scope = build_scope(
            self,
            self.request.path,
            {
                SCOPE_USER_KEY: {"username": username, "display_name": display_name},
                # The SDK refuses a session to anyone but the principal that opened it.
                "user": principal(username),
            },
        )
        self._bridge = TornadoASGIBridge(self, scope)
        await self._bridge.run(manager.handle_request)
        if not self._finished:
            self.finish()
