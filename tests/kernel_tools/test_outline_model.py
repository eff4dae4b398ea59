"""The outline tree widget's model (``kernel_tools.widgets.outline_model``): rows read from the
sample OPML as the REST API answers them, pending row suggestions in the REST API's shape
(``part`` = row id, ``change``), the tree nodes, search, the counts and the review cards'
words for rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.server.api.outline import outline_rows
from kernel_tools.widgets.outline_model import counts, describe, row_index, search, tree
from kernel_tools.widgets.review_model import card

SAMPLE = Path(__file__).parents[2] / "notebooks" / "sample" / "project-plan.opml"


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    """The sample's rows as ``GET outline`` answers them (the server's own function)."""
    return [r.model_dump() for r in outline_rows(SAMPLE.read_text(encoding="utf-8"), "outline")]


def suggestion(sid: str, part: str, change: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    base = {"id": sid, "path": "plan.opml", "part": part, "change": change, "status": "pending", "created": 1.0}
    return {"author": "planner", "rationale": "", "original": "", "new": "", **base, **more}


def ids(nodes: list[dict[str, Any]]) -> list[str]:
    return [n["id"] for n in nodes]


def test_rows_become_nodes_in_document_order(rows: list[dict[str, Any]]) -> None:
    nodes = tree(rows, [])
    assert ids(nodes)[:4] == ["goals", "goal-speed", "goal-a11y", "design"]
    goals = nodes[0]
    assert (goals["level"], goals["children"], goals["note"], goals["status"]) == (
        0,
        ["goal-speed", "goal-a11y"],
        "What the relaunch is for.",
        None,
    )
    assert [n["state"] for n in nodes[1:3]] == ["checked", "unchecked"]
    assert nodes[-3]["topic"] == "Launch party 🎉"
    assert counts(nodes) == {"rows": 15, "pending": 0}


def test_pending_changes_are_marked_on_their_rows_and_added_rows_placed(rows: list[dict[str, Any]]) -> None:
    pending = [
        suggestion("s1", "goal-a11y", None, original="Meet WCAG 2.2 AA", new="Meet WCAG 2.2 AA on every page"),
        suggestion("s2", "misc", {"op": "delete", "after": None, "index": 0, "fields": {}}),
        suggestion("s3", "misc-a11y", {"op": "move", "after": "build-migrate", "index": 3, "fields": {}}),
        suggestion(
            "s4",
            "build-qa",
            {
                "op": "insert",
                "after": "build-templates",
                "index": 2,
                "fields": {"topic": "QA pass", "parent": "build", "state": "unchecked"},
            },
        ),
        suggestion(
            "s5",
            "launch-first",
            {
                "op": "insert",
                "after": None,
                "index": 0,
                "fields": {
                    "topic": "Freeze content",
                    "parent": "launch",
                    "children": [{"id": "fc-1", "topic": "Posts", "children": [{"id": "fc-2", "topic": "Drafts"}]}],
                },
            },
        ),
        suggestion(
            "s6",
            "design-proto",
            {"op": "set", "after": None, "index": 0, "fields": {"topic": "Clickable prototype", "state": "checked"}},
            original="Clickable prototype",
            new="Clickable prototype",
        ),
        suggestion("s7", "goals", {"op": "set", "after": None, "index": 0, "fields": {"topic": "Goals", "note": ""}}),
        suggestion("old", "design", None, status="accepted"),  # decided: not shown
    ]
    nodes = tree(rows, pending)
    by = {n["id"]: n for n in nodes}
    assert by["goal-a11y"]["status"] == "changed"
    [topic] = by["goal-a11y"]["marks"]
    assert (topic["id"], topic["author"], topic["changes"]) == (
        "s1",
        "planner",
        ["topic → «Meet WCAG 2.2 AA on every page»"],
    )
    assert ["+", " on every page"] in topic["diff"]
    assert by["misc"]["status"] == "deleted" and by["misc"]["marks"][0]["changes"] == [
        "row removed with its 1 child row"
    ]
    assert by["misc-a11y"]["status"] == "moved"
    assert by["misc-a11y"]["marks"][0]["changes"] == ["moved after «Migrate old posts»"]
    # Added rows: where they would go, at their parent's level + 1, listed among its children.
    order = ids(nodes)
    assert order[order.index("build-templates") + 1] == "build-qa"
    assert (by["build-qa"]["status"], by["build-qa"]["level"], by["build-qa"]["state"]) == ("added", 1, "unchecked")
    assert by["build"]["children"] == ["build-cms", "build-templates", "build-qa", "build-migrate", "→misc-a11y"]
    # The moved row also shows where it would go: after "Migrate old posts", decided on the row itself.
    ghost = by["→misc-a11y"]
    assert order[order.index("build-migrate") + 1] == "→misc-a11y"
    assert (ghost["status"], ghost["by"], ghost["level"], ghost["marks"], ghost["topic"]) == (
        "moved-here",
        "s3",
        1,
        [],
        "Run an accessibility audit before launch",
    )
    assert order[order.index("launch") + 1 :][:4] == ["launch-first", "fc-1", "fc-2", "launch-dns"]
    assert by["launch"]["children"][0] == "launch-first" and by["launch-first"]["children"] == ["fc-1"]
    assert (by["fc-2"]["level"], by["fc-2"]["status"], by["fc-2"]["by"], by["fc-2"]["marks"]) == (3, "added", "s5", [])
    assert by["launch-first"]["marks"][0]["changes"] == ["row added first under «Launch»", "with 2 rows below"]
    assert by["design-proto"]["marks"][0]["changes"] == ["checked"]  # the topic is the row's: unchanged
    assert "diff" not in by["design-proto"]["marks"][0]
    assert by["goals"]["marks"][0]["changes"] == ["note removed"]
    assert by["design"]["marks"] == []
    assert counts(nodes) == {"rows": 15, "pending": 7, "changed": 3, "deleted": 1, "moved": 1, "added": 4}


def test_a_row_added_after_a_row_with_children_goes_past_its_subtree(rows: list[dict[str, Any]]) -> None:
    s = suggestion("s", "ops", {"op": "insert", "after": "design", "index": 2, "fields": {"topic": "Operations"}})
    order = ids(tree(rows, [s]))
    assert order[order.index("design-proto") + 1] == "ops"
    top = suggestion("t", "first", {"op": "insert", "after": None, "index": 0, "fields": {"topic": "Summary"}})
    assert ids(tree(rows, [top]))[0] == "first"


def test_search_finds_topics_and_notes_and_shows_their_ancestors(rows: list[dict[str, Any]]) -> None:
    nodes = tree(rows, [])
    found = search(nodes, "FIGMA")  # in a note, any case
    assert found == {"matches": ["design-proto"], "shown": ["design", "design-proto"]}
    found = search(nodes, "a11y")
    assert found["matches"] == []  # ids are not searched
    found = search(nodes, "access")
    assert found == {"matches": ["misc-a11y"], "shown": ["misc", "misc-a11y"]}
    assert search(nodes, "  ") == {"matches": [], "shown": []}
    assert search(nodes, "launch")["matches"] == ["goals", "launch", "launch-party", "misc-a11y"]


def test_row_cards_in_the_review_widget(rows: list[dict[str, Any]]) -> None:
    index = row_index(rows)
    topic = card(suggestion("s1", "goal-a11y", None, original="Meet WCAG 2.2 AA", new="Meet WCAG 2.2 AAA"), index)
    assert topic["lines"] == "«Meet WCAG 2.2 AA»" and topic["part"]["kind"] == "row"
    assert topic["diff"] and topic["line"] == 3  # the third row
    moved = card(suggestion("s2", "launch", {"op": "move", "after": None, "index": 0, "fields": {}}), index)
    assert moved["diff"] == [] and moved["part"]["changes"] == ["moved to the top"]
    added = describe(
        suggestion("s3", "n", {"op": "insert", "after": "launch-dns", "index": 1, "fields": {"text": "Monitor"}}), index
    )
    assert (added["label"], added["changes"], added["order"]) == (
        "new row «Monitor»",
        ["row added after «Switch DNS»"],
        11,
    )
    unknown = describe(suggestion("s4", "zz", {"op": "set", "after": None, "index": 0, "fields": {}}))
    assert (unknown["label"], unknown["changes"]) == ("row zz", ["row changed"])
    gone = describe(suggestion("s5", "zz", {"op": "delete", "after": None, "index": 0, "fields": {"topic": "Old"}}))
    assert gone["label"] == "«Old»"  # a row no longer in the outline is named by the topic it had
    renamed = card(
        suggestion(
            "s6",
            "launch",
            {"op": "set", "after": None, "index": 0, "fields": {"topic": "Go live"}},
            original="Launch",
            new="Go live",
        ),
        index,
    )
    assert renamed["part"]["changes"] == ["topic → «Go live»"] and renamed["diff"] == [
        ["-", "Launch"],
        ["+", "Go live"],
    ]
