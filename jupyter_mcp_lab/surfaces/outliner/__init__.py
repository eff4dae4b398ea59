"""The ``outliner`` profile: the OmniOutliner MCP server's tools (spec/omnioutliner-mcp-tools.md)
on OPML files and markdown outlines in the workspace. Each tool acts on the caller's focused tab, else on the
outline the person has in front in JupyterLab."""

from __future__ import annotations

from ..base import FlatTool, Surface
from . import query, status, write
from .errors import render_error

INSTRUCTIONS = """\
Outline tools served by JupyterLab for OPML (.opml) files and markdown documents (headings
and list items are rows). They act on the outline in your focused tab (check_connection says
whether one is open). Rows have stable ids: read with
get_outline_structure (maxDepth, includeNotes) or get_row_children, find rows with
search_outline, and take a section's text with get_section_content (large sections come in
pages: pass nextStart as start). add_row, update_row, move_row, delete_row and insert_content
change rows by id; unless a person granted you direct edits, each change is a suggestion the
person accepts in JupyterLab (the result's applied and suggestionIds say which)."""

SURFACE = Surface(
    name="outliner",
    title="OmniOutliner (OPML outlines)",
    instructions=INSTRUCTIONS,
    render_error=render_error,
    server_name="omnioutliner-mcp",
    tools=(
        FlatTool("get_current_document", status.get_current_document),
        FlatTool("get_outline_structure", query.get_outline_structure),
        FlatTool("get_row", query.get_row),
        FlatTool("search_outline", query.search_outline),
        FlatTool("get_row_children", query.get_row_children),
        FlatTool("add_row", write.add_row),
        FlatTool("update_row", write.update_row),
        FlatTool("move_row", write.move_row),
        FlatTool("delete_row", write.delete_row),
        FlatTool("get_section_content", query.get_section_content),
        FlatTool("insert_content", write.insert_content),
        FlatTool("check_connection", status.check_connection),
    ),
)
