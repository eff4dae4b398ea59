"""The Panel review board against a real JupyterLab: every suggestion in one table, the
filters, the selected suggestion's diff, accept / reject (selected and all shown) changing
the files, the agents' activity, live updates; and the served mode's app file and page
(Panel's own Jupyter server extension, under Jupyter's auth)."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from kernel_tools.board import review_board
from kernel_tools.board_app import APP_FILE, APP_SOURCE, serve_url
from kernel_tools.board_model import ALL, totals
from tests.kernel_tools.conftest import Lab, note
from tests.kernel_tools.test_review_widget import TEXT, eventually, stage


@pytest.fixture
def board(lab: Any) -> Any:
    made: list[Any] = []

    def make() -> Any:
        layout = lab.board()
        made.append(layout.board)
        return layout.board

    yield make
    for b in made:
        b.close()


def rows(b: Any) -> list[tuple[str, str, str]]:
    """(document, agent, status) of each row the table shows."""
    value = b.table.value
    return list(zip(value["Document"], value["Agent"], value["Status"], strict=True))


def test_the_board_lists_filters_shows_the_diff_and_accepts(lab_server: Lab, board: Any) -> None:
    one = note(lab_server, "board/one.md", TEXT)
    two = note(lab_server, "board/two.md", TEXT)
    fox = stage(lab_server, one, "quick brown fox", "quick red fox", "Red foxes.", agent="agent-a")
    stage(lab_server, two, "lazy dog", "sleepy cat", "Cats.", agent="agent-b")
    b = board()
    assert {(one, "agent-a", "pending"), (two, "agent-b", "pending")} <= set(rows(b))
    assert "pending" in b.summary.object and b.status.value == "pending"
    assert {one, two} <= set(b.document.options) and {"agent-a", "agent-b"} <= set(b.agent.options)

    b.agent.value = "agent-b"
    assert rows(b) == [(two, "agent-b", "pending")]
    b.agent.value = ALL
    b.document.value = one
    assert rows(b) == [(one, "agent-a", "pending")]

    b.table.selection = [0]
    assert not b.accept_selected.disabled
    assert b.tasks.wait(15)
    assert "Red foxes." in b.diff.object and "-The quick brown fox." in b.diff.object
    b.accept_selected.clicks += 1  # the person clicks "Accept selected"
    assert b.tasks.wait(15)
    assert (lab_server.root / one).read_text() == TEXT.replace("brown", "red")
    assert rows(b) == [] and b.message.object == "Accepted 1."
    assert (lab_server.root / two).read_text() == TEXT

    b.status.value = "accepted"  # the status filter asks the server again
    assert eventually(lambda: b.tasks.wait(1) and (one, "agent-a", "accepted") in rows(b)), rows(b)
    assert fox in list(b.table.value["id"])


def test_accept_and_reject_all_shown_follow_the_filters(lab_server: Lab, board: Any) -> None:
    path = note(lab_server, "board/filtered.md", TEXT)
    kept = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.", agent="agent-a")
    stage(lab_server, path, "lazy dog", "sleepy cat", "Cats.", agent="agent-b")
    b = board()
    b.document.value = path
    b.agent.value = "agent-b"
    assert len(rows(b)) == 1
    b.accept_filtered.clicks += 1
    assert b.tasks.wait(15)
    assert (lab_server.root / path).read_text() == TEXT.replace("lazy dog", "sleepy cat")
    b.agent.value = ALL
    assert list(b.table.value["id"]) == [kept]
    b.reject_filtered.clicks += 1
    assert b.tasks.wait(15)
    assert lab_server.api("GET", f"suggestions/{kept}")["status"] == "rejected"
    assert (lab_server.root / path).read_text() == TEXT.replace("lazy dog", "sleepy cat")


def test_the_board_follows_the_event_stream_and_shows_activity(lab_server: Lab, board: Any) -> None:
    path = note(lab_server, "board/live.md", TEXT)
    b = board()
    assert path not in set(b.table.value["Document"])
    sid = stage(lab_server, path, "lazy dog", "sleepy cat", "Cats.", agent="agent-live")
    assert eventually(lambda: sid in list(b.table.value["id"])), rows(b)
    assert path in b.document.options and "agent-live" in b.agent.options
    assert eventually(lambda: "agent-live" in set(b.activity.value["Agent"]))
    first = b.activity.value.iloc[0]
    assert first["Agent"] == "agent-live" and first["Tool"].startswith("document") and first["Status"] == "ok"
    lab_server.api("POST", f"suggestions/{sid}/reject")  # decided elsewhere
    assert eventually(lambda: sid not in list(b.table.value["id"])), rows(b)


def test_the_board_is_a_panel_layout(lab: Any) -> None:
    import panel as pn

    layout = review_board(lab)
    try:
        assert isinstance(layout, pn.Column)
        model = layout.get_root()  # what a notebook or a server session renders
        assert model is not None
    finally:
        layout.board.close()


def test_served_mode_writes_the_app_and_panel_serves_it(lab_server: Lab, lab: Any, board: Any) -> None:
    b = board()
    assert not (lab_server.root / APP_FILE).exists()  # written only when asked for
    b.serve_button.clicks += 1  # "Open as a page" on the inline board
    assert b.tasks.wait(15)
    assert f'href="/panel-preview/render/{APP_FILE}"' in b.served_link.object
    url = serve_url(lab)
    assert url == f"{lab_server.base}/panel-preview/render/{APP_FILE}"
    app = lab_server.root / APP_FILE
    assert app.read_text() == APP_SOURCE
    written = app.stat().st_mtime_ns
    assert serve_url(lab, relative=True) == f"/panel-preview/render/{APP_FILE}"
    assert app.stat().st_mtime_ns == written  # already there: not written again
    assert httpx.get(url, timeout=30).status_code in (302, 401, 403)  # Jupyter's auth guards it
    page = httpx.get(url, headers=lab_server.headers, timeout=120)  # a kernel runs the app: connect() finds us
    assert page.status_code == 200, page.text[:2000]
    assert "<title>Review board · MCP Lab</title>" in page.text
    assert "Bokeh" in page.text and "Failed to start application" not in page.text


def test_the_panel_link_writes_the_same_app() -> None:
    """The JupyterLab panel's "Review board" link writes the app file with the same text."""
    import re
    from pathlib import Path

    source = (Path(__file__).parents[2] / "labext" / "src" / "board_link.ts").read_text()
    found = re.search(r"export const BOARD_SOURCE = `(.*?)`;", source, re.S)
    assert found is not None and found.group(1) == APP_SOURCE
    assert f"export const BOARD_APP = '{APP_FILE}';" in source


def test_a_decision_during_a_refresh_ends_at_the_servers_state(lab_server: Lab, lab: Any) -> None:
    """The person rejects everything while a refresh is pushing its rows: the decision's own
    update must wait for it, not slip into Panel's table mid-update (Panel skips a value that
    arrives while the table is updating, so the page kept the older rows)."""
    import contextlib

    from panel.models.tabulator import DataTabulator

    path = note(lab_server, "board/race.md", TEXT)
    stage(lab_server, path, "quick brown fox", "quick red fox", "Red.", agent="agent-a")
    stage(lab_server, path, "lazy dog", "sleepy cat", "Cats.", agent="agent-b")
    layout = lab.board()
    b = layout.board
    b.close()  # no live refreshes: this test orders them itself
    tables = layout.get_root().select({"type": DataTabulator})
    [source] = [t.source for t in tables if "Rationale" in t.source.data]  # what the page shows
    b.document.value = path
    assert len(b.table.value) == 2
    decided: list[Any] = []

    def mid_refresh(attr: str, old: Any, new: Any) -> None:
        # Called while the refresh's rows are being pushed into the table (on its thread).
        if not decided:
            decided.append(b.decide("reject", b.shown_ids()))
            # Before the fix the decision finished here, inside the table's update, and its rows
            # were dropped; now it waits for this refresh to end (hence the time-out).
            with contextlib.suppress(TimeoutError):
                decided[0].result(timeout=2)

    source.on_change("data", mid_refresh)
    stage(lab_server, path, "# Notes", "# Journal", "Title.", agent="agent-c")  # the refresh brings a row
    b.refresh()
    assert b.tasks.wait(15) and decided
    assert b.message.object == "Rejected 3."
    assert lab_server.api("GET", f"suggestions?path={path}&status=pending")["suggestions"] == []
    assert list(b.table.value["id"]) == [] and len(source.data["id"]) == 0, source.data["id"]
    assert b.summary.object == totals(lab_server.api("GET", "suggestions?status=pending")["counts"])


def test_a_failure_in_the_background_leaves_a_trace(
    lab_server: Lab, board: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Nobody reads most of the board's background futures: a failure is logged."""
    b = board()
    with caplog.at_level(logging.ERROR, logger="kernel_tools.widgets.base"):
        future = b.tasks.run(lambda: b.lab.review.suggestion("no-such-suggestion"))
        assert b.tasks.wait(15)
    assert future.exception() is not None
    [record] = [r for r in caplog.records if r.name == "kernel_tools.widgets.base"]
    assert record.getMessage() == "A widget's background work failed"
    assert record.exc_info is not None and record.exc_info[1] is future.exception()


def test_a_browser_column_for_rows_a_refresh_replaced_is_dropped(lab_server: Lab, board: Any) -> None:
    """The page sends a table column (as Tabulator does) for the rows it showed, and the message
    crosses a refresh that changed the rows: applying it raised pandas' length error inside the
    kernel's message handling (the board's cell showed the traceback and stopped following).
    A column of the table's own length is still applied."""
    path = note(lab_server, "board/stale.md", TEXT)
    stage(lab_server, path, "quick brown fox", "quick red fox", "Red.", agent="agent-a")
    stage(lab_server, path, "lazy dog", "sleepy cat", "Cats.", agent="agent-b")
    b = board()
    b.document.value = path
    eventually(lambda: len(b.table.value) == 2)
    shown = b.table.value.copy()
    stale = {col: [*shown[col], shown[col].iloc[0]] for col in shown.columns}  # three rows
    b.table._process_data(stale)
    assert b.table.value.equals(shown)
    fresh = {col: list(shown[col]) for col in shown.columns}
    fresh["Rationale"] = ["Redder.", "Cats."]
    b.table._process_data(fresh)
    assert list(b.table.value["Rationale"]) == ["Redder.", "Cats."]
