"""Per-session notebooks on a real Jupyter server with the official SDK client: two agents on
two notebooks at once never step on each other (jupyter profile), and the lab profile's
notebook list / use / unuse."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LabServer, Tools
from tests.ops.notebook.notebooks import rich, write

from .reference import Jupyter

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "jupyter"]


def sources(root: Path, name: str) -> list[str]:
    return ["".join(c["source"]) for c in json.loads((root / name).read_text(encoding="utf-8"))["cells"]]


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_two_agents_on_two_notebooks_at_once(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "a.ipynb", rich())
    write(root, "b.ipynb", rich())
    async with mcp_client("jupyter", client_name="agent-a") as a, mcp_client("jupyter", client_name="agent-b") as b:
        one, two = Jupyter(a), Jupyter(b)
        await one.text("use_notebook", notebook_name="mine", notebook_path="a.ipynb")
        await two.text("use_notebook", notebook_name="mine", notebook_path="b.ipynb")

        async def work(agent: Jupyter, tag: str) -> None:
            for i in range(8):  # no notebook_name: each call goes to that session's current notebook
                await agent.text("insert_cell", cell_index=-1, cell_type="code", cell_source=f"{tag}{i}")
                await agent.text("read_cell", cell_index=0)

        await asyncio.gather(work(one, "a"), work(two, "b"))
        assert sources(root, "a.ipynb")[6:] == [f"a{i}" for i in range(8)]
        assert sources(root, "b.ipynb")[6:] == [f"b{i}" for i in range(8)]
        # Each session lists only its own notebooks, under its own names.
        assert [i["Path"] for i in (await one.ok("list_notebooks"))[1]["items"]] == ["a.ipynb"]
        assert [i["Path"] for i in (await two.ok("list_notebooks"))[1]["items"]] == ["b.ipynb"]
        # One unusing its notebook leaves the other's as it was.
        assert await one.text("unuse_notebook", notebook_name="mine") == (
            "Notebook 'mine' unused successfully. No notebooks remaining."
        )
        assert "use_notebook" in (await one.fail("read_cell", cell_index=0))[0]
        assert (await two.text("read_cell", cell_index=13)).endswith("b7")
        assert "is not connected" in await one.text("unuse_notebook", notebook_name="mine")


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_lab_notebook_list_use_and_unuse(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    write(root, "a.ipynb", rich())
    (root / "sub").mkdir()
    write(root, "sub/b.ipynb", rich())
    (root / "notes.md").write_text("# Notes\n", encoding="utf-8")
    async with mcp_client("lab") as client, mcp_client("lab") as other:
        tools, them = Tools(client), Tools(other)
        listed = await tools.ok("notebook", "list")
        assert [(n["path"], n["used"], n["kernel"]) for n in listed["notebooks"]] == [
            ("a.ipynb", False, None),
            ("sub/b.ipynb", False, None),
        ]
        assert listed["kernels"] is True and listed["total"] == 2
        assert [n["path"] for n in (await tools.ok("notebook", "list", folder="sub"))["notebooks"]] == ["sub/b.ipynb"]

        used = await tools.ok("notebook", "use", path="a.ipynb")
        assert (used["path"], used["cellCount"], used["previous"], used["kernel"]) == ("a.ipynb", 6, None, None)
        # Calls without a path now go to it, in this session only.
        assert (await tools.ok("notebook", "read"))["path"] == "a.ipynb"
        assert (await them.fail("notebook", "read"))["error"] == "INVALID_TAB"
        await them.ok("notebook", "use", path="sub/b.ipynb", startKernel=True)
        edit = await tools.ok("notebook", "edit", op="insert", source="print('a')")
        assert edit["filePath"] == "a.ipynb" and edit["applied"] is True
        assert sources(root, "a.ipynb")[-1] == "print('a')" and sources(root, "sub/b.ipynb")[-1] == "raw text"

        second = await tools.ok("notebook", "use", path="sub/b.ipynb")
        assert second["previous"] == "a.ipynb" and second["notebooks"] == ["a.ipynb", "sub/b.ipynb"]
        assert second["kernel"] is not None  # the other session started it: one kernel per notebook
        mine = {n["path"]: n for n in (await tools.ok("notebook", "list", used=True))["notebooks"]}
        assert (mine["a.ipynb"]["current"], mine["sub/b.ipynb"]["current"]) == (False, True)
        assert mine["sub/b.ipynb"]["kernel"]["id"] == second["kernel"]["id"]
        kernels = await tools.ok("notebook", "kernel", kernel="list")
        assert kernels["kernels"][0]["paths"] == ["sub/b.ipynb"]

        gone = await tools.ok("notebook", "unuse")
        assert (gone["path"], gone["wasCurrent"], gone["current"]) == ("sub/b.ipynb", True, "a.ipynb")
        assert (await tools.ok("notebook", "read"))["path"] == "a.ipynb"
        assert (await them.ok("notebook", "read"))["path"] == "sub/b.ipynb"  # theirs unchanged
        missing = await tools.fail("notebook", "unuse", path="sub/b.ipynb")
        assert missing["error"] == "NOT_FOUND" and missing["notebooks"] == ["a.ipynb"]
        assert (await tools.fail("notebook", "use", path="notes.md"))["error"] == "INVALID_ARGUMENT"
        assert (await tools.fail("notebook", "use", path="../outside.ipynb"))["error"] == "INVALID_PATH"

        files = await tools.ok("workspace", "files", depth=1)
        assert [f["path"] for f in files["files"]] == ["a.ipynb", "notes.md", "sub", "sub/b.ipynb"]
        deep = await tools.ok("workspace", "files", pattern="**/*.ipynb", depth=1, limit=1)
        assert ([f["path"] for f in deep["files"]], deep["total"], deep["nextStart"]) == (["a.ipynb"], 2, 1)
        assert (await tools.ok("workspace", "files", pattern="**/*.ipynb"))["total"] == 1  # depth 0: the root only
        assert (await tools.ok("workspace", "files", pattern="*.md"))["files"][0]["path"] == "notes.md"
