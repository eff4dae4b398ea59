"""The jupyter profile's notebook and cell tools at mcp-lab/jupyter/mcp of a real Jupyter server,
called with the official MCP SDK client on notebooks written here (markdown, code, stream,
error and display outputs, an image, an nbformat 4.4 notebook without ids, 500 cells). Every
edit is a suggestion the person accepts; the answers say so where the reference says done."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LabServer
from tests.ops.notebook.notebooks import PNG, long, rich, write

from .reference import TOOLS, Jupyter

SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])
pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "jupyter"]


# nbformat 4.4 as older Jupyter wrote it: no cell ids (written as JSON: nbformat would validate).
OLD = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Old"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["x = 1"]},
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 4,
}


def cells_of(root: Path, name: str) -> list[dict[str, Any]]:
    return json.loads((root / name).read_text(encoding="utf-8"))["cells"]


def sources(root: Path, name: str) -> list[str]:
    return ["".join(c["source"]) for c in cells_of(root, name)]


async def accept(server: LabServer, structured: dict[str, Any]) -> None:
    """The person accepts the suggestions an answer names."""
    assert structured["suggestionIds"], structured
    for sid in structured["suggestionIds"]:
        decided = await server.extension.services.reviews.accept(sid, by="person")
        assert decided.status == "accepted", decided


@SUGGEST
async def test_files_notebooks_and_reads(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "rich.ipynb", rich())
    (root / "work").mkdir()
    write(root, "work/big.ipynb", long(500))
    (root / "notes.md").write_text("# Notes\n", encoding="utf-8")
    (root / ".hidden").mkdir()
    async with mcp_client("jupyter") as client:
        assert client.server_info is not None and client.server_info.name == "Jupyter MCP Server"
        tools = await client.list_tools()
        assert sorted(t.name for t in tools.tools) == sorted(TOOLS)
        nb = Jupyter(client)

        # list_files: the reference's TSV, hidden folders left out, depth, glob and pages.
        text, listed = await nb.ok("list_files")
        assert text.startswith("Showing 0-4 of 4 files\n\nPath\tType\tSize\tLast_Modified\n")
        assert [i["Path"] for i in listed["items"]] == ["notes.md", "rich.ipynb", "work", "work/big.ipynb"]
        assert [i["Type"] for i in listed["items"]] == ["file", "notebook", "directory", "notebook"]
        assert listed["items"][0]["Size"] == "8B" and listed["kind"] == "files.list"
        assert [i["Path"] for i in (await nb.ok("list_files", max_depth=0))[1]["items"]] == [
            "notes.md",
            "rich.ipynb",
            "work",
        ]
        assert [i["Path"] for i in (await nb.ok("list_files", pattern="**/*.ipynb"))[1]["items"]] == [
            "rich.ipynb",
            "work/big.ipynb",
        ]
        assert (await nb.text("list_files", start_index=1, limit=2)).startswith("Showing 1-3 of 4 files")
        assert await nb.text("list_files", pattern="*.py") == "No files matching pattern '*.py' found in path 'root'"
        assert (await nb.fail("list_files", max_depth=4))[1]["error"] == "INVALID_ARGUMENT"

        # No notebook in use yet: the cell tools say how to start.
        assert await nb.text("list_notebooks") == (
            "No managed notebooks. Use the use_notebook tool to manage notebooks first."
        )
        text, err = await nb.fail("read_cell", cell_index=0)
        assert "use_notebook" in text and err["error"] == "INVALID_TAB"

        # use_notebook: activated, with the brief listing of its first cells.
        text = await nb.text("use_notebook", notebook_name="rich", notebook_path="rich.ipynb")
        assert "[INFO] Successfully activate notebook 'rich'." in text
        assert "Notebook has 6 cells.\nShowing first 6 cells:\n\nIndex\tType\tCount\tFirst Line\n" in text
        assert "0\tmarkdown\tN/A\t# Analysis...(4 lines hidden)" in text
        text, table = await nb.ok("list_notebooks")
        assert table["items"] == [
            {"Name": "rich", "Path": "rich.ipynb", "Kernel_ID": "-", "Kernel_Status": "-", "Activate": "✓"}
        ]
        again = await nb.text("use_notebook", notebook_name="rich", notebook_path="rich.ipynb")
        assert again.startswith("Notebook 'rich' is already connected")
        wrong = await nb.text("use_notebook", notebook_name="rich", notebook_path="other.ipynb")
        assert "is not the correct path for notebook 'rich'" in wrong

        # read_notebook: brief and detailed.
        text = await nb.text("read_notebook", notebook_name="rich")
        assert text.splitlines()[:4] == [
            "Notebook rich has 6 cells.",
            "",
            "Index\tType\tCount\tFirst Line",
            "0\tmarkdown\tN/A\t# Analysis...(4 lines hidden)",
        ]
        assert "3\tcode\t3\t1/0" in text
        detailed = await nb.text("read_notebook", notebook_name="rich", response_format="detailed", limit=2)
        assert "=====Cell 1 | type: code | execution count: 1=====\n\nimport math\nprint('hi')" in detailed
        assert "Cell 2" not in detailed
        out_of_range = await nb.text("read_notebook", notebook_name="rich", start_index=9)
        assert out_of_range == "Start index 9 is out of range. Notebook has 6 cells."
        assert await nb.text("read_notebook", notebook_name="nope") == (
            "Notebook 'nope' is not connected. All currently connected notebooks: ['rich']"
        )
        text, err = await nb.fail("read_cell", cell_index=0, notebook_name="nope")
        assert err["error"] == "NOT_FOUND" and "Notebook 'nope' is not connected" in text

        # read_cell: source and outputs as text; the image is a resource, never base64 inline.
        text, cell = await nb.ok("read_cell", cell_index=2)
        assert cell["result"][0] == "=====Cell 2 | type: code | execution count: 2=====" and cell["images"] == 1
        [image] = [o for o in cell["outputs"] if isinstance(o, dict)]
        assert image["mimeType"] == "image/png" and PNG.strip() not in text
        fetched = await client.read_resource(image["uri"])
        assert base64.b64decode(fetched.contents[0].blob) == base64.b64decode(PNG)
        assert "42" in cell["outputs"]
        boom = await nb.ok("read_cell", cell_id="boom")
        assert boom[1]["outputs"][-1] == "ZeroDivisionError" and "\x1b" not in boom[0]  # no ANSI colours
        assert len((await nb.ok("read_cell", cell_id="boom", include_outputs=False))[1]["outputs"]) == 2

        # A 500-cell notebook in another folder: paged, and cut to the response budget.
        await nb.text("use_notebook", notebook_name="big", notebook_path="work/big.ipynb")
        page = await nb.text("read_notebook", notebook_name="big", start_index=480, limit=20)
        rows = page.splitlines()[3:]
        assert len(rows) == 20 and rows[0].startswith("480\tcode\tN/A\tx480 = 480...(20 lines hidden)")
        whole = await nb.text("read_notebook", notebook_name="big", response_format="detailed", limit=0)
        assert "continue with start_index=" in whole and len(whole.encode()) < 75_000
        assert (await nb.text("read_cell", cell_index=499)).startswith("=====Cell 499 | type: code")
    assert sources(root, "rich.ipynb")[3] == "1/0"  # reads changed nothing


@SUGGEST
async def test_cell_edits_are_suggestions_the_person_accepts(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "rich.ipynb", rich())
    (root / "old.ipynb").write_text(json.dumps(OLD, indent=1) + "\n", encoding="utf-8")
    before = (root / "rich.ipynb").read_bytes()
    async with mcp_client("jupyter") as client:
        nb = Jupyter(client)
        await nb.text("use_notebook", notebook_name="rich", notebook_path="rich.ipynb")

        text, r = await nb.ok("insert_cell", cell_index=1, cell_type="code", cell_source="y = 2")
        assert (r["applied"], r["pending"], r["kind"]) == (False, True, "cell.insert")
        assert r["suggestionIds"][0] in text and "NOT applied yet" in text and "+y = 2" in text
        assert (root / "rich.ipynb").read_bytes() == before  # nothing changed until the person decides
        await accept(mcp_lab, r)
        assert sources(root, "rich.ipynb")[1] == "y = 2" and cells_of(root, "rich.ipynb")[1]["id"] == r["cellId"]

        text, r = await nb.ok("overwrite_cell_source", cell_id=r["cellId"], cell_source="y = 3\nprint(y)")
        assert r["pending"] and "-y = 2" in text and "+y = 3" in text
        await accept(mcp_lab, r)
        text, r = await nb.ok("edit_cell_source", cell_index=1, old_string="y", new_string="z", replace_all=True)
        assert r["pending"] and "+z = 3" in text and "+print(z)" in text
        await accept(mcp_lab, r)
        assert sources(root, "rich.ipynb")[1] == "z = 3\nprint(z)"
        text, err = await nb.fail("edit_cell_source", cell_index=1, old_string="z", new_string="w")
        assert err["error"] == "INVALID_ARGUMENT" and err["occurrences"] == 2 and text.startswith("Error: ")
        assert (await nb.fail("edit_cell_source", cell_index=1, old_string="", new_string="w"))[1]["argument"] == (
            "old_string"
        )

        text, r = await nb.ok("clear_cell_output", cell_id="load")
        assert r["pending"] and "Clearing the 1 output(s) of cell load" in text
        await accept(mcp_lab, r)
        assert next(c for c in cells_of(root, "rich.ipynb") if c["id"] == "load")["outputs"] == []
        assert (await nb.text("clear_cell_output", cell_id="load")) == "Cell load had no output to clear."
        assert (await nb.fail("clear_cell_output", cell_index=0))[0].startswith(
            "Error: Cell 0 is not a code cell, cannot clear output."
        )

        text, r = await nb.ok("move_cell", source_cell_id="raw", target_index=0)
        assert r["pending"] and "Moving cell 6 to 0 (raw)" in text
        await accept(mcp_lab, r)
        assert cells_of(root, "rich.ipynb")[0]["id"] == "raw"
        assert "out of range" in (await nb.fail("move_cell", source_index=0, target_index=7))[0]

        text, r = await nb.ok("delete_cell", cell_ids_to_delete=["boom", "results"])
        assert r["pending"] and len(r["suggestionIds"]) == 2 and "deleted cell source:\n1/0" in text
        await accept(mcp_lab, r)
        assert [c["id"] for c in cells_of(root, "rich.ipynb")] == ["raw", "intro", r_id(root), "load", "plot"]
        bad = await nb.fail("delete_cell", cell_indices=[0, 0])
        assert "duplicate" in bad[0]
        missing = await nb.fail("delete_cell", cell_indices=[0, 40])  # every cell checked before any goes
        assert missing[1]["error"] == "NOT_FOUND"
        assert len(cells_of(root, "rich.ipynb")) == 5

        # An nbformat 4.4 notebook without ids: addressed by index, ids stored on the first write.
        await nb.text("use_notebook", notebook_name="old", notebook_path="old.ipynb")
        text, r = await nb.ok(
            "insert_cell", cell_index=-1, cell_type="markdown", cell_source="## End", notebook_name="old"
        )
        await accept(mcp_lab, r)
        old = json.loads((root / "old.ipynb").read_text(encoding="utf-8"))
        assert old["nbformat_minor"] >= 5 and [c["id"] for c in old["cells"]][:2] == ["cell-0", "cell-1"]
        assert ["".join(c["source"]) for c in old["cells"]] == ["# Old", "x = 1", "## End"]
        # notebook_name reaches a used notebook other than the current one.
        assert "Notebook rich has 5 cells." in await nb.text("read_notebook", notebook_name="rich")
        assert (await nb.text("read_cell", cell_index=2, notebook_name="old")).endswith("## End")


def r_id(root: Path) -> str:
    """The id of the cell insert_cell added (index 2 once raw moved first)."""
    return cells_of(root, "rich.ipynb")[2]["id"]


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_under_auto_the_reference_answers_done(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "rich.ipynb", rich())
    async with mcp_client("jupyter") as client:
        nb = Jupyter(client)
        await nb.text("use_notebook", notebook_name="rich", notebook_path="rich.ipynb")
        text, r = await nb.ok("insert_cell", cell_index=-1, cell_type="code", cell_source="z = 1")
        assert (r["applied"], r["pending"]) == (True, False)
        assert text.startswith("Cell inserted successfully at index 6 (code)!\nNotebook now has 7 cells")
        text = await nb.text("overwrite_cell_source", cell_index=6, cell_source="z = 2")
        assert text.startswith("Cell 6 overwritten successfully!") and "+z = 2" in text
        assert (await nb.text("overwrite_cell_source", cell_index=6, cell_source="z = 2")).endswith(
            "no changes detected"
        )
        text = await nb.text("move_cell", source_index=6, target_index=0)
        assert text.startswith("Cell moved successfully from index 6 to 0 (code).\nNotebook has 7 cells")
        text = await nb.text("delete_cell", cell_indices=[0], include_source=False)
        assert text == "Cell 0 (code) deleted successfully."
        text = await nb.text("clear_cell_output", cell_index=1)
        assert text == "Cell 1 output cleared successfully (1 output(s) removed)."
        text = await nb.text("use_notebook", notebook_name="fresh", notebook_path="fresh.ipynb", mode="create")
        assert "Successfully activate notebook 'fresh'" in text and "Notebook is empty" in text
        assert "already created" in await nb.text(
            "use_notebook", notebook_name="fresh", notebook_path="fresh.ipynb", mode="create"
        )
        await nb.text("insert_cell", cell_index=0, cell_type="markdown", cell_source="# Fresh")
    assert sources(root, "fresh.ipynb") == ["# Fresh"]
    assert len(cells_of(root, "rich.ipynb")) == 6
