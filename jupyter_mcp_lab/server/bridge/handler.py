"""The bridge's websocket route, authenticated the way Jupyter's own websockets are.

Like the kernel and event sockets of jupyter_server: ``WebSocketMixin`` (pings, the
Origin check against Host and ``allow_origin``), Jupyter's identity provider (token in
the query or header, or the login cookie), the host check, and ``ws_authenticated``
(no user: 403 before the upgrade). The authorizer decides with the ``contents``
resource: a JupyterLab's presence shapes what agents see of the workspace.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import ws_authenticated
from jupyter_server.base.websocket import WebSocketMixin
from pydantic import ValidationError
from tornado import web
from tornado.websocket import WebSocketClosedError, WebSocketHandler

from ..._version import __version__
from .. import json_input
from ..auth import AuthHandler
from .messages import Hello, Presence, Response
from .registry import LabBridge, LabClient

log = logging.getLogger(__name__)

BRIDGE_ROUTE = "mcp-lab/api/bridge"
MAX_MESSAGE = 4 * 1024 * 1024  # a presence with 200 documents is a few tens of KB


class BridgeHandler(WebSocketMixin, WebSocketHandler, AuthHandler):
    auth_resource = "contents"

    def initialize(self, bridge: LabBridge) -> None:
        self.bridge = bridge
        self.client: LabClient | None = None

    def set_default_headers(self) -> None:
        # As Jupyter's kernel websocket: JupyterHandler's default headers (CSP, …) do not
        # apply to a websocket upgrade.
        return None

    def get_compression_options(self) -> dict[str, Any] | None:
        return self.settings.get("websocket_compression_options", None)

    @property
    def max_message_size(self) -> int:
        return MAX_MESSAGE

    @ws_authenticated
    async def get(self, *args: Any, **kwargs: Any) -> None:
        # The bridge answers Allow dialogs as the person: an agent key never opens it.
        self.refuse_agent_keys()
        authorized = await ensure_async(self.authorizer.is_authorized(self, self.current_user, "write", "contents"))
        if not authorized:
            raise web.HTTPError(403, "Not authorized to connect a JupyterLab to the MCP server.")
        if not self.bridge.running:
            raise web.HTTPError(503, "The server is stopping.")
        await super().get(*args, **kwargs)

    # ------------------------------------------------------------------ messages

    def _send(self, message: dict[str, Any]) -> None:
        self.write_message(json.dumps(message, ensure_ascii=False))

    def _close(self) -> None:
        self.close(1001, "server stopping")

    async def on_message(self, message: str | bytes) -> None:
        # Tornado awaits this before reading the next message: a client's messages are
        # handled in order (a presence is applied before the response that follows it).
        try:
            data = json_input.loads(message)
        except json_input.JSONInputError as exc:
            self._error(f"a message must be a JSON object; this one is {exc}")
            return
        kind = data.get("type") if isinstance(data, dict) else None
        try:
            if kind == "hello":
                self._hello(Hello.model_validate(data))
            elif self.client is None:
                self._error("send hello first")
            elif kind == "presence":
                await self.bridge.on_presence(self.client, Presence.model_validate(data))
            elif kind == "response":
                self.bridge.on_response(self.client, Response.model_validate(data))
            elif kind == "ping":
                self.bridge.seen(self.client)
            else:
                self._error(f"unknown message type {kind!r}")
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            self._error(f"invalid {kind} message: {where}: {first['msg']}")
        except Exception:
            # A bug here must not close the person's bridge: log it, answer, go on.
            log.exception("lab bridge: handling a %s message from %s failed", kind, self.client and self.client.label)
            self._error(f"the server failed to handle a {kind} message (its log has the details)")

    def _hello(self, hello: Hello) -> None:
        if self.client is not None:
            self._error("hello was already sent")
            return
        user, display_name = self.person()
        self.client = self.bridge.connect(hello, user, display_name, self._send, self._close)
        self._send(
            {
                "type": "welcome",
                "clientId": self.client.id,
                "window": self.client.label,
                "serverVersion": __version__,
            }
        )

    def _error(self, message: str) -> None:
        log.debug("lab bridge: protocol error from %s: %s", self.request.remote_ip, message)
        with contextlib.suppress(WebSocketClosedError):
            self._send({"type": "error", "message": message})

    def on_close(self) -> None:
        if self.client is not None:
            self.bridge.disconnect(self.client)
