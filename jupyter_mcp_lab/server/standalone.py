"""Standalone HTTP: the same surfaces without Jupyter, under uvicorn, behind a token.

For machines without a Jupyter server (or clients that must not share its port). Binds
loopback by default, keeps the SDK's DNS-rebinding check on, and requires
``Authorization: Bearer <token>`` (or ``token <token>``) exactly like Jupyter does.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import AsyncIterator
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..ops.context import Endpoint, Services
from ..surfaces.caller import LOCAL_USER, SCOPE_USER_KEY
from .endpoints import MCPEndpoints
from .routes import profile_path


def endpoint_path(profile: str) -> str:
    """A profile's endpoint in standalone mode (no base URL): ``routes.profile_path`` from "/"."""
    return "/" + profile_path(profile)


def bearer_token(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() in ("bearer", "token") and token.strip():
                return token.strip()
    return None


class TokenGate:
    """ASGI wrapper: refuse requests without the token (401 + WWW-Authenticate)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = bearer_token(scope["headers"])
        if given is None or not hmac.compare_digest(given.encode(), self.token.encode()):
            body = json.dumps({"error": "unauthorized", "message": "Send 'Authorization: Bearer <token>'."}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (
                            b"www-authenticate",
                            b'Bearer realm="jupyter-mcp-lab", error="invalid_token"',
                        ),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        scope[SCOPE_USER_KEY] = {"username": LOCAL_USER, "display_name": LOCAL_USER}
        scope["user"] = AuthenticatedUser(AccessToken(token="", client_id=LOCAL_USER, scopes=[]))
        await self.app(scope, receive, send)


class _Mount:
    """An ASGI endpoint that hands the request to one profile's session manager."""

    def __init__(self, endpoints: MCPEndpoints, profile: str) -> None:
        self.endpoints = endpoints
        self.profile = profile

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.endpoints.managers[self.profile].handle_request(scope, receive, send)


def create_app(services: Services, host: str, port: int, token: str) -> Starlette:
    hosts = [f"{host}:{port}", f"127.0.0.1:{port}", f"localhost:{port}"]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{h}" for h in hosts],
    )
    profiles = list(services.settings.profiles)
    endpoints = MCPEndpoints(services, profiles, security)
    services.endpoints = [
        Endpoint(profile=p, path=endpoint_path(p), url=f"http://{host}:{port}{endpoint_path(p)}") for p in profiles
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await endpoints.start()
        try:
            yield
        finally:
            await endpoints.stop()

    routes = [
        Route(
            endpoint_path(p),
            endpoint=TokenGate(_Mount(endpoints, p), token),
            methods=["GET", "POST", "DELETE"],
        )
        for p in profiles
    ]
    return Starlette(routes=routes, lifespan=lifespan)
