"""Cell-level review cards and the outline tree against a real JupyterLab, at the model level.

An agent (the official SDK, its own MCP session) edits a notebook with the lab profile's
``notebook`` tool under ``approval=suggest``; the review widget's cards say what happens to
each cell (read with the notebook as it is now: positions, outputs) and accepting one changes
the file. The outline view reads the sample OPML's rows through the REST API, searches and
folds, and follows the event stream when the outline changes.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import nbformat

from tests.kernel_tools.conftest import Lab
from tests.kernel_tools.test_review_widget import click, eventually
from tests.kernel_tools.widget_helpers import browser_sets
from tests.ops.notebook.notebooks import rich, write

SAMPLE = Path(__file__).parents[2] / "notebooks" / "sample" / "project-plan.opml"


def cell_edit(server: Lab, path: str, agent: str = "agent-nb", **args: Any) -> dict[str, Any]:
    """The agent stages one cell edit; the tool's structured result."""
    result = server.agent_call("notebook", {"action": "edit", "path": path, **args}, client_name=agent)
    assert not result.is_error, result
    return dict(result.structured_content)


def stage_cell_changes(server: Lab, path: str) -> dict[str, str]:
    """One suggestion of each kind on the rich test notebook; their ids by kind."""
    made = {
        "text": cell_edit(server, path, op="replace", cell="load", old="math", new="cmath", rationale="Complex."),
        "insert": cell_edit(server, path, op="insert", index=2, cell_type="markdown", source="## Plot"),
        "move": cell_edit(server, path, op="move", cell="boom", index=0),
        "clear": cell_edit(server, path, op="clear_outputs", cell="plot"),
        "type": cell_edit(server, path, op="set_type", cell="raw", cell_type="markdown"),
        "tags": cell_edit(server, path, op="metadata", cell="intro", tags=["title"]),
        "delete": cell_edit(server, path, op="delete", cell="results"),
    }
    return {k: v["suggestionIds"][0] for k, v in made.items()}


def test_notebook_cards_say_what_happens_to_each_cell(lab_server: Lab, lab: Any) -> None:
    path = write(lab_server.root, "cells.ipynb", rich())
    staged = stage_cell_changes(lab_server, path)
    widget = lab.review_widget(path)
    try:
        widget.ready.result(15)

        def words() -> dict[str, list[str]]:
            return {c["id"]: c["part"]["changes"] for c in widget.cards}

        # The notebook is read after the list: positions and output counts come in.
        assert eventually(lambda: words().get(staged["clear"]) == ["clears 2 outputs"]), widget.cards
        by_kind = {k: words()[sid] for k, sid in staged.items()}
        assert by_kind == {
            "text": ["source changed"],
            "insert": ["markdown cell added after cell 1 «import math»"],
            "move": ["moved from 3 to 0 (to the top)"],
            "clear": ["clears 2 outputs"],
            "type": ["type raw → markdown"],
            "tags": ["metadata changed (tags: title)"],
            "delete": ["cell removed"],
        }
        cards = {c["id"]: c for c in widget.cards}
        assert cards[staged["text"]]["lines"] == "cell 1 «import math»"
        assert cards[staged["text"]]["diff"] == [["-", "math"], ["+", "cmath"]]
        assert cards[staged["insert"]]["diff"] == [["+", "## Plot"]]
        assert cards[staged["move"]]["diff"] == []  # a move changes no text
        # Cards in the notebook's order: the cells' positions.
        assert [c["part"]["id"] for c in widget.cards][:3] == ["intro", "load", cards[staged["insert"]]["part"]["id"]]

        # Accept the move: the file changes, its card goes, and the cards re-read the notebook.
        click(widget, "accept", id=staged["move"])
        assert widget.tasks.wait(15)
        ids = [c["id"] for c in nbformat.read(lab_server.root / path, as_version=4).cells]
        assert ids[0] == "boom"
        assert eventually(lambda: words().get(staged["text"]) == ["source changed"] and staged["move"] not in words())
        assert eventually(lambda: cards_label(widget, staged["text"]) == "cell 2 «import math»"), widget.cards
    finally:
        widget.close()


def cards_label(widget: Any, sid: str) -> str:
    return next((c["lines"] for c in widget.cards if c["id"] == sid), "")


def test_the_outline_view_reads_searches_folds_and_follows_changes(lab_server: Lab, lab: Any) -> None:
    shutil.copy(SAMPLE, lab_server.root / "plan.opml")
    view = lab.outline_view("plan.opml")
    try:
        view.ready.result(15)
        assert view.loaded and view.errors == {}
        assert [n["id"] for n in view.nodes][:3] == ["goals", "goal-speed", "goal-a11y"]
        assert view.counts == {"rows": 15, "pending": 0}
        browser_sets(view, query="figma")  # typed in the search box
        assert (view.matches, view.shown) == (["design-proto"], ["design", "design-proto"])
        browser_sets(view, query="")
        assert view.matches == [] and view.shown == []
        view.collapse_all()
        assert view.collapsed == ["goals", "design", "build", "launch", "misc"]
        view.expand("build")
        assert "build" not in view.collapsed

        # An agent edits the file through the document tool (a text suggestion); accepted, the
        # document event brings the tree up to date.
        edit = {"op": "anchored", "text": 'text="Switch DNS"', "replacement": 'text="Switch DNS at 6am"'}
        result = lab_server.agent_call(
            "document", {"action": "edit", "path": "plan.opml", "edits": [edit], "rationale": "Earlier."}
        )
        assert not result.is_error, result
        lab_server.api("POST", f"suggestions/{result.structured_content['suggestionIds'][0]}/accept")
        assert eventually(lambda: _topic(view, "launch-dns") == "Switch DNS at 6am"), view.nodes
    finally:
        view.close()


def test_the_outline_view_says_when_a_file_is_not_an_outline(lab_server: Lab, lab: Any) -> None:
    (lab_server.root / "not-outline.txt").write_text("A note\n")
    view = lab.outline_view("not-outline.txt")
    try:
        view.ready.result(15)
        assert view.nodes == [] and "not an outline" in view.errors[""]
    finally:
        view.close()


def _topic(view: Any, row: str) -> str:
    return next((n["topic"] for n in view.nodes if n["id"] == row), "")


def row_edit(server: Lab, path: str, agent: str = "planner", **args: Any) -> list[str]:
    """The agent stages one row edit with the lab profile's ``outline`` tool; its suggestion ids."""
    result = server.agent_call("outline", {"action": "edit", "path": path, **args}, client_name=agent)
    assert not result.is_error, result
    return list(result.structured_content["suggestionIds"])


def test_row_suggestions_in_the_tree_and_in_the_review_cards(lab_server: Lab, lab: Any) -> None:
    shutil.copy(SAMPLE, lab_server.root / "rows.opml")
    [add] = row_edit(lab_server, "rows.opml", op="add", topic="QA pass", sibling="build-templates", state="unchecked")
    [rename] = row_edit(lab_server, "rows.opml", op="update", row="launch", topic="Go live")
    [move] = row_edit(lab_server, "rows.opml", op="move", row="misc-a11y", sibling="build-migrate")
    [drop] = row_edit(lab_server, "rows.opml", op="delete", row="misc")
    view = lab.outline_view("rows.opml")
    review = lab.review_widget("rows.opml")
    try:
        view.ready.result(15)
        review.ready.result(15)
        by = {n["id"]: n for n in view.nodes}
        order = [n["id"] for n in view.nodes]
        added = next(n for n in view.nodes if n["status"] == "added")
        assert order[order.index("build-templates") + 1] == added["id"] and added["topic"] == "QA pass"
        assert added["marks"][0]["id"] == add and added["marks"][0]["changes"] == ["row added after «Page templates»"]
        assert (by["launch"]["status"], by["launch"]["marks"][0]["changes"]) == ("changed", ["topic → «Go live»"])
        assert by["misc-a11y"]["marks"][0]["changes"] == ["moved after «Migrate old posts»"]
        assert order[order.index("build-migrate") + 1] == "→misc-a11y"  # where it would go
        assert by["misc"]["marks"][0]["changes"] == ["row removed with its 1 child row"]
        assert view.counts["pending"] == 4
        # The review widget's cards for the same rows.
        assert eventually(lambda: {c["id"]: c["lines"] for c in review.cards}.get(rename) == "«Launch»"), review.cards
        words = {c["id"]: c["part"]["changes"] for c in review.cards}
        assert words[drop] == ["row removed with its 1 child row"] and words[move] == [
            "moved after «Migrate old posts»"
        ]

        # The person accepts the new row in the tree: the file has it, the tree shows it as a row.
        click(view, "accept", id=add)
        assert view.tasks.wait(15) and view.errors == {}
        assert 'text="QA pass"' in (lab_server.root / "rows.opml").read_text()
        assert eventually(lambda: _topic(view, added["id"]) == "QA pass" and view.counts["pending"] == 3)
        assert next(n for n in view.nodes if n["id"] == added["id"])["status"] is None
        # Rejects one; another is decided elsewhere (the panel): the tree follows the events.
        click(view, "reject", id=drop)
        assert view.tasks.wait(15)
        lab_server.api("POST", f"suggestions/{rename}/accept")
        assert eventually(lambda: _topic(view, "launch") == "Go live" and view.counts["pending"] == 1), view.nodes
        assert eventually(lambda: [c["id"] for c in review.cards] == [move]), review.cards
    finally:
        view.close()
        review.close()


MARKDOWN_PLAN = "# Plan\n\nWhy we do it.\n\n- [ ] Draft\n- [x] Review\n  - Notes\n\n## Later\n\n- Ship\n"


def test_a_markdown_outline_in_the_tree(lab_server: Lab, lab: Any) -> None:
    (lab_server.root / "plan.md").write_text(MARKDOWN_PLAN)
    view = lab.outline_view("plan.md")
    try:
        view.ready.result(15)
        assert view.errors == {}
        rows = [(n["topic"], n["level"], n["state"]) for n in view.nodes]
        assert rows == [
            ("Plan", 0, "none"),
            ("Draft", 1, "unchecked"),
            ("Review", 1, "checked"),
            ("Notes", 2, "none"),
            ("Later", 1, "none"),
            ("Ship", 2, "none"),
        ]
        assert view.nodes[0]["note"].strip() == "Why we do it."
        # An agent adds a row (on markdown: a text suggestion, a splice); accepted, the tree follows.
        result = lab_server.agent_call(
            "outline",
            {"action": "edit", "path": "plan.md", "op": "add", "topic": "Test", "parent": view.nodes[0]["id"]},
        )
        assert not result.is_error, result
        lab_server.api("POST", f"suggestions/{result.structured_content['suggestionIds'][0]}/accept")
        assert eventually(lambda: "Test" in [n["topic"] for n in view.nodes]), view.nodes
    finally:
        view.close()
