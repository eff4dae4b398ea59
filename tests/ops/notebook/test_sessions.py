"""notebook list / use / unuse through the lab profile's tool, standalone (in-process SDK
client, no Jupyter: no kernels): each client name is its own session and focus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .notebooks import rich, write


async def test_use_focuses_the_session_and_unuse_gives_the_focus_back(ops_client: Any, tmp_path: Path) -> None:
    services, open_tools = ops_client(approval="auto")
    root = tmp_path / "root"
    write(root, "a.ipynb", rich())
    write(root, "b.ipynb", rich())
    async with open_tools(name="one") as one, open_tools(name="two") as two:
        listed = await one.ok("notebook", "list")
        assert listed["kernels"] is False and [n["path"] for n in listed["notebooks"]] == ["a.ipynb", "b.ipynb"]
        assert (await one.ok("notebook", "use", path="a.ipynb"))["notebooks"] == ["a.ipynb"]
        assert (await one.fail("notebook", "use", path="b.ipynb", name="bee"))["argument"] == "name"  # not on lab
        used = await one.ok("notebook", "use", path="b.ipynb")
        assert (used["previous"], used["notebooks"], used["kernel"]) == ("a.ipynb", ["a.ipynb", "b.ipynb"], None)
        await two.ok("notebook", "use", path="a.ipynb")
        # Without a path each session's calls go to its own notebook.
        await one.ok("notebook", "edit", op="insert", source="one")
        await two.ok("notebook", "edit", op="insert", source="two")
        assert (await one.ok("notebook", "read"))["path"] == "b.ipynb"
        mine = (await one.ok("notebook", "list", used=True))["notebooks"]
        assert [(n["path"], n["current"], n["name"]) for n in mine] == [
            ("a.ipynb", False, "a.ipynb"),
            ("b.ipynb", True, "b.ipynb"),
        ]
        # Unusing the current one gives the focus back to the one used before it.
        assert (await one.ok("notebook", "unuse"))["current"] == "a.ipynb"
        assert (await one.ok("notebook", "read"))["path"] == "a.ipynb"
        gone = await one.ok("notebook", "unuse", path="a.ipynb")
        assert (gone["current"], gone["notebooks"]) == (None, [])
        assert (await one.fail("notebook", "read"))["error"] == "INVALID_TAB"
        assert (await two.ok("notebook", "read"))["path"] == "a.ipynb"
        # Bad input: a clear error, and nothing changes.
        err = await one.fail("notebook", "use", path="b.ipynb", startKernel=True)
        assert (err["error"], err["needs"]) == ("NOT_IMPLEMENTED", "jupyter")
        assert (await one.fail("notebook", "use", path="missing.ipynb"))["error"] == "NOT_FOUND"
        assert (await one.fail("notebook", "unuse"))["error"] == "NOT_FOUND"
        assert (await one.fail("notebook", "list", limit=0))["argument"] == "limit"
    assert "".join(json.loads((root / "b.ipynb").read_text())["cells"][-1]["source"]) == "one"
    assert services.workspace.focus("one").notebooks == {}  # the refused calls used nothing
