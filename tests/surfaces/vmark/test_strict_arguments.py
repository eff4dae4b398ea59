"""VMark's tools refuse arguments of the wrong JSON type instead of converting them (issue 12,
finding 10), with VMark's plain-string argument error naming the argument, and change nothing.

Through the vmark profile over an in-process SDK client on real files.
"""

from __future__ import annotations

from typing import Any

from jupyter_mcp_lab.server.dispatch.numbers import MAX_INTEGER

DOC = "# Notes\n\nSome text here.\n\n- one\n- two\n"
RANGE = f"integers are limited to ±{MAX_INTEGER} (2^53-1)"


async def test_wrong_types_get_vmarks_plain_argument_error(ops_client: Any) -> None:
    services, open_tools = ops_client(approval="auto")
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    async with open_tools("vmark") as tools:
        await tools.ok("workspace_open_document", path="doc.md")
        for tool, arguments, error in [
            (
                "document_insert_at_position",
                {"text": "X", "position": "8"},
                'position: Input should be a valid integer, got a string "8"',
            ),
            (
                "document_insert_at_position",
                {"text": "X", "position": 8.0},
                "position: Input should be a valid integer, got a number 8.0",
            ),
            (
                "document_insert_at_position",
                {"text": "X", "position": True},
                "position: Input should be a valid integer, got a boolean true",
            ),
            (
                "document_insert_at_position",
                {"text": "X", "position": 2**70},
                f"position: {2**70} is out of range; {RANGE}",
            ),
            (
                "document_replace",
                {"search": "Some", "replace": "Any", "all": "yes"},
                'all: Input should be a valid boolean, got a string "yes"',
            ),
            (
                "document_replace",
                {"search": "Some", "replace": "Any", "all": 1},
                "all: Input should be a valid boolean, got an integer 1",
            ),
            ("document_set_content", {"content": 5}, "content: Input should be a valid string, got an integer 5"),
            (
                "selection_set",
                {"from": "0", "to": 4},
                'from: Input should be a valid integer, got a string "0"',
            ),
            (
                "list_modify",
                {"nodeId": "list-0", "operations": [{"op": "set_text", "index": 2**60, "text": "x"}]},
                f"operations.0.index: {2**60} is out of range; {RANGE}",
            ),
        ]:
            payload = await tools.fail(tool, **arguments)
            assert payload == {"success": False, "error": error}, (tool, arguments)
        assert (await tools.ok("document_get_content"))["content"] == DOC
        # With the documented types the same calls work.
        done = await tools.ok("document_insert_at_position", text="X", position=0)
        assert (done["applied"], done["position"]) == (True, 0)
        assert (await tools.ok("document_replace", search="Some", replace="Any", all=True))["count"] == 1
    assert services.reviews.store.list_checkpoints()[0].author == "pytest-mcp-lab"
