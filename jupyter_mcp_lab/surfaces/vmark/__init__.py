"""The ``vmark`` profile: VMark's v1 flat tools (spec/vmark-tools-v1.md), 76 of them, with
VMark's tool and argument names, and its four resources.

The package holds VMark's shapes: its tools by area (one module each), its resources and
its error envelope; this module assembles the profile in the reference's tool order. ``windowId`` names
a window (a connected JupyterLab client, or ``main``); tools act on the document it shows
for the MCP session. ``baseRevision`` is our ``expected_revision`` (STALE on mismatch).
The advanced mutation and section tools default ``mode`` to ``suggest`` as VMark does;
the server's approval policy still wins (under ``suggest`` an ``apply`` is staged too).
Errors take VMark's shape, as in ``vmark2``.
"""

from __future__ import annotations

from ..base import Surface
from . import protocol
from .common import tool
from .cursor import BLOCK_TOOLS, FORMAT_TOOLS, INSERT_TOOLS, SELECTION_TOOLS, TABLE_TOOLS
from .document import CJK_TOOLS, DOCUMENT_TOOLS, EDITOR_TOOLS
from .errors import render_error
from .mutations import MUTATION_TOOLS
from .resources import RESOURCE_URIS, RESOURCES
from .review import SUGGESTION_TOOLS
from .structure import REVISION_TOOL, STRUCTURE_TOOLS
from .workspace import TAB_TOOLS, WORKSPACE_TOOLS

NAME = "vmark"

EDITING_TOOLS = (
    DOCUMENT_TOOLS
    + SELECTION_TOOLS
    + FORMAT_TOOLS
    + BLOCK_TOOLS
    + TABLE_TOOLS
    + EDITOR_TOOLS
    + INSERT_TOOLS
    + CJK_TOOLS
)
_BEFORE = EDITING_TOOLS + WORKSPACE_TOOLS + TAB_TOOLS + SUGGESTION_TOOLS
_AFTER = (REVISION_TOOL, *STRUCTURE_TOOLS, *MUTATION_TOOLS)
_CAPABILITIES_NAME = "get_capabilities"
# In the order of the reference (spec/seed-tools.json).
TOOL_NAMES = [t.name for t in _BEFORE] + [_CAPABILITIES_NAME] + [t.name for t in _AFTER]

CAPABILITIES = tool(
    _CAPABILITIES_NAME,
    protocol.capabilities,
    "Get the server's capabilities: {version, tools[], resources[], features, supportedNodeTypes, limits}.",
    hidden=frozenset({"tools", "resources"}),
    defaults={"tools": TOOL_NAMES, "resources": list(RESOURCE_URIS)},
)

INSTRUCTIONS = """\
VMark-compatible document tools served by JupyterLab. Windows are connected JupyterLab
clients (or 'main'); each window shows you one document (its active tab) and every tool
takes an optional windowId (default: your focused window). Open a file with
workspace_open_document {path}. Read structure with get_document_digest / list_blocks
(node ids h-0, p-3, table-0, …), take get_document_revision and pass it as baseRevision.
Edits are staged as suggestions a person accepts in JupyterLab unless edits are
auto-approved: see suggestion_list; you may reject your own. Save with
workspace_save_document."""
assert len(EDITING_TOOLS) == 38 and len({t.name for t in EDITING_TOOLS}) == 38

SURFACE = Surface(
    name=NAME,
    title="VMark (v1 tools)",
    instructions=INSTRUCTIONS,
    render_error=render_error,
    server_name="vmark-mcp-server",
    tools=(*_BEFORE, CAPABILITIES, *_AFTER),
    resources=RESOURCES,
)
