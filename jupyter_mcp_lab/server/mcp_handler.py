"""The Tornado handler for the MCP endpoints: an agent key or Jupyter auth, then the SDK's session manager.

An agent key (``Authorization: Bearer jml_...``) opens these endpoints and nothing else;
the session's identity is the key's name. The person's own Jupyter credential (token
header, cookie with XSRF, JupyterHub tokens) opens them too unless the operator said no
(``MCPLabApp.allow_jupyter_credential``): the kernel helpers use it. An unauthenticated
request gets 401 with ``WWW-Authenticate`` (MCP clients expect that) and never reaches a
tool. Who is calling is put into the ASGI scope: tools see it, and the SDK binds each MCP
session to the principal (the key, or the person) that opened it.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from jupyter_server.prometheus.metrics import HTTP_REQUEST_DURATION_SECONDS
from tornado import web

from ..core.keys import AgentKey
from ..surfaces.caller import SCOPE_USER_KEY
from .asgi_bridge import TornadoASGIBridge, build_scope
from .auth import AuthHandler, presented_key
from .endpoints import MCPEndpoints
from .key_auth import AgentKeys, key_principal, person_principal, refusal

AUTH_RESOURCE = "contents"  # MCP tools act on the contents of the workspace


@functools.lru_cache(maxsize=64)
def _duration_metric(method: str, handler: str, status: int) -> Any:
    """Jupyter's request-duration histogram for these labels (as ``prometheus_log_method``
    records it), looked up once: finding a labelled child costs twice the observation."""
    return HTTP_REQUEST_DURATION_SECONDS.labels(method=method, handler=handler, status_code=status)


class MCPHandler(AuthHandler):
    """``{base_url}mcp`` and ``{base_url}mcp-lab/<profile>/mcp``."""

    auth_resource = AUTH_RESOURCE
    remember_token_users = True  # sets no login cookie (below)

    def initialize(
        self,
        endpoints: MCPEndpoints,
        profile: str | None = None,
        keys: AgentKeys | None = None,
        allow_jupyter_credential: bool = True,
    ) -> None:
        self.endpoints = endpoints
        self.fixed_profile = profile
        self.keys = keys
        self.allow_jupyter_credential = allow_jupyter_credential
        self.agent_key: AgentKey | None = None
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
        secret = presented_key(self.request.headers)
        if secret is not None:
            await self._prepare_key(secret)
            return
        if not await self.authenticate(_redirect_to_login=False):
            self.refuse_hub_outsider()
            self._unauthorized()
            raise web.Finish()
        if not self.allow_jupyter_credential:
            raise web.HTTPError(
                403, "This server opens its MCP endpoints to agent keys only: ask the person for a key (keys add NAME)."
            )

    async def _prepare_key(self, secret: str) -> None:
        """An agent key: never a Jupyter identity (``current_user`` stays None), checked here
        and against the profile in ``_serve``."""
        # Jupyter's handler context, Host check and CORS headers, as its own prepare does them.
        if not self.check_host():
            self.current_user = self._jupyter_current_user = None
            raise web.HTTPError(403, "Host not allowed")
        self.current_user = self._jupyter_current_user = None
        self.set_cors_headers()
        now = time.time()
        key = self.keys.authenticate(secret, now) if self.keys is not None else None
        why = refusal(key, None, now)
        if why is not None:
            self._unauthorized(why.message)
            raise web.Finish()
        self.agent_key = key

    def _unauthorized(self, message: str = "") -> None:
        self.set_status(401)
        self.set_header("WWW-Authenticate", 'Bearer realm="jupyter", error="invalid_token"')
        self._json_error(
            "unauthorized",
            message or "An agent key or the person's Jupyter token is required: send 'Authorization: Bearer <key>'.",
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
        key = self.agent_key
        if key is not None:
            why = refusal(key, name, time.time())
            if why is not None:
                raise web.HTTPError(why.status, why.message)
            identity = {"username": key.created_by, "display_name": key.created_by, "key": key.name}
            # The SDK refuses a session to anyone but the principal that opened it.
            user = key_principal(key.id)
        else:
            action = "read" if self.request.method == "GET" else "write"
            if not self.authorizer.is_authorized(self, self.current_user, action, AUTH_RESOURCE):
                raise web.HTTPError(403, "Not authorized to use the MCP endpoint.")
            username, display_name = self.person()
            identity = {"username": username, "display_name": display_name}
            user = person_principal(username)
        scope = build_scope(self, self.request.path, {SCOPE_USER_KEY: identity, "user": user})
        self._bridge = TornadoASGIBridge(self, scope)
        await self._bridge.run(manager.handle_request)
        if key is not None and self.keys is not None and "Mcp-Session-Id" not in self.request.headers:
            opened = self._headers.get("Mcp-Session-Id")
            if opened and self.get_status() < 400:
                self.keys.bind(key, name, opened)
        if not self._finished:
            self.finish()
