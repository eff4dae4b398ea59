"""A notebook change told by cell (what a checkpoint records for the review panel): real
notebooks written by nbformat, compared as JSON texts, and with the text before parsed as
the document holds it."""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from jupyter_mcp_lab.core.content.notebook import NotebookContent
from jupyter_mcp_lab.core.review.cell_changes import MAX_CELLS, cell_changes
from tests.ops.notebook.notebooks import old_without_ids, rich


def ops(found: dict | None) -> list[tuple[str, str | None]]:
    assert found is not None
    return [(c["part"], (c["change"] or {}).get("op")) for c in found["changes"]]


def test_each_kind_of_cell_change() -> None:
    nb = rich()
    before = nbformat.writes(nb)
    load, plot, boom = nb.cells[1], nb.cells[2], nb.cells[3]
    load.source = "import math\nimport os\nprint('hi')"  # a line added in the middle
    plot.metadata["tags"] = ["figure"]
    boom.cell_type = "markdown"  # nbformat: a markdown cell has no outputs
    del boom["outputs"], boom["execution_count"]
    nb.cells[0], nb.cells[-1] = nb.cells[-1], nb.cells[0]  # two cells swap: both moved
    after = nbformat.writes(nb)
    found = cell_changes(before, after)
    assert ops(found) == [("raw", "move"), ("load", None), ("plot", "set"), ("boom", "set"), ("intro", "move")]
    _, edit, tagged, typed, _ = found["changes"]
    assert (edit["original"], edit["new"], edit["lineStart"], edit["lineEnd"]) == ("", "import os\n", 2, 2)
    assert (edit["contextBefore"], edit["contextAfter"]) == ("import math\n", "print('hi')")
    assert tagged["change"]["fields"] == {"metadata": {"tags": ["figure"]}}
    assert typed["change"]["fields"] == {"cell_type": "markdown", "outputCount": 0, "execution_count": None}
    # The text before as the document holds it parsed (sources and outputs as one string
    # each): the same changes, nothing else taken for changed.
    parsed = NotebookContent.parse("notebook", before).cells
    assert cell_changes(before, after, parsed) == found
    assert cell_changes(before, before, parsed) == {"changes": [], "more": 0}


def test_stored_outputs_and_many_cells() -> None:
    nb = new_notebook(cells=[new_code_cell(f"x = {i}", id=f"c{i}") for i in range(30)])
    before = nbformat.writes(nb)
    nb.cells[5].outputs = [new_output("stream", name="stdout", text="5\n")]
    nb.cells[5].execution_count = 1
    ran = cell_changes(before, nbformat.writes(nb))
    assert ran is not None and ran["changes"][0]["change"]["fields"] == {"outputCount": 1, "execution_count": 1}
    nb.cells = [new_markdown_cell(f"# {i}", id=f"m{i}") for i in range(25)]  # 30 removed, 25 added
    many = cell_changes(before, nbformat.writes(nb))
    assert many is not None and len(many["changes"]) == MAX_CELLS and many["more"] == 55 - MAX_CELLS


def test_old_notebooks_and_other_texts() -> None:
    old = old_without_ids()
    # Its cells are known by the ids its reads gave them until a write stores them.
    written = NotebookContent.parse("notebook", old).with_part("cell-1", "x = 2").serialize()
    assert ops(cell_changes(old, written)) == [("cell-1", None)]
    assert cell_changes("# not a notebook", written) is None
    assert cell_changes(old, '{"cells": [{"cell_type": "heading"}]}') is None
    assert ops(cell_changes("", written)) == [("cell-0", "insert"), ("cell-1", "insert")]  # a new notebook
