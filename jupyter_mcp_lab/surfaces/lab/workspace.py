"""The lab profile's ``workspace`` tool: tabs and files."""

from __future__ import annotations

from ...ops.workspace import files, focus, history, info, listing
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

WORKSPACE = CompositeTool(
    name="workspace",
    title="Workspace",
    description=(
        "Tabs and files. open → {tabId, revision, kind}, now your focused tab; new → an untitled tab; "
        "close → {closed} or {closed: false, reason: 'DIRTY'}; reopen: the last closed tab; recent: "
        "files opened lately; info → {title, dirty, wordCount, charCount, revision, hash, tabId}; files → "
        "{files [{path, type, size, modified}], total, nextStart}."
    ),
    actions={
        "open": files.open_,
        "new": files.new,
        "save": files.save,
        "save_as": files.save_as,
        "close": files.close,
        "switch_tab": focus.switch_tab,
        "focus_window": focus.focus_window,
        "reopen": history.reopen_closed,
        "recent": history.recent,
        "info": info.document_info,
        "files": listing.files,
    },
    hidden=BY_PATH_OR_TAB,
    describe={
        "filePath": "Root-relative.",
        "kind": "Default markdown.",
        "title": "",
        "overwrite": "Else CONFLICT if it exists.",
        "windowLabel": "Default: your focused window.",
    },
)
