"""The lab profile's ``session`` tool: orientation (windows, tabs, capabilities, identity)."""

from __future__ import annotations

from ...ops.workspace import session
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

SESSION = CompositeTool(
    name="session",
    title="Session",
    description=(
        "Orientation. get_state → every window (a connected JupyterLab, or 'main') with its tabs "
        "{id, filePath, title, dirty, revision, kind} and activeTabs; capabilities "
        "(version, document kinds, approval policy, limits, profiles, workspace root); who you are."
    ),
    actions={"get_state": session.get_state},
    hidden=BY_PATH_OR_TAB,
)
