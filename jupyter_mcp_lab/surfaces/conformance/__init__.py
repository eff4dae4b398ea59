"""The ``conformance`` profile: the fixtures of the official MCP conformance suite.

Off unless configured. It proves that Jupyter's endpoint carries what the document tools
rely on: progress, logging, sampling, elicitation, resources, subscriptions, prompts and
completion. Names and texts follow the suite's server requirements.

The fixtures are MCP-only (no operation behind them), so they register on the profile's
MCP server directly: tools as SDK ``Tool`` objects (``tools.py``, run
with the SDK's ``Context``), resources and prompts as plain protocol types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ops.context import Services
from ..base import Surface
from .fixtures import register_prompts, register_protocol_handlers, register_resources
from .tools import register_tools

if TYPE_CHECKING:
    from ...server.mcp_server import SurfaceServer


def _extend(server: SurfaceServer, services: Services) -> None:
    register_tools(server)
    register_resources(server)
    register_prompts(server)
    register_protocol_handlers(server, set())


SURFACE = Surface(
    name="conformance",
    title="MCP conformance fixtures",
    instructions="Fixtures for the official MCP conformance suite. Not for agents.",
    extend=_extend,
    server_name="mcp-conformance-test-server",
)
