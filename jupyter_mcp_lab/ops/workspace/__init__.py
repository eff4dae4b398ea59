"""The workspace: the session's state, documents in tabs, focus, what was open."""

from __future__ import annotations

from . import files, focus, history, info, listing, session

OPERATIONS = (
    session.get_state,
    files.new,
    files.open_,
    files.save,
    files.save_as,
    files.close,
    focus.switch_tab,
    focus.focus_window,
    history.recent,
    history.reopen_closed,
    info.document_info,
    listing.files,
)
