"""The default ``lab`` profile: a few composite tools that cover every capability.

An agent pays context for every tool listed, so this surface stays small (≤ 16 tools,
tools/list ≤ 16 KB): one tool per area, an ``action`` argument per operation.
"""

from __future__ import annotations

from .base import CompositeTool, Surface

INSTRUCTIONS = """\
jupyter-mcp-lab serves the documents of a JupyterLab workspace (markdown, outlines,
notebooks, workflow YAML, files). Start with session(action="get_state"). Reads return a
revision token; pass it as expected_revision on writes. Under the default approval policy
your edits become suggestions that a person accepts or rejects in JupyterLab."""

SESSION = CompositeTool(
    name="session",
    title="Session",
    description=(
        "Orientation. action=get_state: every window (a connected JupyterLab, or 'main') "
        "with its tabs {id, filePath, title, dirty, revision, kind}; capabilities (version, "
        "document kinds, approval policy, read-only, response limit, profiles and URLs); "
        "and who you are (user, client, session)."
    ),
    actions={"get_state": "session.get_state"},
)

SURFACE = Surface(
    name="lab",
    title="JupyterLab documents",
    instructions=INSTRUCTIONS,
    tools=(SESSION,),
)
