"""The review board's pure data functions: rows, filters, totals, the change and diff HTML."""

from __future__ import annotations

from kernel_tools.board_model import ALL, activity_table, change_html, diff_html, filtered, table, totals
from tests.kernel_tools.test_review_model import suggestion


def test_rows_in_order_with_the_change_and_the_age() -> None:
    frame = table([suggestion("a", created=1000.0), suggestion("b", path="x.md", author="agent-b")], at=1185.0)
    assert list(frame["id"]) == ["a", "b"]
    first = frame.iloc[0]
    assert (first["Document"], first["Lines"], first["Agent"], first["Status"], first["Age"]) == (
        "notes.md",
        "line 3",
        "agent-a",
        "pending",
        "3 min ago",
    )
    assert "<del" in first["Change"] and ">brown</del>" in first["Change"] and ">red</ins>" in first["Change"]


def test_filters_by_agent_and_document() -> None:
    frame = table([suggestion("a"), suggestion("b", author="agent-b"), suggestion("c", path="x.md", author="agent-b")])
    assert list(filtered(frame)["id"]) == ["a", "b", "c"]
    assert list(filtered(frame, agent="agent-b")["id"]) == ["b", "c"]
    assert list(filtered(frame, agent="agent-b", document="x.md")["id"]) == ["c"]
    assert list(filtered(frame, agent=ALL, document="notes.md")["id"]) == ["a", "b"]


def test_totals_from_the_api_counts() -> None:
    counts = {"a.md": {"pending": 2, "accepted": 1}, "b.md": {"pending": 1, "conflict": 1}, "c.md": {"rejected": 3}}
    assert totals(counts) == "**3 pending** in 2 documents · 1 accepted · 3 rejected · 1 conflict"
    assert totals({}) == "**0 pending** in 0 documents"


def test_change_html_escapes_and_cuts() -> None:
    html = change_html([["-", "<b>old</b>"], ["+", "new\nline"]])
    assert "&lt;b&gt;old&lt;/b&gt;" in html and "<b>" not in html and "new⏎ line" in html
    assert change_html([["=", "x" * 500]], limit=10).endswith("xxxxxxxxxx…")


def test_the_diff_html_shows_the_reason_of_a_conflict() -> None:
    detail = {**suggestion("a", "conflict", reason="The text moved."), "diff": "--- a\n+++ b\n-old\n+new\n"}
    html = diff_html(detail)
    assert "The text moved." in html and "agent-a" in html and "Foxes are red." in html
    assert "rgba(248,81,73,.2)" in html and "-old" in html and "+new" in html


def test_activity_newest_first() -> None:
    entries = [
        {"time": 0, "client": "a", "tool": "document.read", "arguments": "", "status": "ok", "durationMs": 1.26},
        {"time": 1, "client": "b", "tool": "document.edit", "arguments": "", "status": "STALE", "durationMs": 2},
    ]
    frame = activity_table(entries)
    assert list(frame["Agent"]) == ["b", "a"] and list(frame["Status"]) == ["STALE", "ok"]
    assert frame.iloc[1]["ms"] == 1.3


def test_a_cell_change_says_what_happens_to_the_cell() -> None:
    move = {"op": "move", "after": None, "index": 0, "fields": {}}
    moved = {**suggestion("m", path="a.ipynb"), "part": "boom", "change": move, "original": "1/0", "new": "1/0"}
    row = table([moved]).iloc[0]
    assert (row["Lines"], row["Change"]) == ("cell boom", "<b>moved to 0 (to the top)</b> ")
    assert "<b>moved to 0 (to the top)</b>" in diff_html({**moved, "diff": None})
