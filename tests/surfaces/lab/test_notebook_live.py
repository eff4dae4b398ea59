"""Notebooks open in a collaborative JupyterLab, agents beside the person.

One real Jupyter server per module (a subprocess with jupyter-collaboration, approval
``suggest``, the room saving 0.2 s after a change), real ipykernels, agents on the official
MCP SDK client, the person's decisions and grants through the REST API as the panel makes
them. The "JupyterLab notebook" is a real Yjs client: a jupyter-ydoc ``YNotebook`` synced over
the collaboration websocket, as the browser's is, in which the person types.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tests.conftest import Tools, open_mcp_client
from tests.labext.conftest import Lab, rtc_installed, start_lab

pytest.importorskip("httpx_ws")
if not rtc_installed():
    pytest.skip("jupyter-collaboration is not installed", allow_module_level=True)

from httpx_ws import aconnect_ws
from jupyter_ydoc import YNotebook
from pycrdt import Provider
from pycrdt.websocket.websocket import HttpxWebsocket

pytestmark = pytest.mark.timeout(120)
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    tmp = tmp_path_factory.mktemp("notebook-live")
    options = ("--MCPLabApp.approval=suggest", "--YDocExtension.document_save_delay=0.2")
    with start_lab(tmp, *options, rtc=True, app="server") as running:
        yield running


def write(lab: Lab, name: str, *cells: Any) -> str:
    nb = new_notebook(cells=list(cells), metadata={"kernelspec": KERNELSPEC})
    (lab.root / name).write_text(nbformat.writes(nb), encoding="utf-8")
    return name


def on_disk(lab: Lab, name: str) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in json.loads((lab.root / name).read_text(encoding="utf-8"))["cells"]}


async def until(predicate: Any, seconds: float = 15) -> None:
    async with asyncio.timeout(seconds):
        while not predicate():  # noqa: ASYNC110 - polling state another process (the server) changes
            await asyncio.sleep(0.02)


async def rest(lab: Lab, method: str, route: str, body: Any = None) -> Any:
    """The person (the Jupyter token) on the review REST API."""
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.request(method, f"{lab.base}/mcp-lab/api/{route}", headers=lab.headers, json=body)
    assert r.is_success, r.text
    return r.json() if r.content else None


async def grant(lab: Lab, path: str, agent: str) -> None:
    await rest(lab, "POST", "grants", {"scope": path, "agent": agent, "agentKind": "client", "minutes": 10})


@asynccontextmanager
async def agent(lab: Lab, name: str, **kwargs: Any) -> AsyncIterator[Tools]:
    async with open_mcp_client(f"{lab.base}/mcp", lab.headers, client_name=name, **kwargs) as client:
        yield Tools(client)


@asynccontextmanager
async def open_notebook(lab: Lab, path: str) -> AsyncIterator[YNotebook]:
    """What JupyterLab does to open a notebook collaboratively: a session, then the room."""
    editor = YNotebook()
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.put(
            f"{lab.base}/api/collaboration/session/{path}",
            headers=lab.headers,
            content=json.dumps({"format": "json", "type": "notebook"}),
        )
        r.raise_for_status()
        data = r.json()
        room = f"{data['format']}:{data['type']}:{data['fileId']}"
        url = f"{lab.base}/api/collaboration/room/{room}?sessionId={data['sessionId']}&token={lab.token}"
        async with aconnect_ws(url, http) as ws, Provider(editor.ydoc, HttpxWebsocket(ws, room)):
            await until(lambda: editor.cell_number > 0)
            yield editor


def cells(editor: YNotebook) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in editor.get()["cells"]}


def ycell(editor: YNotebook, cell_id: str) -> Any:
    return next(c for c in editor.ycells if c["id"] == cell_id)


async def test_an_agent_and_a_person_on_one_open_notebook(lab: Lab) -> None:
    name = write(
        lab,
        "shared.ipynb",
        new_code_cell("x = 1", id="a"),
        new_markdown_cell("# Notes", id="b"),
        new_code_cell("y = 2", id="c"),
    )
    async with open_notebook(lab, name) as editor, agent(lab, "live-agent") as tools:
        r0 = (await tools.ok("notebook", "read", path=name))["revision"]
        [s_a] = (await tools.ok("notebook", "edit", path=name, op="source", cell="a", source="x = 10"))["suggestionIds"]
        [s_c] = (await tools.ok("notebook", "edit", path=name, op="replace", cell="c", old="2", new="20"))[
            "suggestionIds"
        ]

        # The person changes cell a's text (which the first suggestion replaces) and types in b.
        with editor.ydoc.transaction():
            del ycell(editor, "a")["source"][4:5]
            ycell(editor, "a")["source"].insert(4, "5")
            ycell(editor, "b")["source"].insert(len("# Notes"), "\n\nTyped by the person.")
        read = await tools.ok("notebook", "read", path=name, view="sources")
        while read["revision"] == r0:  # the typing travels over the websocket
            read = await tools.ok("notebook", "read", path=name, view="sources")
        r1 = read["revision"]

        conflict = await rest(lab, "POST", f"suggestions/{s_a}/accept")
        assert conflict["status"] == "conflict"
        accepted = await rest(lab, "POST", f"suggestions/{s_c}/accept")
        assert accepted["status"] == "accepted"
        # The accepted change is in the person's notebook at once; their typing is kept.
        await until(lambda: cells(editor)["c"]["source"] == "y = 20")
        assert cells(editor)["a"]["source"] == "x = 5"
        assert cells(editor)["b"]["source"] == "# Notes\n\nTyped by the person."
        r2 = (await tools.ok("notebook", "read", path=name))["revision"]

        # Three more, accepted together: one change in the shared document.
        staged = [
            await tools.ok("notebook", "edit", path=name, op="insert", source="print(x, y)"),
            await tools.ok("notebook", "edit", path=name, op="metadata", cell="b", tags=["notes"]),
            await tools.ok("notebook", "edit", path=name, op="move", cell="c", index=0),
        ]
        new_id = staged[0]["cellId"]
        changes: list[Any] = []
        editor.ycells.observe_deep(changes.append)
        everything = await rest(lab, "POST", "suggestions/accept-all", {"path": name})
        assert len(everything["accepted"]) == 3 and everything["conflicts"] == []
        await until(lambda: len(editor.ycells) == 4)
        assert len(changes) == 1  # one transaction
        now = editor.get()["cells"]
        assert [c["id"] for c in now] == ["c", "a", "b", new_id]
        assert now[2]["metadata"]["tags"] == ["notes"] and now[2]["source"].endswith("Typed by the person.")
        assert (now[0]["source"], now[1]["source"], now[3]["source"]) == ("y = 20", "x = 5", "print(x, y)")
        r3 = (await tools.ok("notebook", "read", path=name))["revision"]
        assert len({r0, r1, r2, r3}) == 4

        # Nothing lost: the room saved what the notebook shows, the person's typing with it.
        await until(lambda: ["".join(c["source"]) for c in on_disk(lab, name).values()] == [c["source"] for c in now])
        listed = await rest(lab, "GET", f"suggestions?path={name}&status=conflict")
        assert [s["id"] for s in listed["suggestions"]] == [s_a]


async def test_outputs_stream_into_the_open_notebook_while_the_code_runs(lab: Lab) -> None:
    code = "import time\nprint('first', flush=True)\ntime.sleep(1.5)\nprint('second', flush=True)\n6 * 7"
    name = write(lab, "stream.ipynb", new_markdown_cell("# Run", id="title"), new_code_cell(code, id="run"))
    logs: list[str] = []

    async def on_log(params: Any) -> None:
        logs.append(str(params.data))

    await grant(lab, name, "streaming-agent")
    async with open_notebook(lab, name) as editor, agent(lab, "streaming-agent", logging_callback=on_log) as tools:
        # A warm kernel first, so the run below is all that is timed.
        assert (await tools.ok("notebook", "execute", path=name, source="1"))["approvedBy"] == "grant"
        running = asyncio.create_task(tools.ok("notebook", "execute", path=name, cell="run"))

        def texts() -> list[str]:
            return [o.get("text", "") for o in cells(editor)["run"].get("outputs", [])]

        # The person sees the first line, and the cell running, before the code has finished.
        await until(lambda: texts() == ["first\n"], 10)
        assert ycell(editor, "run")["execution_state"] == "running"
        await until(lambda: "first\n" in logs, 5)  # the agent has it too, as a log message
        assert not running.done()
        result = await running
        assert result["status"] == "ok" and result["stored"] is True
        await until(lambda: len(texts()) == 2 and cells(editor)["run"]["execution_count"] is not None)
        cell = cells(editor)["run"]
        # The stream grew in place: its two lines are one output, as JupyterLab shows them.
        assert cell["outputs"][0]["text"] == "first\nsecond\n"
        assert cell["outputs"][1]["data"]["text/plain"] == "42"
        assert cell["execution_count"] == result["executionCount"]
        assert ycell(editor, "run")["execution_state"] == "idle"
        assert [o["text"] for o in result["outputs"]] == ["first\nsecond\n", "42"]
    await until(lambda: on_disk(lab, name)["run"]["execution_count"] == result["executionCount"])
    assert "".join(on_disk(lab, name)["run"]["outputs"][0]["text"]) == "first\nsecond\n"


async def test_two_agents_on_two_notebooks_at_once(lab: Lab) -> None:
    names = {
        "one": write(lab, "one.ipynb", new_code_cell("v = 'one'", id="set"), new_code_cell("print(v)", id="show")),
        "two": write(lab, "two.ipynb", new_code_cell("v = 'two'", id="set"), new_code_cell("print(v)", id="show")),
    }
    for who, name in names.items():
        await grant(lab, name, f"agent-{who}")

    async def work(who: str) -> dict[str, Any]:
        name = names[who]
        async with agent(lab, f"agent-{who}") as tools:
            runs = asyncio.gather(
                tools.ok("notebook", "execute", path=name, cell="set"),
                tools.ok("notebook", "edit", path=name, op="insert", index=0, cell_type="markdown", source=f"# {who}"),
            )
            ran, inserted = await runs
            shown = await tools.ok("notebook", "execute", path=name, cell="show")
            return {"ran": ran, "inserted": inserted, "shown": shown}

    one, two = await asyncio.gather(work("one"), work("two"))
    assert one["shown"]["outputs"][0]["text"] == "one\n" and two["shown"]["outputs"][0]["text"] == "two\n"
    assert one["ran"]["kernel"]["id"] != two["ran"]["kernel"]["id"]
    assert one["shown"]["kernel"]["paths"] == [names["one"]] and two["shown"]["kernel"]["paths"] == [names["two"]]
    for who, result in (("one", one), ("two", two)):
        stored = list(on_disk(lab, names[who]).values())
        assert ["".join(c["source"]) for c in stored] == [f"# {who}", f"v = '{who}'", "print(v)"]
        assert stored[0]["id"] == result["inserted"]["cellId"]
        assert stored[2]["outputs"][0]["text"] == [f"{who}\n"]
        assert stored[1]["execution_count"] == result["ran"]["executionCount"]
