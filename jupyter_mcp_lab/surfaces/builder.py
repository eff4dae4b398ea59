"""``build_server(surface, services)``: a surface as an MCP server (see ``server/mcp_server.py``).

Kept here because callers (the standalone entry point, tests) build servers from surfaces;
the binding itself lives with the transports, the argument mapping with the dispatcher.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..ops.context import Services
    from ..server.mcp_server import SurfaceServer
    from .base import Surface


def build_server(surface: Surface, services: Services) -> SurfaceServer:
    # Imported here: the binding imports the surfaces' base types, so a module-level import would be a circle.
    from ..server.mcp_server import SurfaceServer

    return SurfaceServer(surface, services)
