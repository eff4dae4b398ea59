"""Windows and tabs: what is open, and where.

A window is a connected JupyterLab client (``main`` stands in while none is connected,
and stays for the tabs agents open themselves); a tab shows an open document. Focus is
kept per MCP session, so two agents never share a "current document".

A JupyterLab window's tabs follow what the person has open there (the lab bridge reports
it, see ``sync_window``); like any window it shows its last tab to sessions focused
elsewhere, so the person's active document is kept last.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from .documents import OpenDocument
from .errors import DomainError
from .selection import Selection, SelectionSource

MAIN_WINDOW = "main"
RECENT_CLOSED = 10


@dataclass(eq=False)
class Tab:
    id: str
    doc: OpenDocument
    window: str
    # One selection per tab, as in an editor view; whoever set it last (an agent's tool or
    # the person's cursor reported by the lab bridge) owns it.
    selection: Selection = field(default_factory=Selection)
    selection_source: SelectionSource = "agent"
    # The person has it open in the window's JupyterLab (the lab bridge said so): it closes
    # when they close it there. Tabs agents open stay until an agent closes them.
    in_lab: bool = False
    _selection_text: str | None = field(default=None, repr=False)  # the text the selection refers to

    @property
    def path(self) -> str | None:
        return self.doc.path

    def current_selection(self) -> Selection:
        """The selection in the document's text as it is now, mapped through whatever changed
        since it was set (lazily, on read: writers, whichever path they take, need not know
        about tabs; the diff of the two texts stands in for the edits in between)."""
        text = self.doc.text
        if self._selection_text is not text:
            base = self._selection_text
            self.selection = self.selection.clamped(len(text)) if base is None else self.selection.mapped(base, text)
            self._selection_text = text
        return self.selection

    def set_selection(self, selection: Selection, source: SelectionSource = "agent", text: str | None = None) -> None:
        """Set the selection on ``text`` (default: the document's text now; clamped to it)."""
        text = self.doc.text if text is None else text
        self.selection, self.selection_source, self._selection_text = selection.clamped(len(text)), source, text


def report_person_selection(tab: Tab, from_: int, to: int, *, text: str | None = None) -> Selection:
    """The lab bridge's hook: the person's selection in JupyterLab (code point offsets into
    ``text``, default the document's text). It replaces the agent's until an agent sets one
    again. Out-of-range offsets are clamped, not refused: the browser may be a keystroke ahead."""
    tab.set_selection(Selection(from_, to), "person", text)
    return tab.current_selection()


@dataclass
class Window:
    label: str
    tabs: list[Tab] = field(default_factory=list)
    client: str | None = None  # the lab client's id once the lab bridge reports one
    closed: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_CLOSED))  # paths


LabAnswer = Literal["allow", "deny", "timeout"]


class LabClients(Protocol):
    """The live JupyterLab clients behind the lab windows (the server's lab bridge).

    Errors are ``DomainError``: NO_LAB_CLIENT when none is connected (or the one asked for
    left, or did not answer in time), or whatever the client answered.
    """

    def describe(self) -> list[dict[str, Any]]:
        """Each connected client with its presence (JSON-ready), most recently used first."""
        ...

    def pick(self, window: str | None) -> str:
        """The label of the client a request goes to: ``window`` (a label or client id), or
        the one the person used last."""
        ...

    async def request(self, window: str, method: str, params: dict[str, Any]) -> Any:
        """Ask the client to do something; its result."""
        ...

    async def ask(self, window: str, question: dict[str, Any]) -> LabAnswer:
        """Ask the person at that client (a dialog): allow, deny, or no answer in time."""
        ...


@dataclass
class SessionFocus:
    window: str = MAIN_WINDOW
    tab: str | None = None
    # The notebooks the session uses (path -> the name it calls it by), oldest first; which
    # one calls without a path act on is still the focused tab.
    notebooks: dict[str, str] = field(default_factory=dict)


class Workspace:
    """The windows of one server and the focus of each MCP session."""

    def __init__(self) -> None:
        self.windows: dict[str, Window] = {MAIN_WINDOW: Window(MAIN_WINDOW)}
        self._focus: dict[str, SessionFocus] = {}
        self._ids = itertools.count(1)
        self.recent: deque[str] = deque(maxlen=50)  # recently opened paths, newest last
        self.opened_at: dict[str, float] = {}  # each recent path -> when it was last opened (time.time())
        self.lab: LabClients | None = None  # set by the host when it runs the lab bridge

    def focus(self, session_id: str) -> SessionFocus:
        found = self._focus.get(session_id)  # not setdefault: it would build one every call
        if found is None:
            found = self._focus[session_id] = SessionFocus()
        return found

    def forget_session(self, session_id: str) -> None:
        self._focus.pop(session_id, None)

    def window(self, label: str | None, session_id: str) -> Window:
        label = label or self.focus(session_id).window
        w = self.windows.get(label)
        if w is None:
            raise DomainError("INVALID_TAB", f"no window {label!r}; windows: {', '.join(self.windows)}", window=label)
        return w

    def tabs(self) -> list[Tab]:
        return [t for w in self.windows.values() for t in w.tabs]

    def tab(self, tab_id: str | None, session_id: str) -> Tab:
        """The named tab, or the session's focused one."""
        wanted = tab_id or self.focus(session_id).tab
        if wanted is None:
            raise DomainError("INVALID_TAB", "no tab is focused in this session: open a document or pass tabId")
        for t in self.tabs():
            if t.id == wanted:
                return t
        raise DomainError("INVALID_TAB", f"no tab {wanted!r} (it may have been closed)", tabId=wanted)

    def show(self, doc: OpenDocument, window: Window, session_id: str) -> Tab:
        """A tab for ``doc`` in ``window`` (the existing one if any), focused for the session."""
        tab = next((t for t in window.tabs if t.doc is doc), None)
        if tab is None:
            tab = Tab(f"tab-{next(self._ids)}", doc, window.label)
            window.tabs.append(tab)
        if doc.path:
            if doc.path in self.recent:
                self.recent.remove(doc.path)
            self.recent.append(doc.path)
            self.opened_at = {p: self.opened_at.get(p, 0.0) for p in self.recent} | {doc.path: time.time()}
        focus = self.focus(session_id)
        focus.window, focus.tab = window.label, tab.id
        return tab

    def close(self, tab: Tab) -> None:
        window = self.windows[tab.window]
        window.tabs.remove(tab)
        if tab.doc.path:
            window.closed.append(tab.doc.path)
        for focus in self._focus.values():
            if focus.tab == tab.id:
                focus.tab = window.tabs[-1].id if window.tabs else None

    def is_shown(self, doc: OpenDocument) -> bool:
        return any(t.doc is doc for t in self.tabs())

    # ------------------------------------------------------------------ lab windows

    def add_window(self, label: str, client: str) -> Window:
        """The window of a connected JupyterLab client (the existing one for its label)."""
        window = self.windows.get(label)
        if window is None:
            window = self.windows[label] = Window(label, client=client)
        window.client = client
        return window

    def remove_window(self, label: str) -> list[OpenDocument]:
        """Forget a JupyterLab window (its client left). Tabs an agent opened there, and tabs
        with unsaved agent changes, move to ``main`` (nothing is lost); the others close.
        Sessions focused on a closed tab lose their focused tab rather than silently get
        another document. Returns the documents of the closed tabs. ``main`` stays."""
        if label == MAIN_WINDOW:
            return []
        window = self.windows.pop(label, None)
        if window is None:
            return []
        main = self.windows[MAIN_WINDOW]
        kept = [t for t in window.tabs if not t.in_lab or t.doc.dirty]
        for tab in kept:
            tab.window, tab.in_lab = MAIN_WINDOW, False
            main.tabs.append(tab)
        moved = {t.id for t in kept}
        for focus in self._focus.values():
            if focus.window == label:
                focus.window = MAIN_WINDOW
                if focus.tab not in moved:
                    focus.tab = None
        return [t.doc for t in window.tabs if t.id not in moved]

    def sync_window(self, window: Window, docs: list[OpenDocument], active: OpenDocument | None) -> list[OpenDocument]:
        """Make the window's tabs show ``docs``, what the person has open in its JupyterLab:
        tabs of documents still open there are kept (with their selection), new ones are
        added, the ones they closed are closed (tabs an agent opened in the window stay); the
        person's ``active`` document is moved last. Returns the documents of the closed tabs
        (the caller decides whether to drop their buffers)."""
        wanted = {id(d) for d in docs}
        closed = [t for t in window.tabs if t.in_lab and id(t.doc) not in wanted]
        for gone in closed:
            self.close(gone)
        for doc in docs:
            tab = self.tab_in(window, doc)
            if tab is None:
                tab = Tab(f"tab-{next(self._ids)}", doc, window.label)
                window.tabs.append(tab)
            tab.in_lab = True
        shown = self.tab_in(window, active) if active is not None else None
        if shown is not None and window.tabs[-1] is not shown:
            window.tabs.remove(shown)
            window.tabs.append(shown)
        return [t.doc for t in closed]

    def tab_in(self, window: Window, doc: OpenDocument) -> Tab | None:
        return next((t for t in window.tabs if t.doc is doc), None)
