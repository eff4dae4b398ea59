"""The jupyter profile's kernel and execution tools on a real Jupyter server and ipykernel:
the person's Allow in JupyterLab (a websocket client on the lab bridge plays it), a grant,
outputs stored, an image as a resource, restart, and a pending insert that does not run."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CLIENT_NAME, LabServer
from tests.ops.notebook.notebooks import PNG
from tests.server.test_bridge import fake_lab
from tests.surfaces.lab.test_notebook_execute import notebook, sessions, stored

from .reference import Jupyter

pytestmark = pytest.mark.timeout(120)
SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest", "lab_confirm_timeout": 5.0}])


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "jupyter"]


@SUGGEST
async def test_execution_asks_the_person(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)  # title (markdown), plot (print, image, 42), setx, showx
    decision = {"allowed": False}

    async def answer(msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "result": {"allowed": decision["allowed"]}}

    async with fake_lab(mcp_lab) as lab, mcp_client("jupyter") as client:
        lab.answer = answer
        nb = Jupyter(client)
        assert await nb.text("list_kernels") == "No kernels found on the Jupyter server."
        await nb.text("use_notebook", notebook_name="run", notebook_path=name)

        # Denied: nothing runs, no kernel starts, and the agent is told why.
        text, err = await nb.fail("execute_cell", cell_id="plot")
        assert err["error"] == "APPROVAL_REQUIRED" and "denied" in text
        assert await sessions(mcp_lab) == {}

        decision["allowed"] = True
        text, r = await nb.ok("execute_cell", cell_index=1)
        assert r["kind"] == "cell.execute" and r["cellId"] == "plot" and r["images"] == 1
        assert r["outputs"][0] == "hello\n" and r["outputs"][2] == "42"
        image = r["outputs"][1]
        assert image["type"] == "image" and image["mimeType"] == "image/png" and PNG.strip() not in text
        assert f"[Image Output (image/png): {image['uri']}]" in text
        fetched = await client.read_resource(image["uri"])
        assert base64.b64decode(fetched.contents[0].blob) == base64.b64decode(PNG)
        kernel_id = (await sessions(mcp_lab))[name]

        # The kernel is the notebook's Jupyter session's: listed with its kernelspec.
        text, kernels = await nb.ok("list_kernels")
        [row] = kernels["items"]
        assert (row["ID"], row["Name"], row["Display_Name"], row["Language"]) == (
            kernel_id,
            "python3",
            "Python 3 (ipykernel)",
            "python",
        )
        assert text.startswith("ID\tName\tDisplay_Name\tLanguage\tState\tConnections\tLast_Activity\tEnvironment\n")
        listed = (await nb.ok("list_notebooks"))[1]["items"]
        assert listed[0]["Kernel_ID"] == kernel_id and listed[0]["Activate"] == "✓"

        assert (await nb.ok("execute_cell", cell_id="setx"))[1]["outputs"] == []
        text, code = await nb.ok("execute_code", code="print(x * 2)")
        assert code["outputs"] == ["10\n"] and code["kind"] == "code.execute" and text == "10\n"
        bad = await nb.fail("execute_code", code="1", kernel_id="not-this-notebooks")
        assert bad[1]["error"] == "NOT_IMPLEMENTED"

        assert (await nb.text("restart_notebook", notebook_name="nope")).startswith("Notebook 'nope' is not connected")
        text = await nb.text("restart_notebook", notebook_name="run")
        assert text == (
            "Notebook 'run' kernel restarted successfully. Memory state and imported packages have been cleared."
        )
        after = (await nb.ok("execute_cell", cell_id="showx"))[1]
        assert "NameError" in after["outputs"][-1]
        asked = [q["params"] for q in lab.requests if q["method"] == "confirm"]
        assert [a["action"] for a in asked] == ["execute", "execute", "execute", "execute", "kernel", "execute"]
        assert asked[3]["command"] == "print(x * 2)" and asked[0]["agent"] == CLIENT_NAME

        # Under suggest an inserted cell is a suggestion: it does not run before it is accepted.
        text, pending = await nb.ok("insert_execute_code_cell", cell_index=-1, cell_source="print('later')")
        assert (pending["applied"], pending["pending"]) == (False, True)
        assert pending["suggestionIds"][0] in text and "not executed" in text
        assert len(json.loads((root / name).read_text(encoding="utf-8"))["cells"]) == 4
    cell = stored(root, name, "plot")
    assert [o["output_type"] for o in cell["outputs"]] == ["stream", "display_data", "execute_result"]


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])
async def test_a_grant_lets_insert_and_execute_run(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)
    mcp_lab.extension.services.reviews.grant(name, CLIENT_NAME, "client", 5, by="person")
    progress: list[str | None] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message)

    async with mcp_client("jupyter") as client:
        nb = Jupyter(client)
        text = await nb.text("use_notebook", notebook_name="run", notebook_path=name, kernel_id="NEW")
        assert "[INFO] Connected to kernel" in text and name in await sessions(mcp_lab)
        result = await client.call_tool(
            "insert_execute_code_cell",
            {"cell_index": 1, "cell_source": "import time\nfor i in range(2):\n    print(i, flush=True)\n21 * 2"},
            progress_callback=on_progress,
        )
        assert not result.is_error
        r = result.structured_content
        assert r is not None and (r["applied"], r["outputs"]) == (True, ["0\n1\n", "42"])
        slow = await nb.ok("execute_code", code="import time\ntime.sleep(30)", timeout=2)
        assert "[TIMEOUT ERROR" in slow[1]["outputs"][-1]
    assert progress
    data = json.loads((root / name).read_text(encoding="utf-8"))
    new = data["cells"][1]
    assert new["id"] == r["cellId"] and "".join(new["outputs"][-1]["data"]["text/plain"]) == "42"
