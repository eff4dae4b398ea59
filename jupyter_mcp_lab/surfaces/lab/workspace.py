"""The lab profile's ``workspace`` tool: tabs and files."""

from __future__ import annotations

from ..base import CompositeTool

WORKSPACE = CompositeTool(
    name="workspace",
    title="Workspace",
    description=(
        "Tabs and files. open {filePath} → {tabId, revision, kind} (focuses it for this session); "
        "new {kind?} → untitled tab; save {tabId?}; save_as {filePath, tabId?, overwrite?}; "
        "close {tabId, force?} → {closed} or {closed: false, reason: 'DIRTY'}; switch_tab {tabId}; "
        "focus_window {windowLabel}."
    ),
    actions={
        "open": "workspace.open",
        "new": "workspace.new",
        "save": "workspace.save",
        "save_as": "workspace.save_as",
        "close": "workspace.close",
        "switch_tab": "workspace.switch_tab",
        "focus_window": "workspace.focus_window",
    },
)
