"""``OutlineView``: an outline document (OPML) as a tree, with agents' pending row changes.

Rows expand and collapse, show their checkbox state and notes, and are searched (``query``,
typed in the widget or set from code) and walked with the keyboard. Each pending suggestion
on a row is marked on it (added rows in the place they would take, changed, moved, deleted)
with Accept and Reject, which go through the REST API as the person. The tree follows the
server's event stream: a suggestion staged or decided elsewhere, or the file changed
(an accept), fetches the rows and the pending suggestions again, once per burst; every
fetch is the whole state, so the tree always ends at the server's. The tree itself is
``outline_model`` (pure functions).
"""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Any

import anywidget
import traitlets

from .base import Tasks, css, esm, settled, with_entry
from .live import Coalescer, error_text
from .outline_model import counts, search, tree
from .outline_source import read_rows

FETCH_LIMIT = 1000


class OutlineView(anywidget.AnyWidget):
    """``lab.outline_view(path)`` makes one."""

    _esm = esm("cards.js", "keyed.js", "outline.js")
    _css = css("common.css", "outline.css")

    path = traitlets.Unicode().tag(sync=True)
    nodes = traitlets.List(traitlets.Dict()).tag(sync=True)
    counts = traitlets.Dict().tag(sync=True)
    collapsed = traitlets.List(traitlets.Unicode()).tag(sync=True)  # row ids, set by the browser too
    query = traitlets.Unicode("").tag(sync=True)  # the search box, set by the browser too
    matches = traitlets.List(traitlets.Unicode()).tag(sync=True)
    shown = traitlets.List(traitlets.Unicode()).tag(sync=True)  # while searching: matches and their ancestors
    busy = traitlets.Dict().tag(sync=True)  # suggestion id or "all" → "accept" | "reject"
    errors = traitlets.Dict().tag(sync=True)  # suggestion id, "all" or "" (the tree) → message
    loaded = traitlets.Bool(False).tag(sync=True)

    def __init__(self, lab: Any, path: str, **kwargs: Any) -> None:
        super().__init__(path=path.lstrip("/"), **kwargs)
        self.lab = lab
        self.revision = ""
        self._lock = threading.RLock()
        self._ticket = self._applied = 0
        self.tasks = Tasks()
        self._refresh_soon = Coalescer(self._refresh_later)
        self.on_msg(self._on_msg)
        self.observe(lambda _change: self._search(), names=["query"])
        self._unsubscribe = lab.events.subscribe(self._on_event)  # before the fetch: nothing is missed
        self.ready = self.refresh()

    # --- what the person does (also callable from code; each returns a future) ---------------

    def refresh(self) -> concurrent.futures.Future[None]:
        """Read the rows and the pending suggestions again."""
        with self._lock:
            self._ticket += 1
            ticket = self._ticket
        return self.tasks.run(lambda: self._fetch(ticket))

    def accept(self, id: str) -> concurrent.futures.Future[None]:
        return self._decide(id, "accept", lambda: self.lab.review.accept(id))

    def reject(self, id: str) -> concurrent.futures.Future[None]:
        return self._decide(id, "reject", lambda: self.lab.review.reject(id))

    def accept_all(self) -> concurrent.futures.Future[None]:
        """Accept the pending suggestions shown in the tree (exactly those)."""
        ids = self._ids()
        return self._decide("all", "accept", lambda: self.lab.review.accept_all(self.path, ids) if ids else None)

    def reject_all(self) -> concurrent.futures.Future[None]:
        ids = self._ids()
        return self._decide("all", "reject", lambda: self.lab.review.reject_all(self.path, ids) if ids else None)

    def collapse(self, *ids: str) -> None:
        self.collapsed = list(dict.fromkeys([*self.collapsed, *ids]))

    def expand(self, *ids: str) -> None:
        self.collapsed = [c for c in self.collapsed if c not in ids]

    def collapse_all(self) -> None:
        self.collapsed = [n["id"] for n in self.nodes if n["children"]]

    def expand_all(self) -> None:
        self.collapsed = []

    def close(self) -> None:
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
            self._refresh_soon.close()
        super().close()

    # --- the model ----------------------------------------------------------------------------

    def _ids(self) -> list[str]:
        return [m["id"] for n in self.nodes for m in n["marks"]]

    def _fetch(self, ticket: int) -> None:
        try:
            read = read_rows(self.lab, self.path)
            answer = self.lab.review.suggestions(self.path, "pending", limit=FETCH_LIMIT)
            nodes, error = tree(read["rows"], answer.get("suggestions", [])), ""
        except Exception as exc:
            nodes, error = None, f"Could not read {self.path}: {error_text(exc)}"
        with self._lock:
            if ticket < self._applied:
                return  # a later fetch answered first: this one is older
            self._applied = ticket
            with self.hold_sync():
                if nodes is not None:
                    self.revision = read["revision"]
                    self.nodes = nodes
                    self.counts = counts(nodes)
                    self._search()
                self._set_error("", error)
                self.loaded = True

    def _refresh_later(self) -> None:
        self.refresh()

    def _search(self) -> None:
        found = search(self.nodes, self.query)
        with self.hold_sync():
            self.matches, self.shown = found["matches"], found["shown"]

    def _on_event(self, event: dict[str, Any]) -> None:
        """On the event stream's thread: fetch again after the burst when it is about this outline."""
        kind = event.get("type")
        suggestion = event.get("suggestion") if kind == "suggestion" else None
        if (
            kind == "resync"
            or (kind == "document" and event.get("path") == self.path)
            or (isinstance(suggestion, dict) and suggestion.get("path") == self.path)
        ):
            self._refresh_soon.poke()

    def _decide(self, key: str, verb: str, call: Any) -> concurrent.futures.Future[None]:
        with self._lock:
            if key in self.busy:
                return settled()  # a second click while the first runs
            self.busy = {**self.busy, key: verb}
            self._set_error(key, "")

        def run() -> None:
            error = ""
            try:
                call()
            except Exception as exc:
                error = error_text(exc)
            with self._lock:
                self._ticket += 1
                ticket = self._ticket
            self._fetch(ticket)  # the tree as the decision left it, before the buttons come back
            with self._lock, self.hold_sync():
                self._set_error(key, error)
                self.busy = with_entry(self.busy, key, "")

        return self.tasks.run(run)

    def _set_error(self, key: str, message: str) -> None:
        errors = with_entry(self.errors, key, message)
        if errors != self.errors:
            self.errors = errors

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A click in the front end (on the kernel's thread: start the work and return)."""
        if not isinstance(content, dict):
            return
        action, id = content.get("action"), content.get("id")
        if action == "accept" and id:
            self.accept(id)
        elif action == "reject" and id:
            self.reject(id)
        elif action == "accept_all":
            self.accept_all()
        elif action == "reject_all":
            self.reject_all()
        elif action == "refresh":
            self.refresh()
