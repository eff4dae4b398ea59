"""Agent writes through Jupyter survive ``kill -9`` (issue 12, finding 3).

Jupyter's own "atomic" save copies the file to ``.~name`` and then rewrites the file in
place: a process killed in the middle leaves a truncated file. The storage writes beside
and renames instead. Here a real contents manager in a child process writes a big file
through ``ContentsStorage`` and is killed while the bytes are going out: the file must be
its old or its new complete text. The file's Jupyter id and the save event stay as a save
through Jupyter would leave them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from traitlets.config import Config

from ..conftest import ROOT, LabServer, Tools

OLD = "# Old\n\nthe acknowledged text\n"
BIG_LINES = 1_500_000  # ~60 MB: long enough that the kill lands while it is written

CHILD = textwrap.dedent(
    """
    import asyncio, sys, types
    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
    from jupyter_mcp_lab.server.contents_storage import ContentsStorage

    root, lines = sys.argv[1], int(sys.argv[2])
    cm = AsyncLargeFileManager(root_dir=root)
    app = types.SimpleNamespace(contents_manager=cm, web_app=types.SimpleNamespace(settings={}))
    text = "".join(f"line {n:09d} of the new text\\n" for n in range(lines))
    print("writing", flush=True)
    asyncio.run(ContentsStorage(app).write_text("notes.md", text))
    print("done", flush=True)
    """
)


def kill_while_writing(root: Path) -> tuple[str, int]:
    """Start the writer, SIGKILL it once bytes of the new text reach the disk (the file
    itself changing, or a temporary file beside it growing); returns the file's text
    afterwards and how many polls it took."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.environ.get("PYTHONPATH", ""), str(ROOT)]).strip(os.pathsep)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(root), str(BIG_LINES)], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
        target = root / "notes.md"
        polls = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            polls += 1
            if target.stat().st_size != len(OLD) or any(
                p.name != "notes.md" and p.stat().st_size > 0 for p in root.iterdir() if p.is_file()
            ):
                break
            time.sleep(0.0005)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    return target.read_text(encoding="utf-8"), polls


@pytest.mark.parametrize("attempt", range(2))
def test_a_write_killed_halfway_leaves_the_old_or_the_new_file(tmp_path: Path, attempt: int) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.md").write_text(OLD, encoding="utf-8")
    after, _ = kill_while_writing(root)
    complete_new = len(after) == BIG_LINES * len("line 000000000 of the new text\n") and after.startswith("line ")
    assert after == OLD or complete_new, f"a cut file: {len(after)} characters, starting {after[:40]!r}"
    # No Jupyter backup is left beside it: nothing wrote the file in place.
    assert not (root / ".~notes.md").exists()


async def test_an_agent_write_keeps_the_file_id_and_reports_a_save(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "note.md").write_text("# Note\n\nold\n")
    os.chmod(root / "note.md", 0o640)
    ids = mcp_lab.serverapp.web_app.settings["file_id_manager"]
    file_id = ids.index("note.md")
    saves: list[dict[str, Any]] = []

    async def listener(logger: Any, schema_id: str, data: dict[str, Any]) -> None:
        saves.append(data)

    events = mcp_lab.serverapp.event_logger
    schema = mcp_lab.serverapp.contents_manager.event_schema_id
    events.add_listener(schema_id=schema, listener=listener)
    try:
        async with mcp_client("lab") as client:
            tools = Tools(client)
            read = await tools.ok("document", "read", path="note.md")
            await tools.ok(
                "document", "write", path="note.md", content="# Note\n\nnew\n", expected_revision=read["revision"]
            )
    finally:
        events.remove_listener(schema_id=schema, listener=listener)
    assert (root / "note.md").read_text() == "# Note\n\nnew\n"
    assert (root / "note.md").stat().st_mode & 0o777 == 0o640  # permissions kept
    assert ids.get_id("note.md") == file_id  # the same Jupyter file (and collaborative room)
    assert {"action": "save", "path": "note.md"} in saves
    assert sorted(os.listdir(root)) == ["note.md"]  # no backup, no temporary file


@pytest.fixture
def file_id_manager_class() -> str | None:
    return None  # jupyter_server_fileid's default (ArbitraryFileIdManager: by path)


@pytest.fixture
def jp_server_config(jp_server_config: Config, file_id_manager_class: str | None, tmp_path: Path) -> Config:
    # Jupyter's file ids, as JupyterLab runs with them (collaborative rooms are named by them).
    jp_server_config.ServerApp.jpserver_extensions.update({"jupyter_server_fileid": True})
    jp_server_config.BaseFileIdManager.db_path = str(tmp_path / "file_id_manager.db")
    if file_id_manager_class is not None:
        jp_server_config.FileIdExtension.file_id_manager_class = file_id_manager_class
    return jp_server_config


@pytest.mark.parametrize("file_id_manager_class", ["jupyter_server_fileid.manager.LocalFileIdManager"])
async def test_an_inode_based_file_id_survives_the_rename(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "note.md").write_text("# Note\n\nold\n")
    ids = mcp_lab.serverapp.web_app.settings["file_id_manager"]
    assert type(ids).__name__ == "LocalFileIdManager"
    file_id = ids.index("note.md")
    inode = (root / "note.md").stat().st_ino
    async with mcp_client("lab") as client:
        tools = Tools(client)
        await tools.ok("document", "write", path="note.md", content="# Note\n\nnew\n")
    assert (root / "note.md").stat().st_ino != inode  # renamed over: a new inode
    assert ids.get_id("note.md") == file_id
    assert ids.get_path(file_id) == "note.md"


async def test_hidden_files_are_refused_before_anything_is_written(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / ".git").mkdir()
    async with mcp_client("lab") as client:
        tools = Tools(client)
        for path in (".git/x.md", ".env.new"):
            failed = await tools.fail("document", "write", path=path, content="secret\n")
            assert failed["error"] in ("INVALID_PATH", "NOT_FOUND"), failed
            assert not (root / path).exists()


@pytest.fixture
def cut_by_a_crash(jp_root_dir: Path) -> Path:
    """The workspace as a server killed during Jupyter's own save leaves it: the file cut
    (empty), its last complete text in Jupyter's ``.~`` backup beside it."""
    (jp_root_dir / "notes.md").write_text(OLD, encoding="utf-8")
    os.replace(jp_root_dir / "notes.md", jp_root_dir / ".~notes.md")
    (jp_root_dir / "notes.md").write_text("", encoding="utf-8")
    return jp_root_dir


async def test_a_file_cut_by_a_crash_is_restored_at_start(
    cut_by_a_crash: Path, mcp_lab: LabServer, mcp_client: Any, tmp_path: Path
) -> None:
    root = cut_by_a_crash
    async with mcp_client("lab") as client:
        read = await Tools(client).ok("document", "read", path="notes.md")
    assert read["content"] == OLD  # not the empty file the crash left
    assert not (root / ".~notes.md").exists()
    kept = list((tmp_path / "mcp-lab-data" / "recovered").glob("*/notes.md"))
    assert [k.read_text() for k in kept] == [""]  # what the crash left is kept, not dropped
    [item] = mcp_lab.extension.recovery.items
    assert (item.path, item.action, item.kept) == ("notes.md", "restored", str(kept[0]))
    async with httpx2.AsyncClient(timeout=10) as http:
        status = (await http.get(mcp_lab.status_url, headers=mcp_lab.auth())).json()
    assert status["recovery"]["complete"] is True
    [reported] = status["recovery"]["files"]
    assert (reported["path"], reported["action"], reported["kept"]) == ("notes.md", "restored", str(kept[0]))
