"""GET ``status``: what the panel's connection card shows, and who is working right now."""

from __future__ import annotations

import time
from typing import Any

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.activity import ActivityEntry
from .base import ApiHandler

# An MCP session idle longer than this is closed by default (MCPLabApp.session_idle_timeout):
# older activity no longer stands for an agent at work.
RECENT_SECONDS = 30 * 60


def recent_agents(entries: list[ActivityEntry], now: float) -> list[dict[str, Any]]:
    """MCP sessions with tool calls in the last ``RECENT_SECONDS``, most recent first."""
    agents: dict[str, dict[str, Any]] = {}
    for e in entries:  # oldest first: the last entry of a session has its newest client/user
        if now - e.time > RECENT_SECONDS:
            continue
        a = agents.setdefault(e.session_id, {"session": e.session_id, "calls": 0})
        a.update(client=e.client, user=e.user, lastActivity=e.time)
        a["calls"] += 1
    return sorted(agents.values(), key=lambda a: a["lastActivity"], reverse=True)


class StatusHandler(ApiHandler):
    """Endpoints, policy and version; the agents seen recently and the pending count."""

    @web.authenticated
    @authorized
    def get(self) -> None:
        origin = f"{self.request.protocol}://{self.request.host}"
        s = self.services.settings
        counts = self.services.reviews.store.counts()
        activity = self.services.activity
        body = {
            "version": self.services.version,
            "running": self.mcp.running,
            "approval": s.approval,
            "read_only": s.read_only,
            "base_url": self.base_url,
            "endpoints": [
                {"profile": e.profile, "path": e.path, "url": origin + e.path} for e in self.services.endpoints
            ],
            "activity": len(activity),
            "agents": recent_agents(activity.since(0, limit=len(activity)), time.time()),
            "pending": sum(by_status.get("pending", 0) for by_status in counts.values()),
        }
        self.reply(body)
