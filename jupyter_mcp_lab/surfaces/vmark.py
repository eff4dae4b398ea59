"""The ``vmark`` profile: VMark's v1 flat tools (spec/vmark-tools-v1.md), 76 of them, with
VMark's tool and argument names, and its four resources.

This module holds the workspace, tab, suggestion, protocol, structure and mutation tools
and assembles the profile with the editing tools of ``vmark_editing``. ``windowId`` names
a window (a connected JupyterLab client, or ``main``); tools act on the document it shows
for the MCP session. ``baseRevision`` is our ``expected_revision`` (STALE on mismatch).
The advanced mutation and section tools default ``mode`` to ``suggest`` as VMark does;
the server's approval policy still wins (under ``suggest`` an ``apply`` is staged too).
Errors take VMark's shape, as in ``vmark2``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..ops import nodes
from ..ops import windows as window_ops
from ..ops.context import OpContext
from .base import FlatTool, Surface, SurfaceResource
from .vmark2 import render_error
from .vmark_editing import EDITING_TOOLS

NAME = "vmark"
BASE = {"expected_revision": "baseRevision"}
SUGGEST = {"mode": "suggest"}
STAGED = (
    " mode defaults to suggest: the change is staged for the person to accept (suggestion_list); the server's "
    "approval policy decides whether apply is honoured. baseRevision (get_document_revision) guards against "
    "concurrent edits (STALE)."
)


def _tool(
    name: str,
    op: str,
    description: str,
    *,
    rename: dict[str, str] | None = None,
    hidden: frozenset[str] = frozenset(),
    defaults: dict[str, Any] | None = None,
) -> FlatTool:
    return FlatTool(
        name,
        op,
        description=description,
        rename={**BASE, **(rename or {})},
        hidden=hidden,
        defaults=defaults or {},
    )


WORKSPACE_TOOLS = (
    _tool(
        "workspace_list_windows",
        "windows.list",
        "List the open windows (connected JupyterLab clients, or 'main'): {windows: [{label, title, filePath, "
        "isFocused, isAiExposed}], count}.",
    ),
    _tool("workspace_get_focused", "windows.focused", "Get your focused window's label: {label, activeTabId}."),
    _tool(
        "workspace_focus_window",
        "workspace.focus_window",
        "Focus a window (its last tab becomes your active tab): {windowLabel, tabId}.",
        rename={"windowLabel": "windowId"},
    ),
    _tool(
        "workspace_new_document",
        "workspace.new_document",
        "Create a new empty markdown document in your focused window: {tabId, windowId, title}. Save it with "
        "workspace_save_document_as.",
    ),
    _tool(
        "workspace_open_document",
        "workspace.open",
        "Open a document from the workspace (path relative to the Jupyter root) in your focused window: "
        "{tabId, filePath, revision, kind}.",
        rename={"filePath": "path"},
        hidden=frozenset({"windowLabel"}),
    ),
    _tool(
        "workspace_save_document",
        "windows.save",
        "Save the window's document to its file: {filePath, revision}.",
    ),
    _tool(
        "workspace_save_document_as",
        "windows.save_as",
        "Save the window's document to a new path (relative to the Jupyter root; an existing file is refused "
        "with CONFLICT): {filePath, revision, tabId}.",
        rename={"filePath": "path"},
    ),
    _tool(
        "workspace_get_document_info",
        "windows.document_info",
        "Get the window's document metadata: {filePath, isDirty, title, wordCount, charCount, revision}.",
    ),
    _tool(
        "workspace_close_window",
        "windows.close",
        "Close a window's documents (default: the focused window); tabs with unsaved changes stay open: "
        "{closed, closedTabs, dirtyTabs}.",
    ),
    _tool(
        "workspace_list_recent_files",
        "workspace.recent",
        "List recently opened files, most recent first (up to 10): {files: [{path, name, timestamp}], count}.",
    ),
    _tool(
        "workspace_get_info",
        "workspace.info",
        "Get the workspace: {isWorkspaceMode, rootPath, workspaceName} (the Jupyter root directory).",
    ),
)

TAB_TOOLS = (
    _tool("tabs_list", "tabs.list", "List a window's tabs: {tabs: [{id, title, filePath, isDirty, isActive}], count}."),
    _tool(
        "tabs_get_active",
        "tabs.get",
        "Get a window's active tab: {id, title, filePath, isDirty, isActive}.",
        hidden=frozenset({"tabId"}),
    ),
    _tool("tabs_switch", "tabs.switch", "Switch to a tab (it becomes the window's active tab, the window focused)."),
    _tool(
        "tabs_close",
        "tabs.close",
        "Close a tab (default: the active tab); unsaved changes keep it open: {tabId, closed, reason?}.",
    ),
    _tool("tabs_create", "tabs.create", "Create a new empty tab in a window: {tabId}."),
    _tool(
        "tabs_get_info",
        "tabs.get",
        "Get a tab's details (default: the active tab): {id, title, filePath, isDirty, isActive}.",
    ),
    _tool(
        "tabs_reopen_closed",
        "tabs.reopen_closed",
        "Reopen the most recently closed tab of a window (the last 10 are kept): {tabId, filePath, title}, or "
        "{reopened: false, message: 'No closed tabs to reopen'}.",
    ),
)

SUGGESTION_TOOLS = (
    _tool(
        "suggestion_list",
        "review.window_list",
        "List the pending suggestions on the window's document: {suggestions: [{id, type, from, to, newContent, "
        "originalContent}], count, focusedId}.",
    ),
    _tool(
        "suggestion_accept",
        "review.accept_one",
        "Accept a suggestion (applies it). Under the server's review policy a person decides: without their "
        "grant this answers APPROVAL_REQUIRED.",
    ),
    _tool("suggestion_reject", "review.reject_one", "Reject a suggestion (your own may always be withdrawn)."),
    _tool(
        "suggestion_accept_all",
        "review.accept_window",
        "Accept all pending suggestions on the window's document in document order (APPROVAL_REQUIRED without "
        "a person's grant under the review policy): {count, suggestionIds, conflictIds}.",
    ),
    _tool("suggestion_reject_all", "review.reject_window", "Reject all pending suggestions on the window's document."),
)

REVISION_TOOL = _tool(
    "get_document_revision",
    "protocol.revision",
    "Get the window's document revision for optimistic locking: {revision, hash, timestamp}. Pass revision "
    "as baseRevision.",
)

STRUCTURE_TOOLS = (
    _tool(
        "get_document_ast",
        "document.ast",
        "Get the document's syntax tree: {type: 'doc', children: [{type, nodeId, from, to, content, attrs, "
        "children}]}.",
    ),
    _tool(
        "get_document_digest",
        "document.digest",
        "Get a compact digest: {title, sections[], headingCount, paragraphCount, wordCount, blockCounts}.",
    ),
    _tool(
        "list_blocks",
        "document.list_blocks",
        "List the blocks with their node ids: {blocks: [{nodeId, type, level?, content, position}], count}. Ids "
        "use prefixes h- (heading), p- (paragraph), code-, table-, list-, bq-, hr-, math-.",
    ),
    _tool(
        "resolve_targets",
        "document.resolve_targets",
        "Resolve node ids, section titles or text to positions: {results: [{target, found, from?, to?, type?}]}.",
    ),
    _tool(
        "get_section",
        "document.section",
        "Get a section (heading to the next heading of the same or a higher level): {nodeId, level, title, "
        "content, from, to}.",
    ),
)

MUTATION_TOOLS = (
    _tool(
        "batch_edit",
        "document.batch_edit",
        "Apply operations atomically: [{type: update|insert|delete|format|move, nodeId, after?, text|content, "
        "mark?}]. Returns {success, changedNodeIds, suggestionIds}." + STAGED,
        defaults=SUGGEST,
    ),
    _tool(
        "apply_diff",
        "document.apply_diff",
        "Find text and replace it with a match policy (first, all, nth, error_if_multiple): {matchCount, "
        "appliedCount, matches, suggestionIds}." + STAGED,
        defaults=SUGGEST,
    ),
    _tool(
        "replace_text_anchored",
        "document.replace_anchored",
        "Replace text located by anchor {text, beforeContext, afterContext} (exactly one match)." + STAGED,
        defaults=SUGGEST,
    ),
    _tool(
        "update_section",
        "document.update_section",
        "Update a section's content (by its heading node id): the body, or the whole section when content "
        "starts with a heading." + STAGED,
        defaults=SUGGEST,
    ),
    _tool(
        "insert_section",
        "document.insert_section",
        "Insert a new section {level, title, content?} after a section or block." + STAGED,
        defaults=SUGGEST,
    ),
    _tool(
        "move_section",
        "document.move_section",
        "Move a section (with its subsections) after another section or block." + STAGED,
        defaults=SUGGEST,
    ),
    _tool(
        "table_modify",
        "document.table_modify",
        "Batch-modify a table: operations setCellContent {row, col, content}, addRow {index?, cells?}, deleteRow "
        "{row}, addColumn {index?, header?, cells?}, deleteColumn {col}, setHeaderRow {enabled?}. Row 0 is the "
        "header. Staged for the person's review unless edits are auto-approved.",
        hidden=frozenset({"mode"}),
    ),
    _tool(
        "list_modify",
        "document.list_modify",
        "Batch-modify a list: operations setItemContent {index, text}, addItem {index?, text}, deleteItem "
        "{index}, indent {index}, outdent {index}, setChecked {index, checked}. Staged for the person's review "
        "unless edits are auto-approved.",
        hidden=frozenset({"mode"}),
    ),
)

RESOURCE_URIS = (
    "vmark://document/outline",
    "vmark://document/metadata",
    "vmark://windows/list",
    "vmark://windows/focused",
)

_BEFORE = EDITING_TOOLS + WORKSPACE_TOOLS + TAB_TOOLS + SUGGESTION_TOOLS
_AFTER = (REVISION_TOOL, *STRUCTURE_TOOLS, *MUTATION_TOOLS)
_CAPABILITIES_NAME = "get_capabilities"
# In the order of the reference (spec/seed-tools.json).
TOOL_NAMES = [t.name for t in _BEFORE] + [_CAPABILITIES_NAME] + [t.name for t in _AFTER]

CAPABILITIES = _tool(
    _CAPABILITIES_NAME,
    "protocol.capabilities",
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


# --------------------------------------------------------------------------- resources

# Each is computed for the reading MCP session (its focus decides the document); the
# dispatcher reads them and the MCP binding serves them.
Reader = Callable[[OpContext], Awaitable[Any]]


def _outline(sections: list[Any]) -> list[dict[str, Any]]:
    """Sections nested by level: each heading with the headings below it as children."""
    root: list[dict[str, Any]] = []
    stack: list[tuple[int, list[dict[str, Any]]]] = [(0, root)]
    for sec in sections:
        if sec.heading is None:
            continue  # text before the first heading
        node = {
            "nodeId": sec.id,
            "level": sec.level,
            "title": sec.title,
            "from": sec.start,
            "to": sec.end,
            "lineStart": sec.line_start,
            "lineEnd": sec.line_end,
            "children": [],
        }
        while stack[-1][0] >= sec.level:
            stack.pop()
        stack[-1][1].append(node)
        stack.append((sec.level, node["children"]))
    return root


async def _read_outline(ctx: OpContext) -> Any:
    doc, s = await nodes.markdown_of_window(ctx, None)
    return {"filePath": doc.path, "revision": s.revision, "outline": _outline(s.sections)}


async def _read_metadata(ctx: OpContext) -> Any:
    info = await window_ops.get_document_info(ctx, window_ops.WindowParams())
    return info.model_dump(mode="json", by_alias=True)


async def _read_windows(ctx: OpContext) -> Any:
    windows = await window_ops.list_windows(ctx, window_ops.NoParams())
    return windows.model_dump(mode="json", by_alias=True)


async def _read_focused(ctx: OpContext) -> Any:
    return (await window_ops.focused(ctx, window_ops.NoParams())).model_dump(mode="json")


_RESOURCES: dict[str, tuple[str, str, Reader]] = {
    "vmark://document/outline": (
        "Document outline",
        "The heading hierarchy of your focused document: {filePath, revision, outline: [{nodeId, level, title, "
        "from, to, children}]}.",
        _read_outline,
    ),
    "vmark://document/metadata": (
        "Document metadata",
        "Your focused document: {filePath, isDirty, title, wordCount, charCount, revision, kind}.",
        _read_metadata,
    ),
    "vmark://windows/list": (
        "Windows",
        "The open windows: {windows: [{label, title, filePath, isFocused, isAiExposed}], count}.",
        _read_windows,
    ),
    "vmark://windows/focused": ("Focused window", "Your focused window: {label, activeTabId}.", _read_focused),
}
assert tuple(_RESOURCES) == RESOURCE_URIS


RESOURCES = tuple(
    SurfaceResource(uri=uri, name=uri.removeprefix("vmark://"), title=title, description=description, reader=reader)
    for uri, (title, description, reader) in _RESOURCES.items()
)


SURFACE = Surface(
    name=NAME,
    title="VMark (v1 tools)",
    instructions=INSTRUCTIONS,
    render_error=render_error,
    server_name="vmark-mcp-server",
    tools=(*_BEFORE, CAPABILITIES, *_AFTER),
    resources=RESOURCES,
)
