"""A notebook's cell suggestions as the review API lists them: the cell they change (``part``),
a structural change's summary (``change``), a diff of the cell's text (not of the notebook's
JSON), context and placement within the cell, so the panel can review them.

Staged by a real MCP agent with the lab profile's notebook tool under ``suggest``; listed and
decided over real HTTP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat

from tests.ops.notebook.notebooks import rich, write

from ...conftest import LabServer
from .conftest import Api


async def test_cell_suggestions_are_listed_by_cell(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    write(root, "a.ipynb", rich())
    async with agent() as tools:
        replace = await tools.ok("notebook", "edit", path="a.ipynb", op="replace", cell="load", old="math", new="cmath")
        insert = await tools.ok("notebook", "edit", path="a.ipynb", op="insert", index=1, source="x = 1\ny = 2")
        move = await tools.ok("notebook", "edit", path="a.ipynb", op="move", cell="boom", index=0)
        cleared = await tools.ok("notebook", "edit", path="a.ipynb", op="clear_outputs", cell="plot")
        listed = await tools.ok("review", "list", path="a.ipynb")
    by_id = {
        s["id"]: s
        for s in (await api.ok("GET", "suggestions", path="a.ipynb", locate="true", context="1"))["suggestions"]
    }
    text = by_id[replace["suggestionIds"][0]]
    # A text change in a cell: offsets, placement and context are in that cell's source.
    assert (text["part"], text["change"], text["original"], text["new"]) == ("load", None, "math", "cmath")
    assert (text["currentStart"], text["currentEnd"]) == (7, 11)  # "import |math|\nprint('hi')"
    assert (text["contextBefore"], text["contextAfter"]) == ("import ", "\nprint('hi')")
    detail = await api.ok("GET", f"suggestions/{text['id']}")
    assert "a.ipynb#load" in detail["diff"] and "-import math" in detail["diff"] and "+import cmath" in detail["diff"]
    assert '"cell_type"' not in detail["diff"]  # not the notebook's JSON
    # Structural changes: a summary, placeable while they still apply.
    new_cell = by_id[insert["suggestionIds"][0]]
    assert new_cell["part"] == insert["cellId"] and new_cell["change"]["op"] == "insert"
    assert new_cell["change"]["fields"]["source"] == "x = 1\ny = 2" and new_cell["currentStart"] == 0
    assert "+x = 1" in (await api.ok("GET", f"suggestions/{new_cell['id']}"))["diff"]
    moved = by_id[move["suggestionIds"][0]]
    assert (moved["part"], moved["change"]["op"], moved["change"]["index"]) == ("boom", "move", 0)
    assert (await api.ok("GET", f"suggestions/{moved['id']}"))["diff"] is None  # a move changes no text
    clear = by_id[cleared["suggestionIds"][0]]
    assert (clear["change"]["op"], clear["change"]["fields"]) == ("set", {"execution_count": None, "outputCount": 0})
    # Each says which cell it changes as it was then, for "cell 3 (code) clears 2 outputs";
    # an inserted cell has none (its change holds the new cell).
    assert text["cell"] == {"index": 1, "cellType": "code", "outputCount": 1, "tags": []}
    assert clear["cell"] == {"index": 2, "cellType": "code", "outputCount": 2, "tags": []}
    assert moved["cell"]["index"] == 3 and new_cell["cell"] is None
    assert (await api.ok("GET", f"suggestions/{clear['id']}"))["cell"] == clear["cell"]
    assert "cell" not in (await api.ok("GET", "suggestions", path="a.ipynb"))["suggestions"][0]  # only with context
    # The agent's own listing says which cell each is on, too.
    assert {s["id"]: s["part"] for s in listed["suggestions"]} == {k: v["part"] for k, v in by_id.items()}

    # The person edits the load cell over "math": that suggestion cannot be placed any more,
    # the others still can.
    nb = nbformat.read(root / "a.ipynb", as_version=4)
    [load] = [c for c in nb.cells if c.id == "load"]
    load.source = "import numpy\nprint('hi')"
    nbformat.write(nb, root / "a.ipynb")
    again = {s["id"]: s for s in (await api.ok("GET", "suggestions", path="a.ipynb", locate="true"))["suggestions"]}
    assert again[text["id"]]["currentStart"] is None
    assert again[new_cell["id"]]["currentStart"] == 0 and again[moved["id"]]["currentStart"] == 0
    # Accepting through the API applies the cell's change by id.
    accepted = await api.ok("POST", f"suggestions/{new_cell['id']}/accept")
    assert accepted["status"] == "accepted"
    ids = [c.id for c in nbformat.read(root / "a.ipynb", as_version=4).cells]
    assert ids[1] == insert["cellId"]
