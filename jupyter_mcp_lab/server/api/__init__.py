"""The REST + events API for the UIs, under ``{base_url}mcp-lab/api/``.

One route table: the patterns below (relative to the namespace) are the whole API, and
``openapi.yaml`` beside this package describes each of them. UIs (the JupyterLab panel,
notebook widgets, Panel) read and decide through these routes, never through core objects.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.utils import url_path_join

from ...ops.context import Services
from ..endpoints import MCPEndpoints
from .activity import ActivityHandler
from .base import ApiHandler
from .checkpoints import CheckpointHandler, CheckpointsHandler, RevertHandler
from .events import EventsHandler
from .grants import GrantHandler, GrantsHandler
from .keys import KeyHandler, KeysHandler
from .openapi import OpenAPIHandler
from .outline import OutlineHandler
from .reopen import ReopenHandler
from .status import StatusHandler
from .suggestions import (
    AcceptAllHandler,
    DecideHandler,
    ReapplyHandler,
    RejectAllHandler,
    SuggestionHandler,
    SuggestionsHandler,
)

NAMESPACE = "mcp-lab/api"

# Ids are opaque: any segment routes, and an unknown id answers a JSON 404 from its handler.
ID = r"(?P<id>[^/]+)"

# Order matters where patterns overlap: the fixed ``accept-all``/``reject-all`` come before
# ``suggestions/{id}``, so a GET on them is 405 rather than "no suggestion 'accept-all'".
ROUTES: list[tuple[str, type[ApiHandler]]] = [
    ("status", StatusHandler),
    ("suggestions", SuggestionsHandler),
    ("suggestions/accept-all", AcceptAllHandler),
    ("suggestions/reject-all", RejectAllHandler),
    (rf"suggestions/{ID}/(?P<action>accept|reject)", DecideHandler),
    (rf"suggestions/{ID}/reopen", ReopenHandler),
    (rf"suggestions/{ID}/reapply", ReapplyHandler),
    (rf"suggestions/{ID}", SuggestionHandler),
    ("checkpoints", CheckpointsHandler),
    (rf"checkpoints/{ID}/revert", RevertHandler),
    (rf"checkpoints/{ID}", CheckpointHandler),
    ("grants", GrantsHandler),
    (rf"grants/{ID}", GrantHandler),
    ("keys", KeysHandler),
    (r"keys/(?P<name>[^/]+)", KeyHandler),
    ("activity", ActivityHandler),
    ("outline", OutlineHandler),
    ("events", EventsHandler),
    (r"openapi\.(?P<fmt>yaml|json)", OpenAPIHandler),
]


def api_path(*parts: str) -> str:
    """A path below the namespace, relative to Jupyter's base_url (as extension handlers are)."""
    return url_path_join(NAMESPACE, *parts)


def api_handlers(services: Services, endpoints: MCPEndpoints) -> list[tuple[str, type[ApiHandler], dict[str, Any]]]:
    """The table as an ExtensionApp registers handlers: (pattern, handler, kwargs)."""
    kwargs = {"services": services, "endpoints": endpoints}
    return [(api_path(pattern), handler, kwargs) for pattern, handler in ROUTES]


__all__ = ["NAMESPACE", "ROUTES", "ApiHandler", "StatusHandler", "api_handlers", "api_path"]
