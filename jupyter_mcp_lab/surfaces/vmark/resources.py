"""VMark's four resources, computed for the reading session's focused document through the
same capabilities (and VMark shapes) as its tools."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ...ops.context import OpContext
from ...ops.markdown.structure import StructureParams, StructureResult, structure
from ..base import SurfaceResource
from . import windows

RESOURCE_URIS = (
    "vmark://document/outline",
    "vmark://document/metadata",
    "vmark://windows/list",
    "vmark://windows/focused",
)

# Each is computed for the reading MCP session (its focus decides the document); the
# dispatcher reads them and the MCP binding serves them.
Reader = Callable[[OpContext], Awaitable[Any]]


def _outline(sections: list[Any]) -> list[dict[str, Any]]:
    """Sections nested by level: each heading with the headings below it as children."""
    root: list[dict[str, Any]] = []
    stack: list[tuple[int, list[dict[str, Any]]]] = [(0, root)]
    for sec in sections:
        if sec.nodeId == "preamble":
            continue  # text before the first heading
        node = {
            "nodeId": sec.nodeId,
            "level": sec.level,
            "title": sec.title,
            "from": sec.start,
            "to": sec.end,
            "lineStart": sec.lineStart,
            "lineEnd": sec.lineEnd,
            "children": [],
        }
        while stack[-1][0] >= sec.level:
            stack.pop()
        stack[-1][1].append(node)
        stack.append((sec.level, node["children"]))
    return root


async def _read_outline(ctx: OpContext) -> Any:
    r = await structure(ctx, StructureParams())
    assert isinstance(r, StructureResult) and r.sections is not None
    return {"filePath": r.filePath, "revision": r.revision, "outline": _outline(r.sections)}


async def _read_metadata(ctx: OpContext) -> Any:
    info = await windows.document_info(ctx, windows.WindowParams())
    return info.model_dump(mode="json", by_alias=True)


async def _read_windows(ctx: OpContext) -> Any:
    listed = await windows.list_windows(ctx, windows.NoParams())
    return listed.model_dump(mode="json", by_alias=True)


async def _read_focused(ctx: OpContext) -> Any:
    return (await windows.focused(ctx, windows.NoParams())).model_dump(mode="json")


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
