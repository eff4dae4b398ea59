"""Running notebook code through the lab profile's ``notebook`` tool: a real Jupyter server,
its kernel and session managers, a real ipykernel, the official MCP SDK client, and for the
person's Allow a websocket client playing JupyterLab on the lab bridge."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tests.conftest import CLIENT_NAME, LabServer, Tools
from tests.ops.notebook.notebooks import PNG
from tests.server.test_bridge import fake_lab

pytestmark = pytest.mark.timeout(120)
SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest", "lab_confirm_timeout": 5.0}])

PLOT = (
    "from IPython.display import display\n"
    "print('hello', flush=True)\n"
    f"display({{'image/png': {PNG.strip()!r}, 'text/plain': '<image>'}}, raw=True)\n"
    "6 * 7"
)


def notebook(root: Path, name: str = "run.ipynb") -> str:
    nb = new_notebook(
        cells=[
            new_markdown_cell("# Run", id="title"),
            new_code_cell(PLOT, id="plot"),
            new_code_cell("x = 5", id="setx"),
            new_code_cell("print(x)", id="showx"),
        ],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    (root / name).write_text(nbformat.writes(nb), encoding="utf-8")
    return name


def stored(root: Path, name: str, cell: str) -> dict[str, Any]:
    data = json.loads((root / name).read_text(encoding="utf-8"))
    return next(c for c in data["cells"] if c["id"] == cell)


async def sessions(server: LabServer) -> dict[str, str]:
    """path -> kernel id of the Jupyter server's sessions (what JupyterLab connects to)."""
    return {s["path"]: s["kernel"]["id"] for s in await server.serverapp.session_manager.list_sessions()}


@SUGGEST
async def test_execute_under_a_grant_stores_outputs_with_progress(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)
    mcp_lab.extension.services.reviews.grant(name, CLIENT_NAME, "client", 5, by="person")
    progress: list[tuple[float, float | None, str | None]] = []
    logs: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async def on_log(params: Any) -> None:
        logs.append(str(params.data))

    async with mcp_client("lab", logging_callback=on_log) as client:
        result = await client.call_tool(
            "notebook", {"action": "execute", "path": name, "cell": "plot"}, progress_callback=on_progress
        )
        assert not result.is_error, result
        r = result.structured_content
        assert r is not None
        assert (r["status"], r["approvedBy"], r["stored"], r["kernelStarted"]) == ("ok", "grant", True, True)
        assert [o["type"] for o in r["outputs"]] == ["stream", "display_data", "execute_result"]
        assert r["outputs"][0]["text"] == "hello\n" and r["outputs"][2]["text"] == "42"
        [png] = r["outputs"][1]["resources"]
        fetched = await client.read_resource(png["uri"])
        assert base64.b64decode(fetched.contents[0].blob) == base64.b64decode(PNG)
        # The kernel is the Jupyter session's for this notebook: JupyterLab shows the same one.
        assert (await sessions(mcp_lab))[name] == r["kernel"]["id"]
        listed = (await Tools(client).ok("notebook", "kernel"))["kernels"]
        assert [k["paths"] for k in listed if k["id"] == r["kernel"]["id"]] == [[name]]
        # A second run reuses the kernel.
        again = await Tools(client).ok("notebook", "execute", path=name, cell="plot")
        assert again["kernel"]["id"] == r["kernel"]["id"] and again["kernelStarted"] is False
        assert again["executionCount"] == r["executionCount"] + 1
        # Not followed (no progress token), a quick run's printed text is in its answer only;
        # one that goes on past STREAM_AFTER streams it, what it printed before first.
        assert logs.count("hello\n") == 1 and again["outputs"][0]["text"] == "hello\n"
        slow = "import time\nprint('early', flush=True)\ntime.sleep(0.8)\nprint('late', flush=True)"
        await Tools(client).ok("notebook", "execute", path=name, source=slow)
        assert logs[-2:] == ["early\n", "late\n"]
    cell = stored(root, name, "plot")
    assert cell["execution_count"] == again["executionCount"]
    assert [o["output_type"] for o in cell["outputs"]] == ["stream", "display_data", "execute_result"]
    assert cell["outputs"][1]["data"]["image/png"].strip() == PNG.strip()
    assert progress and all(b[0] > a[0] for a, b in itertools.pairwise(progress))
    assert any("output" in (m or "") for _, _, m in progress)
    assert "hello\n" in logs


@SUGGEST
async def test_execute_under_suggest_without_jupyterlab_is_refused(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)
    before = (root / name).read_bytes()
    async with mcp_client("lab") as client:
        tools = Tools(client)
        err = await tools.fail("notebook", "execute", path=name, cell="plot")
        assert err["error"] == "NO_LAB_CLIENT" and err["path"] == name
        assert "grant" in err["message"] and "JupyterLab" in err["message"]
        assert (await tools.fail("notebook", "kernel", kernel="restart", path=name))["error"] == "NOT_FOUND"  # none yet
        assert (await tools.ok("notebook", "kernel", kernel="list"))["count"] == 0
    assert (root / name).read_bytes() == before
    assert await sessions(mcp_lab) == {}


@SUGGEST
async def test_the_persons_allow_and_deny_in_jupyterlab(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)
    decision = {"allowed": False}

    async def answer(msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "result": {"allowed": decision["allowed"]}}

    async with fake_lab(mcp_lab) as lab, mcp_client("lab") as client:
        lab.answer = answer
        tools = Tools(client)
        err = await tools.fail("notebook", "execute", path=name, source="print('no')")
        assert (err["error"], err["decision"]) == ("APPROVAL_REQUIRED", "denied")
        assert await sessions(mcp_lab) == {}  # nothing ran, no kernel started
        decision["allowed"] = True
        r = await tools.ok("notebook", "execute", path=name, source="print('yes')")
        assert (r["approvedBy"], r["stored"], r["cellId"]) == ("person", False, None)
        assert r["outputs"] == [{"type": "stream", "text": "yes\n", "truncated": False, "resources": []}]
        asked = [q["params"] for q in lab.requests if q["method"] == "confirm"]
        assert len(asked) == 2 and asked[1]["command"] == "print('yes')" and asked[1]["path"] == name
        assert asked[1]["action"] == "execute" and asked[1]["agent"] == CLIENT_NAME
    # Code given as source leaves the notebook as it was.
    assert stored(root, name, "plot")["outputs"] == []


@SUGGEST
async def test_a_cell_with_a_pending_suggestion_does_not_run(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)
    async with mcp_client("lab") as client:
        tools = Tools(client)
        staged = await tools.ok("notebook", "edit", path=name, op="source", cell="setx", source="x = 6")
        [sid] = staged["suggestionIds"]
        err = await tools.fail("notebook", "execute", path=name, cell="setx")
        assert (err["error"], err["cellId"], err["suggestionIds"]) == ("CONFLICT", "setx", [sid])
        assert sid in err["message"]
        # Markdown cells do not run either.
        bad = await tools.fail("notebook", "execute", path=name, cell="title")
        assert (bad["error"], bad["argument"]) == ("INVALID_ARGUMENT", "cell")
    assert await sessions(mcp_lab) == {}


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_timeout_interrupt_and_restart(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    name = notebook(root)
    slow = "import time\nprint('start', flush=True)\ntime.sleep(60)"
    async with mcp_client("lab") as client, mcp_client("lab") as other:
        tools = Tools(client)
        r = await tools.ok("notebook", "execute", path=name, source=slow, timeout=2)
        assert r["status"] == "timeout" and r["approvedBy"] == "auto"
        assert r["outputs"][0]["text"] == "start\n"
        assert r["outputs"][-1]["type"] == "error" and "KeyboardInterrupt" in r["outputs"][-1]["text"]
        # The kernel was interrupted: it runs the next code at once.
        assert (await tools.ok("notebook", "execute", path=name, source="1 + 1"))["outputs"][0]["text"] == "2"

        # An interrupt from another session stops a run in progress.
        running = asyncio.create_task(tools.ok("notebook", "execute", path=name, source=slow, timeout=60))
        await asyncio.sleep(2)
        assert not running.done()
        stopped = await Tools(other).ok("notebook", "kernel", kernel="interrupt", path=name)
        assert stopped["kernels"][0]["id"] == r["kernel"]["id"] and stopped["approvedBy"] == "auto"
        done = await asyncio.wait_for(running, 20)
        assert done["status"] == "error" and "KeyboardInterrupt" in done["outputs"][-1]["text"]

        # Restart: the same kernel, its variables gone.
        await tools.ok("notebook", "execute", path=name, cell="setx")
        assert (await tools.ok("notebook", "execute", path=name, cell="showx"))["outputs"][0]["text"] == "5\n"
        restarted = await tools.ok("notebook", "kernel", kernel="restart", path=name)
        assert restarted["kernels"][0]["id"] == r["kernel"]["id"] and restarted["path"] == name
        after = await tools.ok("notebook", "execute", path=name, cell="showx")
        assert after["status"] == "error" and "NameError" in after["outputs"][0]["text"]
    assert stored(root, name, "showx")["outputs"][0]["ename"] == "NameError"
