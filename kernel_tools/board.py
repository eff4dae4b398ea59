"""The review board (Panel 1.9): every suggestion across documents in one table, filters by
agent, document and status, the selected one's diff, accept / reject (the selected ones or
everything the filters show), and the agents' activity; kept current from ``lab.events``.

``lab.board()`` shows it inline in a notebook; ``kernel_tools.board_app.serve_url(lab)``
serves it as an app through Panel's Jupyter server extension (``panel-preview/render/``).
Every decision is the person's, through the REST API (``lab.review``), on a worker thread;
updates reach the Bokeh document on its own thread when it has one (served mode).
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import Any

import panel as pn

from .board_app import serve_url
from .board_model import ALL, activity_table, diff_html, filtered, table, totals
from .widgets.base import Tasks
from .widgets.live import Coalescer, error_text

STATUSES = ["pending", "accepted", "rejected", "conflict", "all"]
FETCH_LIMIT = 1000


class _Table(pn.widgets.Tabulator):
    """The suggestions' table: the browser's events on it (a ticked row, a page turned) are
    applied under the board's lock, not in the middle of a refresh's update of the same table."""

    def __init__(self, lock: threading.RLock, value: Any, **params: Any) -> None:
        self._board_lock = lock
        super().__init__(value, **params)

    def _process_events(self, events: dict[str, Any]) -> None:
        with self._board_lock:
            super()._process_events(events)

    def _update_column(self, column: str, array: Any) -> None:
        # A column the browser sent for the rows it showed before a refresh replaced them (its
        # message crossed the new rows on the comm): stale, and pandas would raise on the
        # length, in the middle of the kernel's message handling. The table's next update
        # from the kernel brings the rows as they are.
        processed = self._processed
        if processed is not None and len(array) != len(processed.index):
            return
        super()._update_column(column, array)


class ReviewBoard:
    """The board's widgets and their wiring; ``.layout`` is the Panel object (``review_board``)."""

    def __init__(self, lab: Any, served: bool = False) -> None:
        self.lab = lab
        # Every change to the widgets holds this: refreshes, decisions and diffs end on worker
        # threads, the person's clicks on the kernel's, and Panel's table is not thread-safe (a
        # value set while it is pushing another is dropped: the page kept rows already decided).
        self._ui = threading.RLock()
        self.tasks = Tasks()
        self.suggestions: list[dict[str, Any]] = []
        self.frame = table([])
        self._doc = pn.state.curdoc if served else None  # the served session's document
        self.summary = pn.pane.Markdown("Loading…", margin=(0, 10))
        self.agent = pn.widgets.Select(label="Agent", options=[ALL], width=200)
        self.document = pn.widgets.Select(label="Document", options=[ALL], width=240)
        self.status = pn.widgets.Select(label="Status", options=STATUSES, value="pending", width=140)
        self.refresh_button = pn.widgets.Button(label="Refresh", width=90)
        # Inline only: the same board as a page of its own (Panel's server extension serves it).
        self.serve_button = pn.widgets.Button(label="Open as a page", width=130, visible=not served)
        self.served_link = pn.pane.HTML("", margin=(8, 10))
        self.table = _Table(
            self._ui,
            self.frame,
            selectable="checkbox",
            show_index=False,
            disabled=True,
            hidden_columns=["id"],
            formatters={"Change": {"type": "html"}},
            pagination="local",
            page_size=15,
            sizing_mode="stretch_width",
            layout="fit_data_stretch",
        )
        self.diff = pn.pane.HTML("<i>Select a suggestion to see its diff.</i>", sizing_mode="stretch_width")
        self.accept_selected = pn.widgets.Button(label="Accept selected", color="success", disabled=True)
        self.reject_selected = pn.widgets.Button(label="Reject selected", color="danger", disabled=True)
        self.accept_filtered = pn.widgets.Button(label="Accept all shown", color="success", variant="outline")
        self.reject_filtered = pn.widgets.Button(label="Reject all shown", color="danger", variant="outline")
        self.message = pn.pane.Markdown("", margin=(0, 10))
        self.activity = _Table(
            self._ui, activity_table([]), show_index=False, disabled=True, height=220, sizing_mode="stretch_width"
        )
        self._wire()
        self.layout = pn.Column(
            pn.Row(
                pn.pane.Markdown("### Review board", margin=(0, 10)),
                self.summary,
                self.refresh_button,
                self.serve_button,
                self.served_link,
            ),
            pn.Row(self.agent, self.document, self.status),
            self.table,
            pn.Row(self.accept_selected, self.reject_selected, self.accept_filtered, self.reject_filtered),
            self.message,
            pn.Card(self.diff, title="Diff of the selected suggestion", sizing_mode="stretch_width"),
            pn.Card(self.activity, title="Agents' activity", sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )
        self._refreshing = threading.Lock()
        self.load()
        self._refresh_soon = Coalescer(self.refresh, quiet=0.25)
        self._unsubscribe = lab.events.subscribe(self._on_event)

    # --- data -----------------------------------------------------------------------------

    def load(self) -> None:
        """Fetch and show now (what building the board does: a served page starts complete)."""
        fetched = self._fetch()
        with self._ui:
            self._show(*fetched)

    def refresh(self) -> None:
        """Fetch again and show, in the background (``board.tasks.wait()`` waits for it)."""
        self.tasks.run(self._fetch_and_show)

    def _fetch(self) -> tuple[dict[str, Any], dict[str, Any] | None]:
        answer = self.lab.review.suggestions(None, self.status.value, limit=FETCH_LIMIT)
        try:
            activity = self.lab.review.activity(limit=50)
        except Exception:
            activity = None  # the board is still useful without it
        return answer, activity

    def _fetch_and_show(self) -> None:
        # One refresh at a time: two overlapping ones could show an older answer last, and in a
        # notebook their pushes over the comm interleave (the summary line kept a stale count).
        with self._refreshing:
            try:
                fetched = self._fetch()
            except Exception as exc:
                note = f"⚠ {error_text(exc)}"
                self._on_ui(lambda: setattr(self.message, "object", note))
                return
            self._on_ui(lambda: self._show(*fetched))

    def _show(self, answer: dict[str, Any], activity: dict[str, Any] | None) -> None:
        self.suggestions = answer.get("suggestions", [])
        self.frame = table(self.suggestions)
        self.summary.object = totals(answer.get("counts") or {})
        agents = sorted(set(self.frame["Agent"]))
        documents = sorted(set(self.frame["Document"]) | set(answer.get("counts") or {}))
        self.agent.options = [ALL, *agents] if self.agent.value in (ALL, *agents) else [ALL, self.agent.value, *agents]
        self.document.options = [ALL, *documents]
        self._apply_filters()
        if activity is not None:
            self.activity.value = activity_table(activity.get("entries", []))

    def _apply_filters(self, *_: Any) -> None:
        with self._ui:
            shown = filtered(self.frame, self.agent.value, self.document.value)
            selected_ids = set(self.selected_ids())
            # Rows and selection together: the table never holds a selection of the older rows.
            selection = [i for i, sid in enumerate(shown["id"]) if sid in selected_ids]
            self.table.param.update(value=shown, selection=selection)
            self._selection_changed()

    def shown_ids(self, pending_only: bool = True) -> list[str]:
        """The ids the table shows now (the filters applied)."""
        value = self.table.value
        rows = value[value["Status"] == "pending"] if pending_only else value
        return list(rows["id"])

    def selected_ids(self) -> list[str]:
        value = self.table.value
        return [value.iloc[i]["id"] for i in self.table.selection if i < len(value)]

    # --- the person's actions -----------------------------------------------------------

    def _wire(self) -> None:
        self.agent.param.watch(self._apply_filters, "value")
        self.document.param.watch(self._apply_filters, "value")
        self.status.param.watch(lambda *_: self.refresh(), "value")
        self.table.param.watch(lambda *_: self._selection_changed(), "selection")
        self.refresh_button.on_click(lambda *_: self.refresh())
        self.serve_button.on_click(lambda *_: self.serve())
        self.accept_selected.on_click(lambda *_: self.decide("accept", self.selected_ids()))
        self.reject_selected.on_click(lambda *_: self.decide("reject", self.selected_ids()))
        self.accept_filtered.on_click(lambda *_: self.decide("accept", self.shown_ids()))
        self.reject_filtered.on_click(lambda *_: self.decide("reject", self.shown_ids()))

    def decide(self, verb: str, ids: list[str]) -> Any:
        """Accept or reject these suggestions as the person (in the background; a future)."""
        with self._ui:
            return self._decide(verb, ids)

    def _decide(self, verb: str, ids: list[str]) -> Any:
        pending = set(self.shown_ids())
        ids = [i for i in ids if i in pending]
        buttons = (self.accept_selected, self.reject_selected, self.accept_filtered, self.reject_filtered)
        if not ids:
            self.message.object = "Nothing pending to decide here."
            return self.tasks.run(lambda: None)
        for b in buttons:
            b.disabled = True
        self.message.object = f"{'Accepting' if verb == 'accept' else 'Rejecting'} {len(ids)}…"

        def run() -> None:
            try:
                note = self._call(verb, ids)
            except Exception as exc:
                note = f"⚠ {error_text(exc)}"

            def show() -> None:
                self._show(*fetched)
                self.message.object = note
                for b in buttons[2:]:
                    b.disabled = False

            with self._refreshing:  # in turn with the refreshes, as one of them
                fetched = self._fetch()
                self._on_ui(show)

        return self.tasks.run(run)

    def _call(self, verb: str, ids: list[str]) -> str:
        review = self.lab.review
        done, conflicts = 0, []
        for start in range(0, len(ids), 1000):  # the API takes at most 1000 ids at once
            chunk = ids[start : start + 1000]
            if verb == "accept":
                answer = review.accept_all(None, chunk)
                done += len(answer.get("accepted", []))
                conflicts += answer.get("conflicts", [])
            else:
                done += len(review.reject_all(None, chunk).get("rejected", []))
        note = f"{'Accepted' if verb == 'accept' else 'Rejected'} {done}."
        for c in conflicts:
            note += f"\n\n⚠ Conflict on {c['path']} ({c.get('lineStart')}): {c.get('reason') or 'the text changed.'}"
        return note

    def _selection_changed(self) -> None:
        with self._ui:
            self._show_selection()

    def _show_selection(self) -> None:
        ids = self.selected_ids()
        pending = set(self.shown_ids())
        self.accept_selected.disabled = self.reject_selected.disabled = not any(i in pending for i in ids)
        self.accept_selected.label = f"Accept selected ({len(ids)})" if ids else "Accept selected"
        self.reject_selected.label = f"Reject selected ({len(ids)})" if ids else "Reject selected"
        if not ids:
            self.diff.object = "<i>Select a suggestion to see its diff.</i>"
            return
        sid = ids[0]
        self.diff.object = "<i>Loading the diff…</i>"
        self.tasks.run(lambda: self._fetch_diff(sid))

    def _fetch_diff(self, sid: str) -> None:
        try:
            detail = self.lab.review.suggestion(sid)
            text = diff_html(detail)
        except Exception as exc:
            text = f"<i>No diff: {html.escape(error_text(exc))}</i>"

        def show() -> None:
            if self.selected_ids()[:1] == [sid]:
                self.diff.object = text

        self._on_ui(show)

    def serve(self) -> None:
        """Offer the served board: a link to it beside the buttons (in the background)."""
        self.tasks.run(self._serve)

    def _serve(self) -> None:
        """Write the app file if needed, then show the link to the served board."""
        try:
            href = html.escape(serve_url(self.lab, relative=True))
            text = f'<a href="{href}" target="_blank" rel="noopener">Open the review board in a new tab ↗</a>'
        except Exception as exc:
            text = f"<i>Could not set up the served board: {html.escape(error_text(exc))}</i>"
        self._on_ui(lambda: setattr(self.served_link, "object", text))

    # --- live updates -------------------------------------------------------------------

    def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("type") in ("suggestion", "activity", "resync"):
            self._refresh_soon.poke()

    def _on_ui(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` where the Bokeh document may be changed: its next tick when served, else now
        (holding the board's lock: another thread may be changing the widgets too)."""
        doc = self._doc
        if doc is not None and doc.session_context is not None:
            doc.add_next_tick_callback(lambda: self._locked(fn))
        else:
            self._locked(fn)

    def _locked(self, fn: Callable[[], None]) -> None:
        with self._ui:
            fn()

    def close(self) -> None:
        self._unsubscribe()
        self._refresh_soon.close()

    def __panel__(self) -> Any:
        return self.layout


__all__ = ["ReviewBoard", "review_board", "serve_url"]


def review_board(lab: Any, served: bool = False) -> pn.viewable.Viewable:
    """The board as a Panel layout: display it in a cell, or ``.servable()`` it in an app.

    In a notebook it loads Panel's and Tabulator's JavaScript once, inline (about 3.5 MB of
    output): by default Panel takes them from a CDN, and a lab without internet shows nothing.
    """
    if not served and "tabulator" not in pn.extension._loaded_extensions:
        pn.extension("tabulator", inline=True)
    board = ReviewBoard(lab, served=served)
    layout = board.layout
    layout.board = board  # type: ignore[attr-defined]  # tests and cells reach the board from the layout
    return layout
