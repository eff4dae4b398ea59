"""notebook edit: each cell edit a suggestion under the default policy, accepted by cell id
through later changes, a person's change to the same cell a conflict, accept-all one change.

Through the lab profile's tool (in-process SDK client) on real nbformat notebooks; the
person's side is the review service and the file, as the panel's REST API uses them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .notebooks import old_without_ids, rich, write


@pytest.fixture
def lab(ops_client: Any, tmp_path: Path) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client(approval="suggest")
    return services, open_tools, tmp_path / "root"


def cells(root: Path, name: str = "a.ipynb") -> list[dict[str, Any]]:
    return json.loads((root / name).read_text(encoding="utf-8"))["cells"]


def source(root: Path, cell_id: str, name: str = "a.ipynb") -> str:
    [c] = [c for c in cells(root, name) if c["id"] == cell_id]
    return "".join(c["source"])


def person_edits(root: Path, change: Any, name: str = "a.ipynb") -> None:
    """The person changes the notebook (as JupyterLab saves it)."""
    nb = nbformat.read(root / name, as_version=4)
    change(nb)
    nbformat.write(nb, root / name)


EDITS = [
    ({"op": "insert", "index": 1, "cell_type": "markdown", "source": "New cell"}, "insert"),
    ({"op": "source", "cell": "load", "source": "import os"}, "replace"),
    ({"op": "replace", "cell": "load", "old": "math", "new": "cmath"}, "replace"),
    ({"op": "move", "cell": "raw", "index": 0}, "move"),
    ({"op": "delete", "cell": "boom"}, "delete"),
    ({"op": "clear_outputs", "cell": "plot"}, "replace"),
    ({"op": "set_type", "cell": "raw", "cell_type": "markdown"}, "replace"),
    ({"op": "metadata", "cell": 1, "tags": ["setup"], "metadata": {"collapsed": True}}, "replace"),
]


@pytest.mark.parametrize(("args", "kind"), EDITS, ids=[a["op"] for a, _ in EDITS])
async def test_each_edit_is_a_suggestion_then_applies_when_accepted(
    lab: tuple[Any, Any, Path], args: dict[str, Any], kind: str
) -> None:
    services, open_tools, root = lab
    write(root, "a.ipynb", rich())
    before = (root / "a.ipynb").read_text(encoding="utf-8")
    async with open_tools() as tools:
        r = await tools.ok("notebook", "edit", path="a.ipynb", **args)
        assert (r["mode"], r["applied"], r["changed"], len(r["suggestionIds"])) == ("suggest", False, True, 1)
        assert r["diff"] and (root / "a.ipynb").read_text(encoding="utf-8") == before
        [s] = services.reviews.pending("a.ipynb")
        assert (s.id, s.kind, s.part) == (r["suggestionIds"][0], kind, r["cellId"])
        assert s.operation == f"notebook.{args['op']}"
        # Another agent's unrelated cell edit lands first (the person accepted it): the
        # suggestion follows its cell by id.
        person_edits(root, lambda nb: nb.cells.insert(0, nbformat.v4.new_markdown_cell("Preface", id="pre")))
        accepted = await services.reviews.accept(s.id, by="person")
        assert accepted.status == "accepted", accepted.reason
    now = cells(root)
    ids = [c["id"] for c in now]
    assert ids[0] in ("pre", "raw")
    op = args["op"]
    if op == "insert":
        [new] = [c for c in now if c["id"] == r["cellId"]]
        assert new["cell_type"] == "markdown" and ids.index(r["cellId"]) == ids.index("intro") + 1
    elif op == "source":
        assert source(root, "load") == "import os"
    elif op == "replace":
        assert source(root, "load") == "import cmath\nprint('hi')"
    elif op == "move":
        assert ids[:2] == ["raw", "pre"]
    elif op == "delete":
        assert "boom" not in ids and len(ids) == 6
    elif op == "clear_outputs":
        [plot] = [c for c in now if c["id"] == "plot"]
        assert plot["outputs"] == [] and plot["execution_count"] is None
    elif op == "set_type":
        [raw] = [c for c in now if c["id"] == "raw"]
        assert raw["cell_type"] == "markdown" and "outputs" not in raw
    else:
        [load] = [c for c in now if c["id"] == "load"]
        assert load["metadata"] == {"collapsed": True, "tags": ["setup"]}


async def test_a_persons_edit_of_the_same_cell_makes_a_conflict(lab: tuple[Any, Any, Path]) -> None:
    services, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        src = await tools.ok("notebook", "edit", path="a.ipynb", op="source", cell="load", source="import os")
        gone = await tools.ok("notebook", "edit", path="a.ipynb", op="delete", cell="plot")
        typed = await tools.ok("notebook", "edit", path="a.ipynb", op="set_type", cell="raw", cell_type="code")

        def change(nb: Any) -> None:
            for c in nb.cells:
                if c.id == "load":
                    c.source = "import math  # mine\nprint('hi')"
                if c.id == "plot":
                    c.source = "plot(mine=True)"
                if c.id == "raw":
                    c.source = "raw text, edited"

        person_edits(root, change)
        after = (root / "a.ipynb").read_text(encoding="utf-8")
        for r in (src, gone, typed):
            decided = await services.reviews.accept(r["suggestionIds"][0], by="person")
            assert decided.status == "conflict"
    assert (root / "a.ipynb").read_text(encoding="utf-8") == after  # nothing changed


async def test_a_replace_elsewhere_in_the_cell_still_applies(lab: tuple[Any, Any, Path]) -> None:
    services, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        r = await tools.ok("notebook", "edit", path="a.ipynb", op="replace", cell="load", old="math", new="cmath")
    person_edits(root, lambda nb: setattr(nb.cells[1], "source", "import math\nprint('hello')"))
    assert (await services.reviews.accept(r["suggestionIds"][0], by="person")).status == "accepted"
    assert source(root, "load") == "import cmath\nprint('hello')"


async def test_accept_all_on_a_notebook_is_one_change(lab: tuple[Any, Any, Path]) -> None:
    services, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        for args in (
            {"op": "insert", "index": 0, "source": "# Title", "cell_type": "markdown"},
            {"op": "source", "cell": "load", "source": "import os"},
            {"op": "delete", "cell": "boom"},
            {"op": "move", "cell": "raw", "index": 1},
        ):
            await tools.ok("notebook", "edit", path="a.ipynb", **args)
    result = await services.reviews.accept_all(by="person", path="a.ipynb")
    assert len(result.accepted) == 4 and not result.conflicts
    [cp] = services.reviews.store.list_checkpoints(path="a.ipynb")
    assert cp.source == "accepted"
    now = cells(root)
    assert "".join(now[0]["source"]) == "# Title" and [c["id"] for c in now[1:3]] == ["intro", "raw"]
    assert "boom" not in [c["id"] for c in now] and source(root, "load") == "import os"
    nbformat.validate(nbformat.read(root / "a.ipynb", as_version=4))


async def test_apply_under_auto_and_ids_stored_in_old_notebooks(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="auto")
    root = tmp_path / "root"
    (root / "old.ipynb").write_text(old_without_ids(), encoding="utf-8")
    async with open_tools() as tools:
        r = await tools.ok("notebook", "edit", path="old.ipynb", op="source", cell="cell-1", source="x = 2")
        assert (r["applied"], r["mode"], r["checkpointId"] is not None) == (True, "apply", True)
        assert r["revision"] == (await tools.ok("notebook", "read", path="old.ipynb"))["revision"]
    data = json.loads((root / "old.ipynb").read_text(encoding="utf-8"))
    assert data["nbformat_minor"] == 5 and [c["id"] for c in data["cells"]] == ["cell-0", "cell-1"]
    assert "".join(data["cells"][1]["source"]) == "x = 2"
    nbformat.validate(nbformat.from_dict(data))


async def test_dry_run_and_bad_edits_change_nothing(lab: tuple[Any, Any, Path]) -> None:
    services, open_tools, root = lab
    write(root, "a.ipynb", rich())
    before = (root / "a.ipynb").read_text(encoding="utf-8")
    async with open_tools() as tools:
        dry = await tools.ok("notebook", "edit", path="a.ipynb", op="delete", cell="boom", mode="dryRun")
        assert (dry["mode"], dry["suggestionIds"], "-1/0" in dry["diff"]) == ("dryRun", None, True)
        bad = [
            ({"op": "source", "cell": "nope", "source": "x"}, "NOT_FOUND"),
            ({"op": "source", "cell": "load"}, "INVALID_ARGUMENT"),
            ({"op": "replace", "cell": "load", "old": "zzz", "new": "y"}, "NOT_FOUND"),
            ({"op": "replace", "cell": "intro", "old": "#", "new": "y"}, "INVALID_ARGUMENT"),
            ({"op": "clear_outputs", "cell": "intro"}, "INVALID_ARGUMENT"),
            ({"op": "move", "cell": "load", "index": 99}, "INVALID_ARGUMENT"),
            ({"op": "metadata", "cell": "load"}, "INVALID_ARGUMENT"),
            ({"op": "source", "cell": "load", "source": "x", "expected_revision": "rev-000000000000"}, "STALE"),
            ({"op": "explode", "cell": "load"}, "INVALID_ARGUMENT"),
        ]
        for args, code in bad:
            assert (await tools.fail("notebook", "edit", path="a.ipynb", **args))["error"] == code, args
    assert (root / "a.ipynb").read_text(encoding="utf-8") == before
    assert services.reviews.pending("a.ipynb") == []
