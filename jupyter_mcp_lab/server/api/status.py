"""GET ``status``: what the panel's connection card shows, and who is working right now."""

from __future__ import annotations

import time

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.activity import ActivityEntry
from ...core.recovery import RecoveryReport
from ...core.suggestions import Retention
from ..client_config import KEY_PLACEHOLDER, configs
from .base import ApiHandler
from .models import Agent, Endpoint, RecoveredFile, Recovery, Status, Store

# Where the server's start leaves its recovery report (MCPLabApp puts it in the web app's settings).
RECOVERY_SETTING = "jupyter_mcp_lab_recovery"

# An MCP session idle longer than this is closed by default (MCPLabApp.session_idle_timeout):
# older activity no longer stands for an agent at work.
RECENT_SECONDS = 30 * 60
# The server's name in the clients' configs; other profiles get theirs appended.
SERVER_NAME = "jupyter-lab"


def recent_agents(entries: list[ActivityEntry], now: float) -> list[Agent]:
    """MCP sessions with tool calls in the last ``RECENT_SECONDS``, most recent first."""
    agents: dict[str, Agent] = {}
    for e in entries:  # oldest first: the last entry of a session has its newest client/user
        if now - e.time > RECENT_SECONDS or e.actor == "person":  # the person's decisions are no agent
            continue
        calls = agents[e.session_id].calls if e.session_id in agents else 0
        agents[e.session_id] = Agent(
            session=e.session_id,
            client=e.client,
            label=e.label or e.client,
            user=e.user,
            lastActivity=e.time,
            calls=calls + 1,
        )
    return sorted(agents.values(), key=lambda a: a.lastActivity, reverse=True)


def server_name(profile: str) -> str:
    return SERVER_NAME if profile == "lab" else f"{SERVER_NAME}-{profile}"


def endpoints_with_configs(handler: ApiHandler, credential: str) -> list[Endpoint]:
    """Every endpoint at the address the person reached, with client configs sending ``credential``."""
    origin = f"{handler.request.protocol}://{handler.request.host}"
    return [
        Endpoint.model_validate(
            {
                "profile": e.profile,
                "path": e.path,
                "url": origin + e.path,
                "configs": configs(server_name(e.profile), origin + e.path, credential),
            }
        )
        for e in handler.services.endpoints
    ]


class StatusHandler(ApiHandler):
    """Endpoints (with client configs), policy and version; recent agents and the pending count."""

    responses = {"GET": Status}

    @web.authenticated
    @authorized
    def get(self) -> None:
        s = self.services.settings
        counts = self.services.reviews.store.counts()
        activity = self.services.activity
        # The configs never carry the server's token: an agent gets a key of its own (POST
        # keys answers configs with the new key in them).
        endpoints = endpoints_with_configs(self, KEY_PLACEHOLDER)
        body = Status(
            version=self.services.version,
            running=self.mcp.running,
            approval=s.approval,
            read_only=s.read_only,
            base_url=self.base_url,
            endpoints=endpoints,
            tokenPlaceholder=KEY_PLACEHOLDER,
            activity=len(activity),
            agents=recent_agents(activity.since(0, limit=len(activity)), time.time()),
            pending=sum(by_status.get("pending", 0) for by_status in counts.values()),
            store=self.store_status(),
            recovery=self.recovery(),
        )
        self.set_header("Cache-Control", "no-store")  # who is working, and their session ids
        self.reply(body)

    def store_status(self) -> Store:
        store = self.services.reviews.store
        retention = store.retention or Retention()
        return Store.model_validate(
            {
                "path": str(store.path or ""),
                **store.usage(),
                "retention": {
                    "maxCount": retention.max_count,
                    "maxAgeDays": retention.max_age_days,
                    "maxBytes": retention.max_bytes,
                },
                "quarantined": store.quarantined(),
            }
        )

    def recovery(self) -> Recovery:
        report = self.settings.get(RECOVERY_SETTING) or RecoveryReport()
        return Recovery(
            files=[RecoveredFile(path=i.path, action=i.action, detail=i.detail, kept=i.kept) for i in report.items],
            complete=report.complete,
        )
