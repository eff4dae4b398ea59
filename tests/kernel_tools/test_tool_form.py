"""The tool browser's model against real servers: jupyter-mcp-lab (``lab_server``) and an SDK
server on stdio (``widget_server.py``), driven through the traitlets and messages its
JavaScript uses (``widget_helpers``).
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kernel_tools.widgets import ToolBrowser
from tests.kernel_tools.conftest import Lab, note
from tests.kernel_tools.test_client import LAB_TOOLS
from tests.kernel_tools.widget_helpers import browser_sends, browser_sets, stdio_server, until


def shown(widget: ToolBrowser) -> str:
    """The result's HTML as text (entities and JSON escapes undone)."""
    return html.unescape(widget.result["html"]).replace('\\"', '"')


def read_form(widget: ToolBrowser, path: str) -> None:
    """The person picks the document tool's read action and types a path."""
    browser_sets(widget, selected="document")
    browser_sets(widget, values={**widget.values, "action": "read", "path": path})


# --------------------------------------------------------------------------- jupyter-mcp-lab


def test_lists_the_tools_with_their_badges(lab: Any) -> None:
    widget = ToolBrowser(lab)
    tools = {t["name"]: t for t in widget.tools}
    assert list(tools) == LAB_TOOLS
    assert [b["label"] for b in tools["session"]["badges"]] == ["read-only", "idempotent"]
    assert [b["label"] for b in tools["document"]["badges"]] == ["destructive"]
    assert tools["document"]["title"] == "Document"
    first_line = lab.tool("document").description.split("\n")[0]
    assert tools["document"]["summary"].rstrip("…") == first_line[: len(tools["document"]["summary"]) - 1]
    assert widget.selected == "" and not widget.compact
    with pytest.raises(ValueError, match="no tool 'nope'; tools: session, workspace"):
        ToolBrowser(lab, tool="nope")
    one = lab.form("document")
    assert one.selected == "document" and one.compact and one.values["action"] is None


def test_call_from_the_form_shows_the_result_history_and_code(lab_server: Lab, lab: Any) -> None:
    note(lab_server, "form-read.md", "# Form\n\nRead through the form.\n")
    widget = ToolBrowser(lab)
    read_form(widget, "form-read.md")
    assert widget.code == 'lab.call("document", action="read", path="form-read.md")'
    browser_sends(widget, do="call")
    assert widget.wait(30)
    assert widget.status == "done" and widget.errors == []
    result = widget.result
    assert result["ok"] and result["tool"] == "document"
    assert "Read through the form." in result["html"] and "<h1>Form</h1>" in result["html"]
    [entry] = widget.history
    assert entry["python"] == widget.code and entry["arguments"] == {"action": "read", "path": "form-read.md"}
    # The copied code runs and gives the same document.
    assert eval(entry["python"], {"lab": lab})["content"] == "# Form\n\nRead through the form.\n"


def test_the_call_carries_the_values_the_person_left(lab_server: Lab, lab: Any) -> None:
    # In a busy kernel ipywidgets holds back the last state update while "call" goes at once:
    # the call message carries the form, so a held-back update cannot make it call stale values.
    note(lab_server, "form-stale.md", "# Stale\n\nNot this one.\n")
    note(lab_server, "form-fresh.md", "# Fresh\n\nThe one typed last.\n")
    widget = ToolBrowser(lab)
    read_form(widget, "form-stale.md")
    browser_sends(widget, do="call", values={**widget.values, "path": "form-fresh.md"})
    assert widget.wait(30)
    [entry] = widget.history
    assert entry["arguments"] == {"action": "read", "path": "form-fresh.md"}
    assert widget.values["path"] == "form-fresh.md" and "The one typed last." in shown(widget)


def test_missing_required_fields_are_named_and_nothing_is_called(lab: Any) -> None:
    widget = ToolBrowser(lab, tool="document")
    browser_sets(widget, values={**widget.values, "path": "x.md", "lineStart": "two"})
    browser_sends(widget, do="call")
    assert widget.errors == [
        {"path": "action", "message": "is required"},
        {"path": "lineStart", "message": "is not an integer: 'two'"},
    ]
    assert widget.wait(5) and widget.history == [] and widget.result == {} and widget.status == "idle"


def test_a_domain_error_shows_its_code_and_message(lab: Any) -> None:
    widget = ToolBrowser(lab)
    read_form(widget, "does-not-exist.md")
    browser_sends(widget, do="call")
    assert widget.wait(30)
    assert widget.status == "error"
    assert (widget.result["ok"], widget.result["code"]) == (False, "NOT_FOUND")
    assert "does-not-exist.md" in widget.result["message"]
    assert widget.history[0]["code"] == "NOT_FOUND" and not widget.history[0]["ok"]


def test_replay_refills_the_form_and_calls_again(lab_server: Lab, lab: Any) -> None:
    note(lab_server, "replay-a.md", "# A\n")
    note(lab_server, "replay-b.md", "# B\n")
    widget = ToolBrowser(lab)
    read_form(widget, "replay-a.md")
    browser_sends(widget, do="call")
    assert widget.wait(30)
    first = widget.history[0]["id"]
    read_form(widget, "replay-b.md")
    browser_sends(widget, do="call")
    assert widget.wait(30) and "<h1>B</h1>" in widget.result["html"]
    browser_sends(widget, do="replay", id=first)
    assert widget.values["path"] == "replay-a.md"  # the form shows the replayed arguments
    assert widget.wait(30)
    assert [e["arguments"]["path"] for e in widget.history] == ["replay-a.md", "replay-b.md", "replay-a.md"]
    assert "<h1>A</h1>" in widget.result["html"]


def test_an_edit_from_the_form_is_staged_as_a_suggestion(lab_server: Lab, lab: Any) -> None:
    path = note(lab_server, "form-edit.md", "# Edit\n\nThe old words.\n")
    widget = ToolBrowser(lab, tool="document")
    item = next(f for f in widget.spec["fields"] if f["name"] == "edits")["item"]  # type: ignore[index]
    edit = {**item["start"], "op": "find_replace", "find": "old words", "replace": "new words"}
    browser_sets(
        widget, values={**widget.values, "action": "edit", "path": path, "rationale": "fresher", "edits": [edit]}
    )
    assert widget.code == (
        'lab.call(\n    "document",\n    action="edit",\n    path="form-edit.md",\n    rationale="fresher",\n'
        '    edits=[{"op": "find_replace", "find": "old words", "replace": "new words"}],\n)'
    )
    browser_sends(widget, do="call")
    assert widget.wait(30) and widget.result["ok"], widget.result
    pending = lab.review.suggestions(path)["suggestions"]
    assert [s["rationale"] for s in pending] == ["fresher"]
    assert (lab_server.root / path).read_text() == "# Edit\n\nThe old words.\n"  # a person decides


# --------------------------------------------------------------------------- any server (stdio)


@pytest.fixture(scope="module")
def demo() -> Iterator[Any]:
    with stdio_server() as client:
        yield client


def test_calls_never_block_and_progress_shows_in_the_widget(demo: Any) -> None:
    widget = ToolBrowser(demo, tool="slow")
    seen: list[dict[str, Any]] = []
    widget.observe(lambda change: seen.append(change["new"]), names="progress")
    browser_sets(widget, values={"steps": "5", "pause": "0.1"})
    started = time.monotonic()
    browser_sends(widget, do="call")
    assert time.monotonic() - started < 0.3 and widget.status == "running"  # the kernel is free at once
    assert widget.wait(30)
    assert widget.result["ok"] and "counted to 5" in widget.result["html"]
    steps = [p["progress"] for p in seen if p]
    assert steps == [1, 2, 3, 4, 5] and seen[-1] == {"progress": 5, "total": 5, "message": "step 5"}


def test_an_elicitation_is_answered_from_the_tool_browser(demo: Any) -> None:
    widget = ToolBrowser(demo, tool="ask")
    browser_sends(widget, do="call")
    [request] = until(lambda: widget.pending, what="the elicitation")
    assert request["kind"] == "elicitation" and request["message"] == "Tell me about you"
    fields = {f["name"]: f for f in request["spec"]["fields"]}
    assert fields["name"]["required"] and fields["age"]["maximum"] == 150
    assert [o["value"] for o in fields["color"]["options"]] == ["red", "green", "blue"]
    assert request["values"] == {"name": None, "age": "30", "color": "green", "subscribe": False}
    browser_sends(widget, do="answer", id=request["id"], action="accept", values={**request["values"], "age": "200"})
    assert widget.pending_errors == {
        str(request["id"]): [{"path": "name", "message": "is required"}, {"path": "age", "message": "must be ≤ 150"}]
    }
    assert widget.status == "running" and len(widget.pending) == 1  # still waiting for a valid answer
    answer = {**request["values"], "name": "Ann", "age": "41", "color": "blue"}
    browser_sends(widget, do="answer", id=request["id"], action="accept", values=answer)
    assert widget.wait(30) and widget.pending == [] and widget.pending_errors == {}
    assert 'accepted: {"name":"Ann","age":41,"color":"blue","subscribe":false}' in shown(widget)


def test_a_declined_elicitation_reaches_the_server(demo: Any) -> None:
    widget = ToolBrowser(demo, tool="ask")
    browser_sends(widget, do="call")
    [request] = until(lambda: widget.pending, what="the elicitation")
    browser_sends(widget, do="answer", id=request["id"], action="decline")
    assert widget.wait(30) and "the person chose decline" in shown(widget)


def test_a_choice_between_shapes_and_a_tool_error(demo: Any) -> None:
    widget = ToolBrowser(demo, tool="route")
    target = next(f for f in widget.spec["fields"] if f["name"] == "target")  # type: ignore[index]
    assert [v["label"] for v in target["variants"]] == ["ByPath", "ByTab"]
    browser_sets(widget, values={"target": {"variant": 1, "value": {"tab": "3"}}, "tags": ["a", "b"]})
    assert widget.code == 'lab.call("route", target={"by": "tab", "tab": 3}, tags=["a", "b"])'
    browser_sends(widget, do="call")
    assert widget.wait(30) and widget.result["ok"]
    assert widget.history[0]["arguments"] == {"target": {"by": "tab", "tab": 3}, "tags": ["a", "b"]}

    browser_sets(widget, selected="boom")
    browser_sends(widget, do="call")
    assert widget.wait(30)
    assert (widget.result["ok"], widget.result["code"]) == (False, "TOOL_ERROR")
    assert "boom: because" in widget.result["message"]


def test_the_list_follows_the_servers_tool_changes(demo: Any) -> None:
    widget = ToolBrowser(demo, tool="grow")
    assert "extra" not in [t["name"] for t in widget.tools]
    browser_sends(widget, do="call")
    until(lambda: "extra" in [t["name"] for t in widget.tools], what="the new tool in the list")
    assert widget.wait(30) and widget.status == "done"
    widget.close()
    assert widget._heard not in demo.requests._listeners


def test_choosing_a_tool_with_its_start_values_keeps_them(demo: Any) -> None:
    # The browser sends the chosen tool and its form's start values in one update (and the
    # person may type before the kernel answers): the kernel must not replace them.
    widget = ToolBrowser(demo)
    greet = next(t for t in widget.tools if t["name"] == "greet")
    changes: list[Any] = []
    widget.observe(lambda change: changes.append(change["new"]), names="values")
    browser_sets(widget, values=greet["spec"]["start"], selected="greet")
    assert widget.values == {"name": None, "times": "1", "shout": False} and len(changes) == 1
    assert widget.code == 'lab.call("greet")'
