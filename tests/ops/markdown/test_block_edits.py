"""One block-edit implementation (``core/markdown/blocks``) behind every surface's tools.

The lab ``edit`` ops and VMark's ``batch_edit`` once had their own block edits, the table
and list tools another; at the end of a file they deleted the same table differently. Each
case here goes through every public path and expects the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

TABLE = "| a | b |\n| --- | --- |\n| 1 | 2 |"


@pytest.fixture
def doc(ops_client: Any):
    def make(text: str) -> tuple[Any, Path]:
        services, open_tools = ops_client()
        root = services.settings.root_dir
        (root / "doc.md").write_bytes(text.encode())
        return open_tools, root

    return make


async def _lab_delete_block(open_tools: Any, root: Path, text: str) -> str:
    async with open_tools() as tools:
        await tools.ok("document", "edit", path="doc.md", edits=[{"op": "delete_block", "nodeId": "table-0"}])
    return (root / "doc.md").read_bytes().decode()


async def _vmark(open_tools: Any, root: Path, tool: str, **args: Any) -> str:
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        await tools.ok(tool, **args)
        await tools.ok("workspace_save_document")
    return (root / "doc.md").read_bytes().decode()


async def _vmark_batch_delete(open_tools: Any, root: Path, text: str) -> str:
    return await _vmark(
        open_tools, root, "batch_edit", mode="apply", operations=[{"type": "delete", "nodeId": "table-0"}]
    )


async def _vmark_table_delete(open_tools: Any, root: Path, text: str) -> str:
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        await tools.ok("cursor_set_position", position=text.index("| 1 |") + 2)
        await tools.ok("table_delete")  # applied: the test server auto-approves edits
        await tools.ok("workspace_save_document")
    return (root / "doc.md").read_bytes().decode()


PATHS = {
    "lab edit delete_block": _lab_delete_block,
    "vmark batch_edit delete": _vmark_batch_delete,
    "vmark table_delete": _vmark_table_delete,
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The file ends as it ended before: no blank line left behind, no line break added.
        (f"Intro.\n\n{TABLE}\n", "Intro.\n"),
        (f"Intro.\n\n{TABLE}", "Intro."),
        (f"Intro.\r\n\r\n{TABLE.replace(chr(10), chr(13) + chr(10))}\r\n", "Intro.\r\n"),
        (f"---\nt: 1\n---\n\n{TABLE}\n", "---\nt: 1\n---\n"),
        # Elsewhere the table takes the blank lines after it along.
        (f"Intro.\n\n{TABLE}\n\nEnd.\n", "Intro.\n\nEnd.\n"),
        (f"{TABLE}\n", ""),
    ],
    ids=["final-break", "no-final-break", "crlf", "after-front-matter", "middle", "only-block"],
)
async def test_deleting_a_table_is_the_same_through_every_tool(doc: Any, path: str, text: str, expected: str) -> None:
    open_tools, root = doc(text)
    assert await PATHS[path](open_tools, root, text) == expected


@pytest.mark.parametrize(
    ("text", "after", "expected"),
    [
        # A block right above another one without a blank line: the new block stays its own.
        ("# T\nA.\n", "h-0", "# T\n\nNew.\n\nA.\n"),
        ("----\nText\n---\n", "hr-0", "----\n\nNew.\n\nText\n---\n"),
        ("---\nt: 1\n---\n# T\n", None, "---\nt: 1\n---\n\nNew.\n\n# T\n"),
        ("A.\n\nB.\n", "p-1", "A.\n\nB.\n\nNew.\n"),
    ],
    ids=["before-a-paragraph", "before-a-setext-underline", "below-front-matter", "at-the-end"],
)
async def test_inserting_a_block_is_the_same_through_every_tool(
    doc: Any, text: str, after: str | None, expected: str
) -> None:
    open_tools, root = doc(text)
    async with open_tools() as tools:
        await tools.ok(
            "document", "edit", path="doc.md", edits=[{"op": "insert_block", "after": after, "content": "New."}]
        )
    assert (root / "doc.md").read_text() == expected
    (root / "doc.md").write_text(text)
    op: dict[str, Any] = {"type": "insert", "text": "New."} | ({"after": after} if after else {})
    assert await _vmark(open_tools, root, "batch_edit", mode="apply", operations=[op]) == expected


@pytest.mark.parametrize(
    ("text", "op", "expected"),
    [
        # Moved right below a heading with no blank line after it: B. must not merge into A.
        ("# T\nA.\n\nB.\n", {"nodeId": "p-1", "after": "h-0"}, "# T\n\nB.\n\nA.\n"),
        ("A.\n\nB.\n\nC.", {"nodeId": "p-2", "after": "p-0"}, "A.\n\nC.\n\nB."),
        ("---\nt: 1\n---\nA.\n\nB.\n", {"nodeId": "p-1"}, "---\nt: 1\n---\n\nB.\n\nA.\n"),
    ],
    ids=["below-a-heading", "from-the-end", "to-the-top"],
)
async def test_moving_a_block_keeps_it_a_block(doc: Any, text: str, op: dict[str, Any], expected: str) -> None:
    open_tools, root = doc(text)
    operations = [{"type": "move", **op}]
    assert await _vmark(open_tools, root, "batch_edit", mode="apply", operations=operations) == expected
