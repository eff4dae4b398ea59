"""The workspace: files and tabs, windows, the session's state."""

from __future__ import annotations

from . import files, protocol, session, windows

OPERATIONS = (
    files.new,
    files.open_,
    files.save,
    files.save_as,
    files.close,
    files.switch_tab,
    files.focus_window,
    protocol.capabilities,
    protocol.revision,
    session.get_state,
    windows.list_windows,
    windows.focused,
    windows.close_window,
    windows.workspace_info,
    windows.recent_files,
    windows.new_document,
    windows.save_document,
    windows.save_document_as,
    windows.get_document_info,
    windows.list_tabs,
    windows.get_tab,
    windows.switch_tab,
    windows.close_tab,
    windows.create_tab,
    windows.reopen_closed,
)
