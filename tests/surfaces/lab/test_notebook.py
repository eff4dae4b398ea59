"""The lab profile's ``notebook`` tool through a real Jupyter server and the official MCP SDK
client: a brief read, an output image fetched as a resource, a cell edit staged as a
suggestion and accepted by the person (through the contents manager; the live shared
document path is the server's storage, tested with text in tests/server)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Tools
from tests.ops.notebook.notebooks import PNG, rich, write

SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])


@SUGGEST
async def test_read_fetch_an_output_and_a_reviewed_cell_edit(mcp_lab: Any, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    services = mcp_lab.extension.services
    write(root, "a.ipynb", rich())
    async with mcp_client("lab") as client:
        tools = Tools(client)
        brief = await tools.ok("notebook", "read", path="a.ipynb")
        assert [c["id"] for c in brief["cells"]][:3] == ["intro", "load", "plot"]
        cells = await tools.ok("notebook", "read", path="a.ipynb", view="cell", cell="plot")
        [png] = cells["cells"][0]["outputs"][0]["resources"]
        fetched = await client.read_resource(png["uri"])
        assert base64.b64decode(fetched.contents[0].blob) == base64.b64decode(PNG)
        r = await tools.ok(
            "notebook",
            "edit",
            path="a.ipynb",
            op="insert",
            index=2,
            source="print(2)",
            expected_revision=brief["revision"],
        )
        assert (r["mode"], r["applied"], r["index"]) == ("suggest", False, 2)
        listed = await tools.ok("review", "list", path="a.ipynb")
        assert [s["id"] for s in listed["suggestions"]] == r["suggestionIds"]
        await services.reviews.accept(r["suggestionIds"][0], by="person")
        after = await tools.ok("notebook", "read", path="a.ipynb")
        assert after["cells"][2]["id"] == r["cellId"] and after["cells"][2]["firstLine"] == "print(2)"
    data = json.loads((root / "a.ipynb").read_text(encoding="utf-8"))
    assert [c["id"] for c in data["cells"]].index(r["cellId"]) == 2
