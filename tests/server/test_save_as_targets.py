"""``workspace save_as`` answers what it did, on a real Jupyter server (issue 12, finding 7).

Jupyter hides dotfiles (ContentsManager.allow_hidden=False): a save_as into a hidden
folder or onto a dotfile is refused before anything is written, with the same answer
every time. The probe saw NOT_FOUND while the file was created, then CONFLICT on a retry;
an existing hidden target answered CONFLICT ("already exists") or NOT_FOUND, by policy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest

from ..conftest import LabServer, Tools

TEXT = "# Notes\n\nagent text\n"


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(TEXT)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    (root / ".env").write_text("SECRET=1\n")
    return root


def files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}, {"approval": "suggest"}], ids=["auto", "suggest"])
@pytest.mark.parametrize("target", [".git/x.md", ".env.new", ".env", ".git/config", "sub/.hidden/x.md"])
async def test_hidden_targets_are_refused_before_anything_is_written(
    mcp_lab: LabServer, mcp_client: Any, root: Path, target: str
) -> None:
    before = files(root)
    async with mcp_client("lab") as client:
        tools = Tools(client)
        tab = (await tools.ok("workspace", "open", filePath="notes.md"))["tabId"]
        answers = [
            await tools.fail("workspace", "save_as", tabId=tab, filePath=target, overwrite=overwrite)
            for overwrite in (False, True, False)  # a retry gets the same answer
        ]
        state = await tools.ok("session", "get_state")
    for answer in answers:
        assert answer["error"] == "INVALID_PATH", answers
        assert "hidden" in answer["message"], answers
    assert files(root) == before  # nothing created, nothing changed
    # The tab still shows the file it showed; no suggestion was staged for the person.
    [shown] = [t for w in state["windows"] for t in w["tabs"] if t["id"] == tab]
    assert shown["filePath"] == "notes.md"
    async with httpx2.AsyncClient(timeout=10) as http:
        listed = (await http.get(mcp_lab.url("mcp-lab/api/suggestions"), headers=mcp_lab.auth())).json()
    assert listed["suggestions"] == []


async def test_allowed_hidden_folders_and_plain_paths_answer_what_was_written(
    mcp_lab: LabServer, mcp_client: Any, root: Path
) -> None:
    async with mcp_client("lab") as client:
        tools = Tools(client)
        tab = (await tools.ok("workspace", "open", filePath="notes.md"))["tabId"]
        for target in (".github/notes.md", "drafts/notes.md"):
            saved = await tools.ok("workspace", "save_as", tabId=tab, filePath=target)
            assert saved["filePath"] == target and saved["applied"] is True
            assert (root / target).read_text() == TEXT
            again = await tools.fail("workspace", "save_as", tabId=tab, filePath=target)
            assert again["error"] == "CONFLICT"  # it exists now: the answer says so
