"""The jupyter profile's kernel and execution tools on a real Jupyter server and ipykernel:
the person's Allow in JupyterLab (a websocket client on the lab bridge plays it), a grant,
outputs stored, an image as a resource, restart, and a pending insert that does not run."""

from __future__ import annotations

import base64
import json
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from tests.conftest import CLIENT_NAME, LabServer, text_of
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


SLOW = "import time\nprint('start', flush=True)\ntime.sleep(2.5)\nprint('end', flush=True)"


async def test_progress_interval_stream_and_the_kernelspec_in_list_kernels(
    mcp_lab: LabServer, mcp_client: Any, jp_data_dir: Path
) -> None:
    """progress_interval paces the progress notifications (with the time run so far), stream
    sends the cell's printed text as log messages or not; list_kernels shows the kernelspec's
    env as the reference does (K=V; …, cut at 100 characters)."""
    spec = jp_data_dir / "kernels" / "envpy"
    spec.mkdir(parents=True)
    env = {"MCP_LAB_SPEC": "envpy", "PADDING": "p" * 120}
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel_json = {"argv": argv, "display_name": "Python (env)", "language": "python", "env": env}
    (spec / "kernel.json").write_text(json.dumps(kernel_json), encoding="utf-8")
    root = Path(mcp_lab.serverapp.root_dir)
    nb = new_notebook(
        cells=[new_code_cell(SLOW, id="slow")],
        metadata={"kernelspec": {"name": "envpy", "display_name": "Python (env)"}},
    )
    (root / "slow.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
    progress: list[str] = []
    logs: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async def on_log(params: Any) -> None:
        logs.append(str(params.data))

    async def run(**arguments: Any) -> dict[str, Any]:
        progress.clear()
        logs.clear()
        result = await client.call_tool("execute_cell", {"cell_id": "slow", **arguments}, progress_callback=on_progress)
        assert not result.is_error and result.structured_content is not None, text_of(result)
        assert result.structured_content["outputs"] == ["start\nend\n"]
        return result.structured_content

    async with mcp_client("jupyter", logging_callback=on_log) as client:
        tools = Jupyter(client)
        await tools.text("use_notebook", notebook_name="slow", notebook_path="slow.ipynb")

        await run(progress_interval=1, stream=False)
        ticks = [m for m in progress if m.startswith("running for")]
        assert len(ticks) >= 2 and all(re.fullmatch(r"running for \d+ s of 120 s", m) for m in ticks), progress
        assert not any("start" in m or "end" in m for m in logs), logs

        await run(progress_interval=0, stream=True)
        assert "start\n" in logs and "end\n" in logs
        assert not any(m.startswith("running for") for m in progress), progress

        await run(timeout=30)  # the reference's defaults: every 5 s (none in a 2.5 s run), streamed
        assert not any(m.startswith("running for") for m in progress) and "start\n" in logs

        assert (await tools.ok("execute_code", code="import os; print(os.environ['MCP_LAB_SPEC'])"))[0] == "envpy\n"
        kernels = (await tools.ok("list_kernels"))[1]
    [row] = kernels["items"]
    model = mcp_lab.serverapp.kernel_manager.kernel_model(row["ID"])
    assert (row["Name"], row["Display_Name"], row["Language"], row["State"]) == (
        "envpy",
        "Python (env)",
        "python",
        "idle",
    )
    assert row["Environment"] == f"MCP_LAB_SPEC=envpy; PADDING={'p' * 120}"[:100] + "..."
    # As the reference shows it in a Jupyter server: the kernel manager's ISO time.
    assert datetime.fromisoformat(row["Last_Activity"]) <= datetime.fromisoformat(model["last_activity"])
    assert row["Connections"] == str(model["connections"])
