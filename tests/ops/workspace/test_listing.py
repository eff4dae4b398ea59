"""workspace files through the lab profile's tool (in-process SDK client, real folders):
depth, globs, pages, hidden entries and symlinks, and bad folders refused."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.files import glob_regex


async def test_files_below_a_folder_by_depth_glob_and_page(ops_client: Any, tmp_path: Path) -> None:
    _, open_tools = ops_client()
    root = tmp_path / "root"
    (root / "a" / "b" / "c").mkdir(parents=True)
    (root / "a" / "b" / "c" / "deep.md").write_text("x", encoding="utf-8")
    (root / "a" / "one.ipynb").write_text("{}", encoding="utf-8")
    (root / "top.md").write_text("hello", encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("", encoding="utf-8")
    (root / "a" / ".ipynb_checkpoints").mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("no", encoding="utf-8")
    os.symlink(outside, root / "link")
    async with open_tools() as tools:
        top = await tools.ok("workspace", "files")
        assert [(f["path"], f["type"], f["size"]) for f in top["files"]] == [
            ("a", "directory", None),
            ("link", "directory", None),  # listed, never entered: it leads outside the root
            ("top.md", "file", 5),
        ]
        deep = await tools.ok("workspace", "files", depth=5)
        assert [f["path"] for f in deep["files"]] == [
            "a",
            "a/b",
            "a/b/c",
            "a/b/c/deep.md",
            "a/one.ipynb",
            "link",
            "top.md",
        ]
        assert deep["files"][4]["type"] == "notebook" and deep["files"][0]["modified"].endswith("+00:00")
        md = await tools.ok("workspace", "files", depth=5, pattern="**/*.md")
        assert [f["path"] for f in md["files"]] == ["a/b/c/deep.md", "top.md"]
        assert [f["path"] for f in (await tools.ok("workspace", "files", depth=5, pattern="*.md"))["files"]] == [
            "top.md"
        ]
        page = await tools.ok("workspace", "files", depth=5, start=2, limit=2)
        assert ([f["path"] for f in page["files"]], page["total"], page["nextStart"]) == (
            ["a/b/c", "a/b/c/deep.md"],
            7,
            4,
        )
        assert [f["path"] for f in (await tools.ok("workspace", "files", folder="a"))["files"]] == [
            "a/b",
            "a/one.ipynb",
        ]
        assert (await tools.fail("workspace", "files", folder="nope"))["error"] == "NOT_FOUND"
        assert (await tools.fail("workspace", "files", folder="../outside"))["error"] == "INVALID_PATH"
        assert (await tools.fail("workspace", "files", folder="link"))["error"] == "INVALID_PATH"
        assert (await tools.fail("workspace", "files", depth=40))["argument"] == "depth"


def test_glob_patterns() -> None:
    assert glob_regex("**/*.ipynb").match("a/b/c.ipynb") and glob_regex("**/*.ipynb").match("c.ipynb")
    assert not glob_regex("*.ipynb").match("a/c.ipynb")
    assert glob_regex("data/??.csv").match("data/01.csv") and not glob_regex("data/?.csv").match("data/01.csv")
    assert glob_regex("[ab]*.md").match("b1.md") and not glob_regex("[!ab]*.md").match("b1.md")
    assert glob_regex("a.b").match("a.b") and not glob_regex("a.b").match("axb")  # literal dots
