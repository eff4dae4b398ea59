"""Windows and tabs: what is open, and where.

A window is a connected JupyterLab client (``main`` stands in while none is connected);
a tab is an open document. Focus is kept per MCP session, so two agents never share a
"current document".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DocumentKind = Literal["markdown", "outline", "notebook", "yaml-workflow", "text"]
MAIN_WINDOW = "main"


@dataclass
class Tab:
    id: str
    path: str
    title: str
    kind: DocumentKind
    dirty: bool = False
    revision: str = ""


@dataclass
class Window:
    label: str
    tabs: list[Tab] = field(default_factory=list)
    client: str | None = None  # the lab client's id once the lab bridge reports one


@dataclass
class SessionFocus:
    window: str = MAIN_WINDOW
    tab: str | None = None


class Workspace:
    """The windows of one server and the focus of each MCP session."""

    def __init__(self) -> None:
        self.windows: dict[str, Window] = {MAIN_WINDOW: Window(MAIN_WINDOW)}
        self._focus: dict[str, SessionFocus] = {}

    def focus(self, session_id: str) -> SessionFocus:
        return self._focus.setdefault(session_id, SessionFocus())

    def forget_session(self, session_id: str) -> None:
        self._focus.pop(session_id, None)
