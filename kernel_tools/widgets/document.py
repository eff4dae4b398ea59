"""``DocumentView``: a markdown document rendered with its pending suggestions marked.

The text comes from the ``document`` tool (``action="read"``, paged through ``nextLine``),
the suggestions from the REST API with ``locate=True``: their ``currentStart``/``currentEnd``
index into the text of the answer's ``revision``, so both are read again until the
revisions agree. ``document_model`` turns them into HTML; the view redraws on the event
stream's ``document`` and ``suggestion`` events for its path (a burst makes one redraw).
Clicking a mark selects its suggestion, to accept or reject as the person.
"""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Any

import anywidget
import traitlets

from .base import Tasks, css, esm, settled, with_entry
from .document_model import view
from .live import Coalescer, error_text
from .review_model import now

# The text and the suggestions are read this many times at most to get one revision.
READ_ATTEMPTS = 4


class DocumentView(anywidget.AnyWidget):
    """``lab.document_view(path)``: the document with its pending suggestions, kept current."""

    _esm = esm("cards.js", "document.js")
    _css = css("common.css", "review.css", "document.css")

    path = traitlets.Unicode().tag(sync=True)
    html = traitlets.Unicode("").tag(sync=True)
    marks = traitlets.List(traitlets.Dict()).tag(
        sync=True
    )  # the placed suggestions: id, author, rationale, lines, created
    unplaced = traitlets.List(traitlets.Dict()).tag(sync=True)  # cards of those that cannot be shown in the text
    revision = traitlets.Unicode("").tag(sync=True)
    kind = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    busy = traitlets.Dict().tag(sync=True)  # suggestion id → "accept" | "reject"
    errors = traitlets.Dict().tag(sync=True)  # suggestion id → message
    clock = traitlets.Float(0.0).tag(sync=True)
    loaded = traitlets.Bool(False).tag(sync=True)

    def __init__(self, lab: Any, path: str, **kwargs: Any) -> None:
        if not isinstance(path, str) or not path.strip("/ "):
            raise ValueError("DocumentView needs a document path, e.g. lab.document_view('notes.md')")
        super().__init__(path=path.lstrip("/"), **kwargs)
        self.lab = lab
        self.tasks = Tasks()
        self._lock = threading.Lock()
        self._running = False
        self._again = False
        self._redraw_soon = Coalescer(self._refresh_later, quiet=0.15)
        self.on_msg(self._on_msg)
        self._unsubscribe = lab.events.subscribe(self._on_event)
        self.ready = self.refresh()

    def refresh(self) -> concurrent.futures.Future[Any]:
        """Read the document and its suggestions again and redraw (one read at a time)."""
        with self._lock:
            if self._running:
                self._again = True  # the read running now may miss this change: read once more after it
                return settled()  # a second click while the first runs
            self._running = True
        return self.tasks.run(self._refresh_loop)

    def _refresh_later(self) -> None:
        self.refresh()  # after a burst of events (the Coalescer's timer thread)

    def accept(self, id: str) -> concurrent.futures.Future[Any]:
        return self._decide(id, "accept")

    def reject(self, id: str) -> concurrent.futures.Future[Any]:
        return self._decide(id, "reject")

    def close(self) -> None:
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
            self._redraw_soon.close()
        super().close()

    # --- reading ------------------------------------------------------------------------

    def _refresh_loop(self) -> None:
        while True:
            try:
                self._draw()
            except Exception as exc:
                self.error = f"Could not read {self.path}: {error_text(exc)}"
            with self._lock:
                if not self._again:
                    self._running = False
                    return
                self._again = False

    def read_text(self) -> tuple[str, str, str]:
        """(text, revision, kind) of the whole document, paged through ``nextLine``."""
        parts: list[str] = []
        line: int | None = None
        revision, kind = "", "markdown"
        while True:
            args: dict[str, Any] = {"action": "read", "path": self.path}
            if line is not None:
                args["lineStart"] = line
            page = self.lab.call("document", args, progress=False)
            if revision and page["revision"] != revision:
                parts, line, revision = [], None, ""  # changed while paging: start over
                continue
            revision, kind = page["revision"], page.get("kind", "markdown")
            parts.append(page["content"])
            if not page.get("truncated") or not page.get("nextLine"):
                return "".join(parts), revision, kind
            line = int(page["nextLine"])

    def _draw(self) -> None:
        for _ in range(READ_ATTEMPTS):
            text, revision, kind = self.read_text()
            answer = self.lab.review.suggestions(self.path, "pending", locate=True, limit=1000)
            if answer.get("revision") in (revision, None):
                break  # None: the server cannot place them (then nothing is placed)
        else:
            raise RuntimeError("the document kept changing while it was read")
        shown = view(text, kind, answer.get("suggestions", []) if answer.get("revision") == revision else [])
        with self.hold_sync():
            self.clock = now()
            self.revision, self.kind = revision, kind
            self.html, self.marks, self.unplaced = shown["html"], shown["marks"], shown["unplaced"]
            self.error = ""
            self.loaded = True

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "resync":  # events may have been missed: read the document again
            self._redraw_soon.poke()
            return
        if kind == "document":
            path = event.get("path")
        elif kind == "suggestion" and isinstance(event.get("suggestion"), dict):
            path = event["suggestion"].get("path")
        else:
            return
        if path == self.path:
            self._redraw_soon.poke()

    # --- deciding -----------------------------------------------------------------------

    def _decide(self, id: str, verb: str) -> concurrent.futures.Future[Any]:
        with self._lock:
            if id in self.busy:
                done: concurrent.futures.Future[Any] = concurrent.futures.Future()
                done.set_result(None)
                return done
            self.busy = {**self.busy, id: verb}

        def run() -> None:
            message = ""
            try:
                answer = self.lab.review.accept(id) if verb == "accept" else self.lab.review.reject(id)
                if answer.get("status") == "conflict":
                    message = f"Conflict: {answer.get('reason') or 'the text changed; nothing was applied.'}"
            except Exception as exc:
                message = error_text(exc)
            with self._lock, self.hold_sync():
                self.busy, self.errors = with_entry(self.busy, id, ""), with_entry(self.errors, id, message)
            self.refresh()

        return self.tasks.run(run)

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        action, id = content.get("action"), content.get("id")
        if action == "accept" and id:
            self.accept(id)
        elif action == "reject" and id:
            self.reject(id)
        elif action == "refresh":
            self.refresh()
