"""Agents' edits to a document open in a collaborative JupyterLab (jupyter-collaboration).

A real Jupyter server with jupyter-server-ydoc; the "JupyterLab editor" is a real Yjs
client: a pycrdt document synced over the collaboration websocket, as the browser's is.
An agent's edit reaches the editor's document at once, as changed regions (the person's
cursor, a sticky index, stays on its text); the file on disk follows; what the person
typed and did not save yet is what the agent reads; a write over a change the agent did
not see is refused. Without an editor open the file is written as before.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jupyter_server_ydoc")
pytest.importorskip("httpx_ws")

from httpx_ws import aconnect_ws
from jupyter_ydoc import YUnicode
from pycrdt import Assoc, Provider, StickyIndex
from pycrdt.websocket.websocket import HttpxWebsocket
from traitlets.config import Config

from ..conftest import LabServer, Tools

PATH = "live.md"
TEXT = "# Live\n\nThe quick brown fox.\n\nA lazy dog — sleeps.\n"


@pytest.fixture
def jp_server_config(jp_server_config: Config, tmp_path: Path) -> Config:
    jp_server_config.ServerApp.jpserver_extensions.update({"jupyter_server_ydoc": True, "jupyter_server_fileid": True})
    # The room saves the file itself (an agent's write waits for that save): soon, as a test wants.
    jp_server_config.YDocExtension.document_save_delay = 0.2
    jp_server_config.SQLiteYStore.db_path = str(tmp_path / "ystore.db")  # not the working directory
    return jp_server_config


async def open_in_editor(mcp_lab: LabServer, http: Any, path: str) -> tuple[Any, str]:
    """What JupyterLab does to open a file collaboratively: a session, then the room's websocket."""
    r = await http.put(
        mcp_lab.url(f"api/collaboration/session/{path}"),
        headers=mcp_lab.auth(),
        content=json.dumps({"format": "text", "type": "file"}),
    )
    r.raise_for_status()
    data = r.json()
    room = f"{data['format']}:{data['type']}:{data['fileId']}"
    ws_url = mcp_lab.url(f"api/collaboration/room/{room}?sessionId={data['sessionId']}&token={mcp_lab.token}")
    return aconnect_ws(ws_url, http), room


async def until(predicate: Any, seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while not predicate():  # noqa: ASYNC110 - polling state another process (the server) changes
            await asyncio.sleep(0.02)


async def test_an_agent_edit_reaches_the_open_editor(mcp_lab: LabServer, mcp_client: Any, tmp_path: Path) -> None:
    import httpx

    root = Path(mcp_lab.serverapp.root_dir)
    (root / PATH).write_text(TEXT, encoding="utf-8")
    editor = YUnicode()
    async with httpx.AsyncClient(timeout=30) as http:
        connect, room = await open_in_editor(mcp_lab, http, PATH)
        async with connect as ws, Provider(editor.ydoc, HttpxWebsocket(ws, room)):
            await until(lambda: editor.get() == TEXT)
            source = editor._ysource
            # The person's cursor sits on "lazy": after the agent's edit, before a later one.
            lazy = TEXT.index("lazy")
            cursor = StickyIndex.new(source, len(TEXT[:lazy].encode()), Assoc.AFTER)

            async with mcp_client("lab") as client:
                tools = Tools(client)
                r = await tools.ok(
                    "document",
                    "edit",
                    path=PATH,
                    edits=[{"op": "anchored", "text": "quick brown", "replacement": "quick red"}],
                )
                assert r["applied"] is True
                edited = TEXT.replace("quick brown", "quick red")
                # The editor has it at once: no reload, and its cursor moved with its text.
                await until(lambda: editor.get() == edited)
                index = cursor.get_index()
                assert edited.encode()[index:].startswith(b"lazy")
                # The room saved it to disk.
                await until(lambda: (root / PATH).read_text(encoding="utf-8") == edited)

                # The person types; the agent reads what the editor shows, and its next edit
                # keeps the typing.
                with editor.ydoc.transaction():
                    source.insert(len(edited.encode()), "Typed by the person.\n")
                typed = edited + "Typed by the person.\n"
                read = await tools.ok("document", "read", path=PATH)
                deadline = asyncio.get_running_loop().time() + 10
                while read["content"] != typed and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.05)
                    read = await tools.ok("document", "read", path=PATH)
                assert read["content"] == typed
                await tools.ok(
                    "document",
                    "edit",
                    path=PATH,
                    edits=[{"op": "anchored", "text": "lazy dog", "replacement": "sleepy cat"}],
                    expected_revision=read["revision"],
                )
                final = typed.replace("lazy dog", "sleepy cat")
                await until(lambda: editor.get() == final)
                await until(lambda: (root / PATH).read_text(encoding="utf-8") == final)


async def test_a_change_the_agent_did_not_see_is_refused(mcp_lab: LabServer, tmp_path: Path) -> None:
    """Compare and write happen at once on the shared text: the storage refuses a base
    that is no longer current instead of writing over the person's typing."""
    import httpx

    from jupyter_mcp_lab.core.errors import DomainError
    from jupyter_mcp_lab.server.live_storage import LiveStorage

    root = Path(mcp_lab.serverapp.root_dir)
    (root / PATH).write_text(TEXT, encoding="utf-8")
    storage = LiveStorage(mcp_lab.serverapp)
    editor = YUnicode()
    async with httpx.AsyncClient(timeout=30) as http:
        connect, room = await open_in_editor(mcp_lab, http, PATH)
        async with connect as ws, Provider(editor.ydoc, HttpxWebsocket(ws, room)):
            await until(lambda: editor.get() == TEXT)
            assert await storage.read_text(PATH) == TEXT
            with editor.ydoc.transaction():
                editor._ysource.insert(0, "Typed. ")
            for _ in range(500):  # the update travels over the websocket
                if await storage.read_text(PATH) == "Typed. " + TEXT:
                    break
                await asyncio.sleep(0.02)
            with pytest.raises(DomainError) as refused:
                await storage.write_text(PATH, TEXT.replace("quick", "slow"), base=TEXT)
            assert refused.value.code == "CONFLICT"
            await asyncio.sleep(0.2)
            assert editor.get() == "Typed. " + TEXT  # untouched


async def test_without_an_open_editor_the_file_is_written(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / PATH).write_text(TEXT, encoding="utf-8")
    async with mcp_client("lab") as client:
        r = await Tools(client).ok(
            "document", "edit", path=PATH, edits=[{"op": "anchored", "text": "quick", "replacement": "slow"}]
        )
    assert r["applied"] is True
    assert (root / PATH).read_text(encoding="utf-8") == TEXT.replace("quick", "slow")


NOTEBOOK = "live.ipynb"


def _notebook_text() -> str:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), nbformat.v4.new_code_cell("x = 1\nprint(x)")]
    return str(nbformat.writes(nb))


async def test_a_notebook_open_in_jupyterlab_is_changed_cell_by_cell(mcp_lab: LabServer, tmp_path: Path) -> None:
    """A notebook room is reached through get_document(copy=False) like a text room: a changed
    cell source arrives as text changes in that cell (a cursor in it stays on its text), a new
    cell as a cell, and the room saves the file."""
    import httpx
    from jupyter_ydoc import YNotebook

    from jupyter_mcp_lab.core.content import NotebookContent
    from jupyter_mcp_lab.server.live_storage import LiveStorage

    root = Path(mcp_lab.serverapp.root_dir)
    text = _notebook_text()
    (root / NOTEBOOK).write_text(text, encoding="utf-8")
    storage = LiveStorage(mcp_lab.serverapp)
    editor = YNotebook()
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.put(
            mcp_lab.url(f"api/collaboration/session/{NOTEBOOK}"),
            headers=mcp_lab.auth(),
            content=json.dumps({"format": "json", "type": "notebook"}),
        )
        r.raise_for_status()
        data = r.json()
        room = f"{data['format']}:{data['type']}:{data['fileId']}"
        url = mcp_lab.url(f"api/collaboration/room/{room}?sessionId={data['sessionId']}&token={mcp_lab.token}")
        async with aconnect_ws(url, http) as ws, Provider(editor.ydoc, HttpxWebsocket(ws, room)):
            await until(lambda: editor.cell_number == 2)
            content = NotebookContent.parse("notebook", await storage.read_text(NOTEBOOK))
            code = content.parts()[1]
            assert code.text == "x = 1\nprint(x)" and code.type == "code"
            ysource = editor.ycells[1]["source"]
            cursor = StickyIndex.new(ysource, len(b"x = 1\n"), Assoc.AFTER)  # before "print"

            changed = content.with_part(code.id, "x = 41 + 1\nprint(x)").insert_cell(2, "markdown", "The end.")
            await storage.write_text(NOTEBOOK, changed.serialize(), base=content.serialize())

            await until(lambda: editor.cell_number == 3)
            assert str(editor.ycells[1]["source"]) == "x = 41 + 1\nprint(x)"
            assert str(editor.ycells[2]["source"]) == "The end."
            assert editor.ycells[1]["id"] == code.id  # the same cell, changed in place
            index = cursor.get_index()
            assert b"x = 41 + 1\nprint(x)"[index:].startswith(b"print")
            on_disk = NotebookContent.parse("notebook", (root / NOTEBOOK).read_text(encoding="utf-8"))
            assert [p.text for p in on_disk.parts()] == ["# Title", "x = 41 + 1\nprint(x)", "The end."]
