"""A notebook's checkpoint says which cells its change touched, and how, in the shape of a
cell suggestion's fields (``part``, ``change``, ``cell``, the changed lines with context), so
the panel tells an applied change by cell as it tells a pending one. Staged by a real MCP
agent under ``suggest``, accepted and listed over real HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.ops.notebook.notebooks import rich, write

from ...conftest import LabServer
from .conftest import Api


async def test_a_notebook_checkpoint_lists_its_cells(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    write(root, "a.ipynb", rich())
    async with agent() as tools:
        nb = {"path": "a.ipynb"}
        await tools.ok("notebook", "edit", **nb, op="replace", cell="load", old="math", new="cmath")
        insert = await tools.ok("notebook", "edit", **nb, op="insert", index=1, source="x = 1\ny = 2")
        await tools.ok("notebook", "edit", **nb, op="move", cell="boom", index=0)
        await tools.ok("notebook", "edit", **nb, op="clear_outputs", cell="plot")
        await tools.ok("notebook", "edit", **nb, op="delete", cell="intro")
        await tools.ok(
            "document", "edit", path="notes.md", edits=[{"op": "find_replace", "find": "beta", "replace": "B"}]
        )
    await api.ok("POST", "suggestions/accept-all", {"path": "a.ipynb"})
    await api.ok("POST", "suggestions/accept-all", {"path": "notes.md"})

    text_cp, nb_cp = (await api.ok("GET", "checkpoints"))["checkpoints"]
    assert text_cp["cells"] is None  # not a notebook
    # Accept-all is one checkpoint: each cell it touched, in the notebook's new order.
    changes = nb_cp["cells"]["changes"]
    assert nb_cp["cells"]["more"] == 0
    assert [(c["part"], (c["change"] or {}).get("op")) for c in changes] == [
        ("boom", "move"),
        (insert["cellId"], "insert"),
        ("intro", "delete"),
        ("load", None),
        ("plot", "set"),
    ]
    moved, added, removed, edited, cleared = changes
    # The cell as it was ("Cell 4 (code) moved to 1"), where it went.
    assert moved["cell"] == {"index": 3, "cellType": "code", "outputCount": 1, "tags": []}
    assert (moved["change"]["index"], moved["change"]["after"]) == (0, None)
    assert added["cell"] is None and added["change"]["after"] == "boom"
    assert added["change"]["fields"] == {"cell_type": "code", "source": "x = 1\ny = 2", "outputCount": 0}
    assert (removed["cell"]["cellType"], removed["original"]) == ("markdown", "# Analysis\n\nSome text.\n\n## Data")
    # A source edit: its changed lines in the cell with the lines around them, as a suggestion's.
    assert (edited["original"], edited["new"], edited["contextAfter"]) == (
        "import math\n",
        "import cmath\n",
        "print('hi')",
    )
    assert (edited["lineStart"], edited["lineEnd"], edited["cell"]["index"]) == (1, 1, 1)
    assert cleared["change"]["fields"] == {"outputCount": 0, "execution_count": None}
    assert cleared["cell"]["outputCount"] == 2
    assert (await api.ok("GET", f"checkpoints/{nb_cp['id']}"))["cells"] == nb_cp["cells"]

    # Its revert is told by cell too: the removed cell comes back, the added one goes.
    undo = await api.ok("POST", f"checkpoints/{nb_cp['id']}/revert")
    back = {(c["part"], (c["change"] or {}).get("op")) for c in undo["cells"]["changes"]}
    assert {("intro", "insert"), (insert["cellId"], "delete"), ("load", None)} <= back
