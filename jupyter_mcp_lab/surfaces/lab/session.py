"""The lab profile's ``session`` tool: orientation (windows, tabs, capabilities, identity)."""

from __future__ import annotations

from ...ops.workspace import session
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

SESSION = CompositeTool(
    name="session",
    title="Session",
    description=(
        "Orientation. get_state: every window (a connected JupyterLab, or 'main') with its tabs "
        "{id, filePath, title, dirty, revision, kind} and activeTabs (the tab each window shows you); "
        "capabilities (version, document kinds, approval policy, read-only, response limit, profiles and "
        "URLs, workspace root); and who you are (user, client, session)."
    ),
    actions={"get_state": session.get_state},
    hidden=BY_PATH_OR_TAB,
)
