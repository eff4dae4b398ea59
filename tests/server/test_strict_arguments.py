"""Tool arguments are validated strictly (issue 12, finding 10): a value of the wrong JSON type
is refused, never converted ("12" is not 12, 1 or "yes" not true, 3.0 not 3), integers stay
within ±(2^53-1) and numbers are finite, wherever they sit in the arguments. The refusal names
the argument as the client sent it, in the profile's error shape, and changes nothing.

Through a real Jupyter server and the Python SDK client (the lab profile), then the
dispatcher itself for what an SDK client cannot send (NaN, Infinity).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops.context import Caller
from jupyter_mcp_lab.server.dispatch import Dispatcher
from jupyter_mcp_lab.server.dispatch.numbers import MAX_INTEGER
from jupyter_mcp_lab.surfaces import PROFILES
from tests.conftest import LabServer, Tools
from tests.helpers import make_services

DOC = "# Notes\n\nSome text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
BIG = 2**70
TABLE_OP = {"op": "table", "nodeId": "table-0", "operations": [{"op": "delete_row", "row": BIG}]}

# (action and arguments, the argument named, how the message ends): each was converted or
# accepted before (the write went ahead, "yes" saved, 2^70 reached the operation).
REFUSED: list[tuple[dict[str, Any], str, str]] = [
    ({"action": "read", "lineStart": "2"}, "lineStart", 'got a string "2"'),
    ({"action": "read", "lineStart": True}, "lineStart", "got a boolean true"),
    ({"action": "read", "lineStart": 2.0}, "lineStart", "got a number 2.0"),
    ({"action": "read", "lineStart": BIG}, "lineStart", f"integers are limited to ±{MAX_INTEGER} (2^53-1)"),
    ({"action": "read", "maxBytes": -BIG}, "maxBytes", f"integers are limited to ±{MAX_INTEGER} (2^53-1)"),
    ({"action": "write", "content": "x\n", "save": "yes"}, "save", 'got a string "yes"'),
    ({"action": "write", "content": "x\n", "save": 1}, "save", "got an integer 1"),
    ({"action": "write", "content": "x\n", "save": 0}, "save", "got an integer 0"),
    ({"action": "write", "content": 12}, "content", "got an integer 12"),
    ({"action": "write", "content": "x\n", "expected_revision": None, "mode": 1}, "mode", ""),
    ({"action": "search", "query": "text", "caseSensitive": "false"}, "caseSensitive", 'got a string "false"'),
    ({"action": "edit", "edits": [{"op": "insert", "at": "0", "text": "x"}]}, "edits.0.at", 'got a string "0"'),
    ({"action": "edit", "edits": [{"op": "insert", "at": 0.0, "text": "x"}]}, "edits.0.at", "got a number 0.0"),
    ({"action": "edit", "edits": [{"op": "insert", "at": BIG, "text": "x"}]}, "edits.0.at", "(2^53-1)"),
    (  # inside a free-form argument the operation's model does not type
        {
            "action": "edit",
            "edits": [{"op": "table", "nodeId": "table-0", "operations": [{"op": "delete_row", "row": BIG}]}],
        },
        "edits.0.operations.0.row",
        "(2^53-1)",
    ),
    (  # a list sent as JSON text is read as the list (Claude Desktop does it), then checked the same way
        {"action": "edit", "edits": json.dumps([{"op": "insert", "at": "0", "text": "x"}])},
        "edits.0.at",
        'got a string "0"',
    ),
]


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(DOC)
    return root


async def test_wrong_types_and_huge_numbers_are_refused_over_mcp(
    mcp_lab: LabServer, mcp_client: Any, root: Path
) -> None:
    services = mcp_lab.extension.services
    async with mcp_client() as client:
        tools = Tools(client)
        for arguments, argument, ending in REFUSED:
            envelope = await tools.fail("document", **arguments, path="notes.md")
            assert (envelope["error"], envelope["argument"]) == ("INVALID_ARGUMENT", argument), (arguments, envelope)
            assert envelope["message"].startswith(f"{argument}: ") and envelope["message"].endswith(ending), envelope
        other = await tools.fail("review", action="list", limit="5")
        assert (other["argument"], other["message"]) == (
            "limit",
            'limit: Input should be a valid integer, got a string "5"',
        )
        assert (await tools.fail("review", action="wait", seconds=True))["argument"] == "seconds"
        # Nothing changed, nothing was staged or recorded as a change.
        assert (root / "notes.md").read_text() == DOC
        assert services.reviews.store.list_checkpoints() == []
        assert (await tools.ok("review", action="list"))["suggestions"] == []
        # The same calls with the documented types work.
        read = await tools.ok("document", action="read", path="notes.md", lineStart=2, maxBytes=1000)
        assert read["lineStart"] == 2
        assert (await tools.ok("review", action="list", limit=5))["suggestions"] == []
        done = await tools.ok(
            "document", action="edit", path="notes.md", edits=[{"op": "insert", "at": 0, "text": "x"}]
        )
        assert done["applied"] is True and (root / "notes.md").read_text() == "x" + DOC
        # A float argument takes an integer (3 is a number in JSON too).
        waited = await tools.ok("review", action="wait", suggestionIds=[], seconds=1)
        assert (waited["count"], waited["decided"]) == (0, True)


CALLER = Caller("ann", "Ann", "agent", "1", "s-1", "lab")


async def test_numbers_that_json_text_can_carry_but_no_client_should(tmp_path: Path) -> None:
    # Python's JSON parser (and the SDK's) takes NaN and Infinity; an SDK client never sends them.
    services = make_services(tmp_path)
    (services.settings.root_dir / "a.md").write_text(DOC)
    lab = Dispatcher(PROFILES["lab"], services)
    for value in (float("nan"), float("inf"), -float("inf")):
        out = await lab.call("review", {"action": "wait", "suggestionIds": [], "seconds": value}, CALLER)
        assert out.is_error and out.payload["argument"] == "seconds"
        assert out.payload["message"] == f"seconds: {value} is not a finite number"
    edit = {
        "action": "edit",
        "path": "a.md",
        "edits": [{"op": "insert", "at": 0, "text": "x", "n": [1, MAX_INTEGER + 1]}],
    }
    out = await lab.call("document", edit, CALLER)
    assert out.payload["argument"] == "edits.0.n.1"
    huge = 10**5000  # Python will not even print it (its 4300-digit limit): the message still can
    out = await lab.call("document", {"action": "read", "path": "a.md", "lineStart": huge}, CALLER)
    assert out.payload["message"] == f"lineStart: an integer of {huge.bit_length()} bits is out of range; " + (
        f"integers are limited to ±{MAX_INTEGER} (2^53-1)"
    )
    # The bounds themselves are taken.
    ok = await lab.call("document", {"action": "read", "path": "a.md", "lineStart": 1, "maxBytes": MAX_INTEGER}, CALLER)
    assert not ok.is_error, ok.payload
    assert (services.settings.root_dir / "a.md").read_text() == DOC
    # The activity log records only calls that ran: refused arguments never reach an operation.
    assert [e.tool for e in services.activity.since(0)] == ["document.read"]
    assert revision_of(DOC) == ok.payload["revision"]


async def test_deeply_nested_arguments_are_refused_not_crashed(tmp_path: Path) -> None:
    # JSON text in a string argument is parsed with the nesting limit of every client input
    # (server/json_input.py): 900 levels stay a string, which the list argument refuses.
    services = make_services(tmp_path)
    (services.settings.root_dir / "a.md").write_text(DOC)
    lab = Dispatcher(PROFILES["lab"], services)
    deep_text = "[" * 900 + "]" * 900
    out = await lab.call("document", {"action": "edit", "path": "a.md", "edits": deep_text}, CALLER)
    assert out.is_error and out.payload["argument"] == "edits", out.payload
    # The same depth as a value (a client past the SDK's own parser limit): refused, not a 500.
    deep: Any = []
    for _ in range(900):
        deep = [deep]
    out = await lab.call("document", {"action": "edit", "path": "a.md", "edits": deep}, CALLER)
    assert out.is_error and out.payload["error"] == "INVALID_ARGUMENT", out.payload
    assert (services.settings.root_dir / "a.md").read_text() == DOC
