"""notebook execute and kernel (list, interrupt, restart) without Jupyter (the standalone server):
a clear error that changes nothing. With Jupyter: tests/surfaces/lab/test_notebook_execute.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .notebooks import rich, write


@pytest.mark.parametrize("approval", ["suggest", "auto"])
async def test_standalone_has_no_kernels(ops_client: Any, tmp_path: Path, approval: str) -> None:
    _, open_tools = ops_client(approval=approval)
    root = tmp_path / "root"
    write(root, "a.ipynb", rich())
    before = (root / "a.ipynb").read_bytes()
    async with open_tools() as tools:
        for action, args in [
            ("execute", {"cell": "load"}),
            ("execute", {"source": "1"}),
            ("kernel", {"kernel": "interrupt"}),
            ("kernel", {"kernel": "restart"}),
        ]:
            err = await tools.fail("notebook", action, path="a.ipynb", **args)
            assert (err["error"], err["needs"]) == ("NOT_IMPLEMENTED", "jupyter"), (action, err)
            assert "needs a Jupyter server" in err["message"]
        err = await tools.fail("notebook", "kernel")
        assert err["error"] == "NOT_IMPLEMENTED"
        # Neither a cell nor code, or both: the argument is named.
        for args in ({}, {"cell": "load", "source": "1"}):
            bad = await tools.fail("notebook", "execute", path="a.ipynb", **args)
            assert (bad["error"], bad["argument"]) == ("INVALID_ARGUMENT", "cell")
    assert (root / "a.ipynb").read_bytes() == before
