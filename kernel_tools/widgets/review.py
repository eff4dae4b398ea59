"""``SuggestionReview``: agents' pending suggestions as diff cards to accept or reject.

For one document (``path=``) or all. The list is fetched once (one call, up to 1000) and then
kept current from the server's event stream, read in the kernel (``lab.events``): agents
staging more, and people deciding elsewhere (the JupyterLab panel, another notebook). The
person's decisions go through the REST API as the person (``lab.review``), on background
threads, each card busy meanwhile and its error shown on it. The cards themselves are built
by ``review_model`` (pure functions); a notebook cell's or an outline row's card says what
happens to it (``cell_changes``, ``outline_model``), with the document's parts as they are
now, read after each fetch and each change of that document.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import Any

import anywidget
import traitlets

from ..errors import ApiError
from .base import Tasks, css, esm, settled, with_entry
from .cell_changes import cell_index
from .live import Coalescer, error_text
from .review_model import ReviewState, counts, now

FETCH_LIMIT = 1000  # the API's most; one call even for hundreds of pending suggestions
# Conflicts decided elsewhere show when they are this recent (a replayed old one does not).
RECENT_SECONDS = 300.0


class SuggestionReview(anywidget.AnyWidget):
    """Diff cards of pending suggestions; ``lab.review_widget(path=None)`` makes one."""

    _esm = esm("cards.js", "review.js")
    _css = css("common.css", "review.css")

    path = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    cards = traitlets.List(traitlets.Dict()).tag(sync=True)
    counts = traitlets.Dict().tag(sync=True)
    busy = traitlets.Dict().tag(sync=True)  # card id, or "path:<path>" → "accept" | "reject"
    errors = traitlets.Dict().tag(sync=True)  # card id, "path:<path>", or "" (the list) → message
    diffs = traitlets.Dict().tag(sync=True)  # card id → its unified diff, fetched when asked
    clock = traitlets.Float(0.0).tag(sync=True)  # the kernel's time when the cards were sent
    loaded = traitlets.Bool(False).tag(sync=True)

    def __init__(self, lab: Any, path: str | None = None, **kwargs: Any) -> None:
        path = path.lstrip("/") if path else None
        super().__init__(path=path, **kwargs)
        self.lab = lab
        self._state = ReviewState(path)
        self._lock = threading.RLock()
        self._fetching = 0
        self._beyond = 0
        self._queued: list[dict[str, Any]] = []
        self._since = time.time() - RECENT_SECONDS
        self.tasks = Tasks()  # tests and cells can wait: widget.tasks.wait()
        self._push_soon = Coalescer(self._push)
        # Cell and row changes read the document's parts (where a cell is, its outputs) after a burst.
        self._parts_soon = Coalescer(self._read_parts_later)
        self.on_msg(self._on_msg)
        self._unsubscribe = lab.events.subscribe(self._on_event)  # before the fetch: nothing is missed
        self.ready = self.refresh()

    # --- what the person does (also callable from code; each returns a future) -----------

    def refresh(self) -> concurrent.futures.Future[None]:
        """Fetch the pending suggestions again (the stream keeps them current meanwhile)."""
        with self._lock:
            self._fetching += 1
        return self.tasks.run(self._fetch)

    def accept(self, id: str) -> concurrent.futures.Future[None]:
        return self._decide(id, "accept", lambda: [self.lab.review.accept(id)])

    def reject(self, id: str) -> concurrent.futures.Future[None]:
        return self._decide(id, "reject", lambda: [self.lab.review.reject(id)])

    def accept_all(self, path: str | None = None) -> concurrent.futures.Future[None]:
        """Accept the pending suggestions shown (of ``path``): exactly what the person saw."""
        path = path or self.path
        ids = self._ids(path)

        def call() -> list[dict[str, Any]]:
            answer = self.lab.review.accept_all(path, ids)
            return [*answer.get("accepted", []), *answer.get("conflicts", [])]

        return self._decide(_path_key(path), "accept", call, ids)

    def reject_all(self, path: str | None = None) -> concurrent.futures.Future[None]:
        path = path or self.path
        ids = self._ids(path)
        return self._decide(
            _path_key(path), "reject", lambda: list(self.lab.review.reject_all(path, ids).get("rejected", [])), ids
        )

    def dismiss(self, id: str) -> None:
        """Hide a conflict the person has read."""
        with self._lock:
            if self._state.dismiss(id):
                self._push()

    def show_diff(self, id: str) -> concurrent.futures.Future[None]:
        """Fetch the suggestion's unified diff (3 lines of context) for its card."""

        def fetch() -> None:
            try:
                diff = self.lab.review.suggestion(id).get("diff")
                text = diff if diff else "(the base text is gone: no diff)"
            except Exception as error:
                text = f"(no diff: {error_text(error)})"
            with self._lock:
                self.diffs = {**self.diffs, id: text}

        return self.tasks.run(fetch)

    def close(self) -> None:
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
            self._push_soon.close()
            self._parts_soon.close()
        super().close()

    # --- the model ------------------------------------------------------------------------

    def _ids(self, path: str | None) -> list[str]:
        with self._lock:
            return self._state.ids(path)

    def _fetch(self) -> None:
        answer: dict[str, Any] | None = None
        error = ""
        try:
            answer = self.lab.review.suggestions(self.path, "pending", limit=FETCH_LIMIT)
        except Exception as exc:
            error = f"Could not list the suggestions: {error_text(exc)}"
        with self._lock:
            self._fetching -= 1
            if answer is not None:
                self._state.load(answer)
                # Pending ones past the fetch limit: counted in the header, not shown.
                self._beyond = max(_pending_total(answer, self.path) - len(answer.get("suggestions", [])), 0)
            if self._fetching == 0:
                queued, self._queued = self._queued, []
                for suggestion in queued:
                    self._state.apply(suggestion)
            self._set_error("", error)
            self._push()
            self.loaded = True
        self._parts_soon.poke()

    def _ingest(self, suggestions: list[dict[str, Any]], own: bool = False) -> bool:
        """Suggestions as they are now; held back while a fetch runs (then applied after it)."""
        changed = False
        with self._lock:
            for s in suggestions:
                if s.get("status") == "conflict" and not own and (s.get("decided") or 0) < self._since:
                    continue  # an old conflict replayed by the stream: not news
                if self._fetching:
                    self._queued.append(s)
                else:
                    changed = self._state.apply(s) or changed
        return changed

    def _on_event(self, event: dict[str, Any]) -> None:
        """On the event stream's thread: note the change, draw after the burst."""
        if event.get("type") == "resync":
            self.refresh()  # the stream cannot give every event since it last read: fetch again
            return
        if event.get("type") == "document" and event.get("path") in self._part_paths():
            self._parts_soon.poke()  # accepted or changed: cells moved, outputs went
        suggestion = event.get("suggestion") if event.get("type") == "suggestion" else None
        if isinstance(suggestion, dict) and self._ingest([suggestion]):
            self._push_soon.poke()
            if suggestion.get("part"):
                self._parts_soon.poke()

    def _part_paths(self) -> set[str]:
        with self._lock:
            return self._state.part_paths()

    def _read_parts_later(self) -> None:
        self.tasks.run(self._read_parts)

    def _read_parts(self) -> None:
        """The parts of the documents with part changes, as they are now (a failed read
        leaves those cards saying what they can without them)."""
        changed = False
        for path in self._part_paths():
            try:
                parts = read_parts(self.lab, path)
            except Exception:
                continue
            with self._lock:
                changed = self._state.set_parts(path, parts) or changed
        if changed:
            self._push()

    def _push(self) -> None:
        with self._lock:
            cards = self._state.cards()
            numbers = counts(cards)
            numbers["total"] = numbers["pending"] + self._beyond
            with self.hold_sync():
                self.clock = now()
                self.cards = cards
                self.counts = numbers

    def _decide(self, key: str, verb: str, call: Any, ids: list[str] | None = None) -> concurrent.futures.Future[None]:
        with self._lock:
            if key in self.busy:
                return settled()  # a second click while the first runs
            self.busy = {**self.busy, key: verb}
            self._set_error(key, "")

        def run() -> None:
            error = ""
            try:
                if ids is not None and not ids:
                    return
                self._ingest(call(), own=True)
            except ApiError as exc:
                error = error_text(exc)
                if exc.status in (404, 409):
                    # Decided or gone elsewhere meanwhile: show the list as it is now.
                    error += " (the list was updated: review again)"
                    self.refresh()
            except Exception as exc:
                error = error_text(exc)
            finally:
                with self._lock, self.hold_sync():
                    self._set_error(key, error)
                    self.busy = with_entry(self.busy, key, "")
                    self._push()

        return self.tasks.run(run)

    def _set_error(self, key: str, message: str) -> None:
        errors = with_entry(self.errors, key, message)
        if errors != self.errors:
            self.errors = errors

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A click in the front end (on the kernel's thread: start the work and return)."""
        if not isinstance(content, dict):
            return
        action, id, path = content.get("action"), content.get("id"), content.get("path")
        if action == "accept" and id:
            self.accept(id)
        elif action == "reject" and id:
            self.reject(id)
        elif action == "accept_all":
            self.accept_all(path)
        elif action == "reject_all":
            self.reject_all(path)
        elif action == "dismiss" and id:
            self.dismiss(id)
        elif action == "diff" and id:
            self.show_diff(id)
        elif action == "refresh":
            self.refresh()


def read_parts(lab: Any, path: str) -> dict[str, dict[str, Any]]:
    """A notebook's cells (``cell_changes.cell_index``) or an outline's rows (``outline_model.row_index``)."""
    if path.endswith(".ipynb"):
        return cell_index(lab.review.text(path))
    from .outline_model import row_index
    from .outline_source import read_rows

    return row_index(read_rows(lab, path)["rows"])


def _path_key(path: str | None) -> str:
    return f"path:{path or ''}"


def _pending_total(answer: dict[str, Any], path: str | None) -> int:
    """Pending suggestions on the server (the list holds at most ``FETCH_LIMIT``)."""
    per_doc = answer.get("counts") or {}
    return sum(int(c.get("pending", 0)) for p, c in per_doc.items() if path is None or p == path)
