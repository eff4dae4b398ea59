"""GET ``activity``: the tool calls agents made, for the panel's activity log.

The log is in memory and bounded (the last 1000 calls); entries are numbered by ``seq``,
and the live ones also arrive on the event stream as ``activity`` events, so a panel
fetches once, then listens, and after a reconnect fetches ``after`` the last seq it has.
"""

from __future__ import annotations

import re

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.activity import ANY_ERROR, OK
from ...core.errors import ArgumentError
from .base import ApiHandler
from .events import MAX_ID
from .models import ActivityEntry, ActivityList

# "ok", "error" (anything but ok), or one error code such as NOT_FOUND.
STATUS_FILTER = re.compile(rf"{OK}|{ANY_ERROR}|[A-Z][A-Z0-9_]{{0,63}}")
MAX_NAME = 512  # client names and tool names are short; a longer filter is a mistake


class ActivityHandler(ApiHandler):
    """GET ``activity?after=&limit=&client=&tool=&status=``: the newest matching calls, newest last."""

    query_args = {"GET": frozenset({"after", "limit", "client", "tool", "status"})}
    responses = {"GET": ActivityList}

    @web.authenticated
    @authorized
    def get(self) -> None:
        after = self.query_int("after", 0, 0, MAX_ID)
        limit = self.query_int("limit", 200, 1, 1000)
        client = self._name("client")
        tool = self._name("tool")
        status = self.query("status")
        if status is not None and not STATUS_FILTER.fullmatch(status):
            raise ArgumentError(f"status must be ok, error or an error code (NOT_FOUND, ...), not {status!r}", "status")
        log = self.services.activity
        found = log.select(after=after, limit=limit, client=client, tool=tool, status=status)
        entries = [ActivityEntry.model_validate(e.to_json()) for e in found]
        self.reply(ActivityList(entries=entries, count=len(found), latest=log.latest))

    def _name(self, name: str) -> str | None:
        raw = self.query(name)
        if raw is not None and not 0 < len(raw) <= MAX_NAME:
            raise ArgumentError(f"{name} must be 1 to {MAX_NAME} characters (leave it out for any)", name)
        return raw
