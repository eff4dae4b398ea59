"""What a surface is: a named set of MCP tools mapped onto operations.

A ``FlatTool`` is one tool for one operation (with a reference system's tool and argument
names); a ``CompositeTool`` is one tool whose ``action`` argument picks the operation.
Adding a tool to a surface is a mapping here, never new logic.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..ops.base import Operation
    from ..ops.context import OpContext, Services
    from ..server.mcp_server import SurfaceServer


@dataclass(frozen=True)
class FlatTool:
    name: str
    op: Operation  # the operation, or the surface's adapter over operations
    description: str | None = None  # defaults to the operation's
    rename: dict[str, str] = field(default_factory=dict)  # operation field -> tool argument
    title: str | None = None
    hidden: frozenset[str] = frozenset()  # operation fields this profile does not show (defaults apply)
    defaults: dict[str, Any] = field(default_factory=dict)  # operation field -> this profile's default


@dataclass(frozen=True)
class CompositeTool:
    name: str
    description: str
    actions: dict[str, Operation]  # action -> operation or adapter
    title: str | None = None
    rename: dict[str, str] = field(default_factory=dict)
    hidden: frozenset[str] = frozenset()
    defaults: dict[str, Any] = field(default_factory=dict)
    # tool argument -> this tool's description of it, in place of the operation's
    describe: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SurfaceResource:
    """A JSON resource computed for the reader (its session's focus decides the document)."""

    uri: str
    name: str
    title: str
    description: str
    reader: Callable[[OpContext], Awaitable[Any]]
    mime_type: str = "application/json"


ToolSpec = FlatTool | CompositeTool
# envelope -> what the client receives as the error's structured content (the profile's shape)
ErrorRenderer = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Surface:
    """One MCP server: its identity, tools and anything else it registers itself."""

    name: str
    title: str
    instructions: str
    tools: tuple[ToolSpec, ...] = ()
    resources: tuple[SurfaceResource, ...] = ()
    # MCP-only registrations (the conformance fixtures' tools, resources, prompts) on the built server.
    extend: Callable[[SurfaceServer, Services], None] | None = None
    render_error: ErrorRenderer | None = None
    server_name: str = "jupyter-mcp-lab"
    # Publish for an agent's context budget (the lab profile): a composite tool's arguments listed
    # once per action in its ``action`` description instead of a note on each, lean schemas
    # (core.jsonschema.lean), any object as its result, no title repeated in the hints
    # (server/dispatch/tools.py). Reference profiles keep the full schemas their snapshots pin.
    compact: bool = False
    # An operation's description of an argument -> this profile's wording of it, in every tool
    # (a tool's own ``describe`` comes first). Keyed by the text, so only the arguments declared
    # with that shared field (ops/targets.py's MODE, say) are reworded, never a namesake.
    wording: Mapping[str, str] = field(default_factory=dict)
    # A result's structured content -> the text content clients show the model (default: the
    # same JSON), for a profile whose reference answers in prose (the jupyter profile).
    text: Callable[[Any], str] | None = None
