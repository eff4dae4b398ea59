"""notebook read through the lab profile's tool (in-process SDK client, real notebooks)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from .notebooks import PNG, long, old_without_ids, rich, write


@pytest.fixture
def lab(ops_client: Any, tmp_path: Path) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client(approval="suggest")
    return services, open_tools, tmp_path / "root"


async def test_brief_listing(lab: tuple[Any, Any, Path]) -> None:
    _, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        r = await tools.ok("notebook", "read", path="a.ipynb")
    assert r["cellCount"] == 6 and r["nextStart"] is None and r["revision"].startswith("rev-")
    brief = {c["id"]: c for c in r["cells"]}
    assert [c["id"] for c in r["cells"]] == ["intro", "load", "plot", "boom", "results", "raw"]
    assert brief["intro"]["firstLine"] == "# Analysis" and brief["intro"]["type"] == "markdown"
    assert brief["load"]["executionCount"] == 1 and brief["load"]["outputs"] == "1 output: stream"
    assert brief["plot"]["outputs"] == "2 outputs: image/png, text/html"
    assert brief["boom"]["outputs"] == "1 output: error ZeroDivisionError"
    # What a view or a cell does not have is left out, never sent as null.
    assert brief["raw"].keys() == {"index", "id", "type", "firstLine", "lines"}
    assert brief["intro"].keys() == {"index", "id", "type", "firstLine", "lines"}


async def test_detailed_cells_reference_rich_outputs_never_inline_them(lab: tuple[Any, Any, Path]) -> None:
    _, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        r = await tools.ok("notebook", "read", path="a.ipynb", view="cells")
        [plot] = [c for c in r["cells"] if c["id"] == "plot"]
        image, result = plot["outputs"]
        assert image["text"] == "<Figure>" and PNG.strip() not in str(r)
        [png] = image["resources"]
        assert png["mimeType"] == "image/png" and png["size"] == 20
        assert [x["mimeType"] for x in result["resources"]] == ["text/html"] and result["text"] == "42"
        [boom] = [c for c in r["cells"] if c["id"] == "boom"]
        assert boom["outputs"][0]["text"] == "ZeroDivisionError"  # ANSI colours stripped
        # The resource serves the data: the image as a blob, HTML as text.
        fetched = await tools.client.read_resource(png["uri"])
        [blob] = fetched.contents
        assert blob.mime_type == "image/png" and base64.b64decode(blob.blob) == base64.b64decode(PNG)
        html = await tools.client.read_resource(result["resources"][0]["uri"])
        assert html.contents[0].text == "<b>42</b>"
        templates = await tools.client.list_resource_templates()
        assert [t.name for t in templates.resource_templates] == ["notebook-output"]


async def test_a_bad_output_uri_is_a_clear_error(lab: tuple[Any, Any, Path]) -> None:
    from mcp.shared.exceptions import MCPError

    _, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        for uri in (
            "notebook-output:///a.ipynb?cell=plot&output=9&mime=image%2Fpng",
            "notebook-output:///a.ipynb?cell=nope&output=0&mime=image%2Fpng",
            "notebook-output:///a.ipynb?cell=load&output=0&mime=image%2Fpng",
            "notebook-output:///../x.ipynb?cell=load&output=0&mime=text%2Fplain",
            "notebook-output:///a.ipynb",
        ):
            with pytest.raises(MCPError):
                await tools.client.read_resource(uri)


async def test_one_cell_sources_and_outline(lab: tuple[Any, Any, Path]) -> None:
    _, open_tools, root = lab
    write(root, "a.ipynb", rich())
    async with open_tools() as tools:
        one = await tools.ok("notebook", "read", path="a.ipynb", view="cell", cell="load")
        assert [c["source"] for c in one["cells"]] == ["import math\nprint('hi')"]
        last = await tools.ok("notebook", "read", path="a.ipynb", view="cell", cell=-1)
        assert last["cells"][0]["id"] == "raw" and last["cells"][0]["index"] == 5
        sources = await tools.ok("notebook", "read", path="a.ipynb", view="sources")
        assert all(c.get("outputs") is None for c in sources["cells"]) and sources["cells"][3]["source"] == "1/0"
        outline = await tools.ok("notebook", "read", path="a.ipynb", view="outline")
        assert [(h["level"], h["title"], h["cellId"]) for h in outline["headings"]] == [
            (1, "Analysis", "intro"),
            (2, "Data", "intro"),
            (3, "Results", "results"),
        ]
        missing = await tools.fail("notebook", "read", path="a.ipynb", view="cell", cell="nope")
        assert missing["error"] == "NOT_FOUND"
        beyond = await tools.fail("notebook", "read", path="a.ipynb", view="cell", cell=6)
        assert beyond["error"] == "NOT_FOUND"


async def test_detailed_reads_are_paged_under_the_budget(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client(approval="suggest", max_response_bytes=20_000)
    write(tmp_path / "root", "long.ipynb", long(500))
    async with open_tools() as tools:
        seen: list[str] = []
        start: int | None = 0
        pages = 0
        while start is not None:
            page = await tools.ok("notebook", "read", path="long.ipynb", view="cells", start=start, limit=1000)
            seen += [c["id"] for c in page["cells"]]
            start = page["nextStart"]
            pages += 1
        assert seen == [f"c{i}" for i in range(500)] and pages > 5
        brief = await tools.ok("notebook", "read", path="long.ipynb", start=490, limit=5)
        assert [c["index"] for c in brief["cells"]] == [490, 491, 492, 493, 494] and brief["nextStart"] == 495


async def test_old_notebooks_get_positional_ids_and_other_kinds_are_refused(lab: tuple[Any, Any, Path]) -> None:
    _, open_tools, root = lab
    (root / "old.ipynb").write_text(old_without_ids(), encoding="utf-8")
    (root / "n.md").write_text("# x\n", encoding="utf-8")
    async with open_tools() as tools:
        r = await tools.ok("notebook", "read", path="old.ipynb")
        assert [c["id"] for c in r["cells"]] == ["cell-0", "cell-1"]
        assert (await tools.fail("notebook", "read", path="n.md"))["error"] == "INVALID_ARGUMENT"
        assert (await tools.fail("notebook", "read", path="none.ipynb"))["error"] == "NOT_FOUND"


def test_a_brief_view_is_what_validating_its_values_makes() -> None:
    """Brief views are built unvalidated (read.py ``_constructed``, for speed): each must be
    the model that validating the same values gives, with every field there."""
    from jupyter_mcp_lab.ops.notebook.read import CellView, cell_view

    cells = rich()["cells"]
    assert cells
    for i, cell in enumerate(cells):
        view = cell_view("a.ipynb", i, cell, "brief")
        valid = CellView.model_validate(dict(view.__dict__))
        assert view == valid and view.model_dump_json() == valid.model_dump_json()
        assert list(view.__dict__) == list(CellView.model_fields)
