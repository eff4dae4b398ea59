"""REST routes for the UIs under ``{base_url}mcp-lab/api/``."""

from __future__ import annotations

import json

from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web

from ..ops.context import Services
from .endpoints import MCPEndpoints


class StatusHandler(APIHandler):
    """What the panel's connection card shows: endpoints, policy, version."""

    auth_resource = "contents"

    def initialize(self, services: Services, endpoints: MCPEndpoints) -> None:
        self.services = services
        self.mcp = endpoints

    @web.authenticated
    def get(self) -> None:
        origin = f"{self.request.protocol}://{self.request.host}"
        s = self.services.settings
        body = {
            "version": self.services.version,
            "running": self.mcp.running,
            "approval": s.approval,
            "read_only": s.read_only,
            "base_url": self.base_url,
            "endpoints": [
                {"profile": e.profile, "path": e.path, "url": origin + e.path} for e in self.services.endpoints
            ],
            "activity": len(self.services.activity),
        }
        self.finish(json.dumps(body))


def api_path(*parts: str) -> str:
    return url_path_join("mcp-lab", "api", *parts)
