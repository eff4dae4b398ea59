"""VMark's edits by node id, text and anchor (surfaces/vmark/node_edits.py, section_edits.py:
adapters over document.edit) and its syntax tree (get_document_ast): the edge cases, through
the vmark profile in-process on real files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.markdown.structure import structure_of


@pytest.fixture
def vm(ops_client: Any):
    def make(text: str, **settings: Any) -> tuple[Any, Any, Path]:
        services, open_tools = ops_client(**settings)
        root = services.settings.root_dir
        (root / "doc.md").write_text(text)
        return services, open_tools, root

    return make


async def edited(open_tools: Any, root: Path, tool: str, **args: Any) -> tuple[dict[str, Any], str]:
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        mode = {} if tool in ("table_modify", "list_modify") else {"mode": "apply"}  # those take no mode
        result = await tools.ok(tool, **mode, **args)
        await tools.ok("workspace_save_document")
    return result, (root / "doc.md").read_text()


@pytest.mark.parametrize(
    ("text", "new", "expected"),
    [
        ("## Old title ##\n\nBody.\n", "New", "## New\n\nBody.\n"),
        ("Old title\n=========\n\nBody.\n", "New", "# New\n\nBody.\n"),
        ("  ### Old\n", "New", "  ### New\n"),
        ("## Old\n", "# Promoted", "# Promoted\n"),
        ("Para.\n", "Other para.", "Other para.\n"),
    ],
    ids=["atx", "setext", "indented", "own-markup", "paragraph"],
)
async def test_update_keeps_a_headings_markup(vm: Any, text: str, new: str, expected: str) -> None:
    _, open_tools, root = vm(text)
    node = structure_of(text).blocks[0].id
    _, out = await edited(open_tools, root, "batch_edit", operations=[{"type": "update", "nodeId": node, "text": new}])
    assert out == expected


@pytest.mark.parametrize(
    ("text", "op", "expected"),
    [
        ("## Title ##\n", {"nodeId": "h-0"}, "## **Title** ##\n"),
        ("Some words.\n", {"nodeId": "p-0", "mark": "italic"}, "*Some words.*\n"),
        ("Some **words**.\n", {"nodeId": "p-0", "mark": "clear"}, "Some words.\n"),
        ("- a thing\n", {"nodeId": "list-0", "mark": "code", "text": "thing"}, "- a `thing`\n"),
    ],
    ids=["heading", "paragraph", "clear", "part-of-a-list"],
)
async def test_format_a_node_or_a_part_of_it(vm: Any, text: str, op: dict[str, Any], expected: str) -> None:
    _, open_tools, root = vm(text)
    _, out = await edited(open_tools, root, "batch_edit", operations=[{"type": "format", **op}])
    assert out == expected


async def test_format_refusals(vm: Any) -> None:
    _, open_tools, _ = vm("- a thing\n\nPara.\n")
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        whole_list = await tools.fail("batch_edit", operations=[{"type": "format", "nodeId": "list-0"}])
        assert whole_list["error"] == "list-0 is a list: give text (the part of it to format)"
        absent = await tools.fail("batch_edit", operations=[{"type": "format", "nodeId": "p-0", "text": "zzz"}])
        assert '"NOT_FOUND"' in absent["error"] and "operations[0].text" in absent["error"]


@pytest.mark.parametrize(
    ("text", "node", "after", "expected"),
    [
        ("A.\n\nB.\n\nC.\n", "p-2", None, "C.\n\nA.\n\nB.\n"),
        ("A.\n\nB.\n\nC.\n", "p-0", "p-2", "B.\n\nC.\n\nA.\n"),
        ("A.\n\nB.\n\nC.\n", "p-0", "p-1", "B.\n\nA.\n\nC.\n"),
        ("A.\n\nB.\n\nC.", "p-2", "p-0", "A.\n\nC.\n\nB."),
        ("---\nx: 1\n---\n\nA.\n\nB.\n", "p-1", None, "---\nx: 1\n---\n\nB.\n\nA.\n"),
    ],
    ids=["last-to-top", "first-to-end", "down-one", "no-final-break", "below-front-matter"],
)
async def test_move_a_block(vm: Any, text: str, node: str, after: str | None, expected: str) -> None:
    _, open_tools, root = vm(text)
    op = {"type": "move", "nodeId": node, **({"after": after} if after else {})}
    result, out = await edited(open_tools, root, "batch_edit", operations=[op])
    assert out == expected
    assert result["changedNodeIds"] == [node]


async def test_a_move_to_where_it_is_changes_nothing_and_after_itself_is_refused(vm: Any) -> None:
    text = "A.\n\nB.\n"
    _, open_tools, root = vm(text)
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        same = await tools.ok(
            "batch_edit", mode="apply", operations=[{"type": "move", "nodeId": "p-1", "after": "p-0"}]
        )
        top = await tools.ok("batch_edit", mode="apply", operations=[{"type": "move", "nodeId": "p-0"}])
        assert (same["changed"], top["changed"]) == (False, False)
        itself = await tools.fail("batch_edit", operations=[{"type": "move", "nodeId": "p-0", "after": "p-0"}])
        assert itself["error"] == "cannot move a node after itself"
    assert (root / "doc.md").read_text() == text


async def test_inserted_nodes_are_reported_with_their_new_ids(vm: Any) -> None:
    _, open_tools, root = vm("# T\n\nA.\n\nB.\n")
    result, out = await edited(
        open_tools,
        root,
        "batch_edit",
        operations=[
            {"type": "insert", "after": "p-1", "text": "- last"},
            {"type": "insert", "text": "Top."},
            {"type": "insert", "after": "p-0", "text": "Between."},
        ],
    )
    assert out == "Top.\n\n# T\n\nA.\n\nBetween.\n\nB.\n\n- last\n"
    assert result["changedNodeIds"] == ["list-0", "p-0", "p-2"]


async def test_staged_batches_split_into_suggestions_unless_something_moves(vm: Any) -> None:
    services, open_tools, _ = vm("A.\n\nB.\n\nC.\n\nD.\n", approval="suggest")
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        two = await tools.ok(
            "batch_edit",
            operations=[{"type": "update", "nodeId": "p-0", "text": "a."}, {"type": "delete", "nodeId": "p-3"}],
        )
        assert len(two["suggestionIds"]) == 2
        moved = await tools.ok(
            "batch_edit",
            operations=[
                {"type": "move", "nodeId": "p-1", "after": "p-3"},
                {"type": "update", "nodeId": "p-0", "text": "x"},
            ],
        )
        assert len(moved["suggestionIds"]) == 1  # accepted whole, or a half-done move would lose text
    assert len(services.reviews.pending()) == 3


async def test_table_and_list_operations_take_at_and_type(vm: Any) -> None:
    text = "| A | B |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n"
    _, open_tools, root = vm(text)
    await edited(open_tools, root, "table_modify", nodeId="table-0", operations=[{"type": "deleteRow", "at": 1}])
    _, out = await edited(
        open_tools, root, "list_modify", nodeId="list-0", operations=[{"type": "addItem", "at": 0, "text": "zero"}]
    )
    assert out == "| A | B |\n|---|---|\n\n- zero\n- one\n- two\n"


async def test_a_big_ast_is_cut_to_fit_and_says_so(vm: Any) -> None:
    text = "".join(f"- item {n}\n  - sub {n}\n" for n in range(400))
    _, open_tools, _ = vm(text, max_response_bytes=20_000)
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        tree = await tools.ok("get_document_ast")
    assert tree["truncated"] is True
    [lst] = tree["children"]
    assert lst["childCount"] == 400 and "children" not in lst
