"""A notebook cell's suggestion in words (``kernel_tools.widgets.cell_changes``) and on its
review card (``review_model.card``): pure functions on the REST API's suggestion shape
(``part``, ``change``: tests/server/api/test_suggestions_notebook.py checks the server's side)."""

from __future__ import annotations

import json
from typing import Any

from kernel_tools.widgets.cell_changes import cell_index, changes, describe, first_line
from kernel_tools.widgets.review_model import ReviewState, card

NOTEBOOK = {
    "cells": [
        {"id": "intro", "cell_type": "markdown", "source": ["# Analysis\n", "\n", "Some text."]},
        {
            "id": "load",
            "cell_type": "code",
            "source": "import math\nprint('hi')",
            "outputs": [{"output_type": "stream"}],
        },
        {"id": "plot", "cell_type": "code", "source": "\n\nplot()", "outputs": [{}, {}, {}]},
    ]
}
CELLS = cell_index(json.dumps(NOTEBOOK))


def suggestion(
    part: str, change: dict[str, Any] | None, original: str = "", new: str = "", **more: Any
) -> dict[str, Any]:
    return {
        "id": f"s-{part}",
        "path": "a.ipynb",
        "part": part,
        "change": change,
        "original": original,
        "new": new,
        "status": "pending",
        "author": "agent-a",
        "lineStart": 1,
        "lineEnd": 1,
        **more,
    }


def test_cell_index_reads_positions_types_outputs_and_first_lines() -> None:
    assert CELLS == {
        "intro": {"index": 0, "type": "markdown", "outputs": 0, "first": "# Analysis"},
        "load": {"index": 1, "type": "code", "outputs": 1, "first": "import math"},
        "plot": {"index": 2, "type": "code", "outputs": 3, "first": "plot()"},
    }
    assert cell_index({"cells": [{"cell_type": "code", "source": "x"}]}) == {}  # no id: not addressable
    assert first_line("x" * 100).endswith("…") and len(first_line("x" * 100)) == 60


def test_each_kind_of_cell_change_in_words() -> None:
    insert = {"op": "insert", "after": "load", "index": 2, "fields": {"cell_type": "markdown", "source": "## New"}}
    assert changes(insert, "new1", CELLS) == ["markdown cell added after cell 1 «import math»"]
    top = {"op": "insert", "after": None, "index": 0, "fields": {"source": "x", "outputCount": 2}}
    assert changes(top, "new2", CELLS) == ["code cell added at the top", "with 2 outputs"]
    assert changes({"op": "delete", "after": None, "index": 0, "fields": {}}, "plot", CELLS) == [
        "cell removed",
        "with 3 outputs",
    ]
    move = {"op": "move", "after": "plot", "index": 2, "fields": {}}
    assert changes(move, "intro", CELLS) == ["moved from 0 to 2 (after cell 2 «plot()»)"]
    assert changes({**move, "after": None, "index": 0}, "plot", CELLS) == ["moved from 2 to 0 (to the top)"]
    assert changes(move, "gone", CELLS) == ["moved to 2 (after cell 2 «plot()»)"]  # not in the notebook now
    set_type = {"op": "set", "after": None, "index": 0, "fields": {"cell_type": "markdown"}}
    assert changes(set_type, "load", CELLS) == ["type code → markdown"]
    assert changes(set_type, "gone", {}) == ["type → markdown"]
    tags = {"op": "set", "after": None, "index": 0, "fields": {"metadata": {"tags": ["slow", "io"]}}}
    assert changes(tags, "load", CELLS) == ["metadata changed (tags: slow, io)"]
    clear = {"op": "set", "after": None, "index": 0, "fields": {"outputCount": 0, "execution_count": None}}
    assert changes(clear, "plot", CELLS) == ["clears 3 outputs"]
    assert changes(clear, "plot", {}) == ["clears the outputs"]
    assert changes(None, "load", CELLS) == ["source changed"]


def test_cards_for_cell_changes_say_what_happens_and_diff_the_source_only_when_it_changes() -> None:
    text = card(suggestion("load", None, "math", "cmath"), CELLS)
    assert text["part"] == {
        "id": "load",
        "kind": "cell",
        "op": "text",
        "label": "cell 1 «import math»",
        "changes": ["source changed"],
    }
    assert text["lines"] == "cell 1 «import math»"
    assert ["-", "math"] in text["diff"] and ["+", "cmath"] in text["diff"]
    added = card(suggestion("n1", {"op": "insert", "after": "intro", "index": 1, "fields": {}}, "", "x = 1"), CELLS)
    assert added["part"]["label"] == "new cell n1" and added["diff"] == [["+", "x = 1"]]
    removed = card(suggestion("plot", {"op": "delete", "after": None, "index": 0, "fields": {}}, "plot()", ""), CELLS)
    assert removed["diff"] == [["-", "plot()"]] and removed["part"]["changes"][0] == "cell removed"
    # A move and a field change carry the cell's text on both sides: no diff to draw.
    moved = card(suggestion("plot", {"op": "move", "after": None, "index": 0, "fields": {}}, "plot()", "plot()"), CELLS)
    assert moved["diff"] == [] and moved["part"]["op"] == "move"
    # A text document's card is as before: no part.
    plain = card({"id": "t", "path": "n.md", "original": "a", "new": "b", "lineStart": 3, "lineEnd": 3})
    assert "part" not in plain and plain["lines"] == "line 3"
    assert (text["line"], added["line"], removed["line"]) == (2, 2, 3)  # sorted by the cell's position


def test_the_review_state_redraws_part_cards_when_the_notebook_is_read() -> None:
    state = ReviewState("a.ipynb")
    clear = suggestion("plot", {"op": "set", "after": None, "index": 0, "fields": {"outputCount": 0}})
    state.load({"suggestions": [clear, suggestion("load", None, "math", "cmath")]})
    assert state.part_paths() == {"a.ipynb"}
    assert state.pending["s-plot"]["part"]["changes"] == ["clears the outputs"]  # not read yet
    assert state.set_parts("a.ipynb", CELLS)
    # In the notebook's order now (load is cell 1, plot cell 2).
    assert [c["part"]["changes"] for c in state.cards()] == [["source changed"], ["clears 3 outputs"]]
    assert not state.set_parts("a.ipynb", CELLS)  # the same parts: nothing to redraw
    state.apply({**clear, "status": "accepted"})
    assert [c["id"] for c in state.cards()] == ["s-load"]
    state.apply({**suggestion("load", None, "math", "cmath"), "status": "rejected"})
    assert state.part_paths() == set()


def test_describe_without_the_notebook_names_the_cell_by_id() -> None:
    out = describe(suggestion("load", {"op": "set", "after": None, "index": 0, "fields": {"metadata": {}}}))
    assert (out["label"], out["changes"]) == ("cell load", ["metadata changed"])
