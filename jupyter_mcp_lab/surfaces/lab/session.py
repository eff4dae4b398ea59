"""The lab profile's ``session`` tool: orientation: the session's windows, tabs, capabilities and identity."""

from __future__ import annotations

from ..base import CompositeTool

SESSION = CompositeTool(
    name="session",
    title="Session",
    description=(
        "Orientation. get_state: every window (a connected JupyterLab, or 'main') with its tabs "
        "{id, filePath, title, dirty, revision, kind}; capabilities (version, document kinds, approval "
        "policy, read-only, response limit, profiles and URLs); and who you are (user, client, session)."
    ),
    actions={"get_state": "session.get_state"},
)
