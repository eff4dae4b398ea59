"""The inspector's model against an SDK server on stdio (``widget_server.py``) and against
jupyter-mcp-lab, driven through the traitlets and messages its JavaScript uses.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kernel_tools.widgets import Inspector
from tests.kernel_tools.test_client import LAB_TOOLS
from tests.kernel_tools.widget_helpers import browser_sends, browser_sets, stdio_server, until


@pytest.fixture(scope="module")
def demo() -> Iterator[Any]:
    with stdio_server() as client:
        yield client


@pytest.fixture
def inspector(demo: Any) -> Iterator[Inspector]:
    widget = Inspector(demo)
    assert widget.wait(30)
    yield widget
    widget.close()


def result_text(inspector: Inspector) -> str:
    return html.unescape(inspector.tools.result["html"])


def test_server_info_capabilities_roots_and_lists(inspector: Inspector, demo: Any) -> None:
    server = inspector.server
    assert (server["name"], server["version"], server["protocol"]) == ("widget-test-server", "1.2.3", "2025-11-25")
    assert server["instructions"] == "Tools, resources and prompts for widget tests."
    assert {"tools", "resources", "prompts"} <= set(server["capabilities"])
    assert server["roots"] == [Path.cwd().resolve().as_uri()]
    assert demo.call("roots")["result"] == server["roots"]  # what the server is offered is what is shown
    assert [r["uri"] for r in inspector.resources] == ["info://readme", "img://pixel"]
    assert inspector.resources[0]["title"] == "Read me"
    [template] = inspector.templates
    assert template["uriTemplate"] == "note://{name}" and template["spec"]["fields"][0]["required"]
    [prompt] = inspector.prompts
    fields = {f["name"]: f["required"] for f in prompt["spec"]["fields"]}
    assert prompt["name"] == "review" and fields == {"topic": True, "tone": False}
    assert [t["name"] for t in inspector.tools.tools][:3] == ["greet", "route", "slow"]
    assert inspector.problems == {} and inspector.busy == []


def test_resources_text_blob_and_template(inspector: Inspector) -> None:
    browser_sends(inspector, do="read", uri="info://readme")
    assert inspector.wait(20)
    [content] = inspector.resource["contents"]
    assert content["text"] == "# Widget server\n\nFor tests." and content["mimeType"] == "text/markdown"

    browser_sends(inspector, do="read", uri="img://pixel")
    assert inspector.wait(20)
    [image] = inspector.resource["contents"]
    assert image["blob"] and image["mimeType"] == "image/png" and image["size"] == 70
    assert base64.b64decode(image["image"].split(",", 1)[1])[:4] == b"\x89PNG"

    browser_sends(inspector, do="read_template", index=0, values={"name": ""})
    assert inspector.form_errors["template:0"] == [{"path": "name", "message": "is required"}]
    browser_sends(inspector, do="read_template", index=0, values={"name": "groceries"})
    assert inspector.wait(20)
    assert inspector.resource["uri"] == "note://groceries"
    assert inspector.resource["contents"][0]["text"] == "the note called groceries"
    assert inspector.form_errors["template:0"] == []

    browser_sends(inspector, do="read", uri="nothing://here")
    assert inspector.wait(20)
    assert "nothing://here" in inspector.problems["resource"]


def test_prompts_with_arguments(inspector: Inspector) -> None:
    browser_sends(inspector, do="get_prompt", name="review", values={"topic": None, "tone": ""})
    assert inspector.form_errors["prompt:review"] == [{"path": "topic", "message": "is required"}]
    assert inspector.prompt == {}
    browser_sends(inspector, do="get_prompt", name="review", values={"topic": "the plan", "tone": "blunt"})
    assert inspector.wait(20)
    assert inspector.prompt["arguments"] == {"topic": "the plan", "tone": "blunt"}
    assert inspector.prompt["messages"] == [
        {"role": "user", "type": "text", "text": "Review the plan in a blunt tone."}
    ]


def test_ping_and_tabs(inspector: Inspector) -> None:
    browser_sends(inspector, do="ping")
    assert inspector.wait(20)
    assert 0 < inspector.ping["ms"] < 5000
    browser_sets(inspector, tab="log")
    assert inspector.tab == "log"


def test_log_messages_arrive_live(inspector: Inspector) -> None:
    browser_sends(inspector, do="clear_log")
    assert inspector.log == []
    browser_sets(inspector.tools, selected="slow")
    browser_sets(inspector.tools, values={"steps": "2", "pause": "0"})
    browser_sends(inspector.tools, do="call")
    assert inspector.wait(30)
    lines = [(line["level"], line["text"]) for line in inspector.log]
    assert ("info", "slow: starting 2 steps") in lines and ("warning", "slow: done") in lines


def test_elicitation_and_sampling_answered_in_the_inspector(inspector: Inspector) -> None:
    tools = inspector.tools
    assert tools.pending == []  # inside the inspector, requests show once: in the inspector's section

    browser_sets(tools, selected="ask")
    browser_sends(tools, do="call")
    [request] = until(lambda: inspector.pending, what="the elicitation")
    answer = {**request["values"], "name": "Bo", "subscribe": True}
    browser_sends(inspector, do="answer", id=request["id"], action="accept", values=answer)
    assert inspector.wait(30) and inspector.pending == []
    assert 'accepted: {"name":"Bo","age":30,"color":"green","subscribe":true}' in result_text(inspector).replace(
        '\\"', '"'
    )

    browser_sets(tools, selected="sample")
    browser_sets(tools, values={"prompt": "What is 2+2?"})
    browser_sends(tools, do="call")
    [request] = until(lambda: inspector.pending, what="the sampling request")
    assert request["kind"] == "sampling" and request["systemPrompt"] == "Be brief." and request["maxTokens"] == 64
    assert request["messages"] == [{"role": "user", "text": "What is 2+2?"}]
    browser_sends(inspector, do="answer", id=request["id"], action="accept", values={"text": ""})
    assert inspector.pending_errors[str(request["id"])] == [{"path": "text", "message": "is required"}]
    browser_sends(inspector, do="answer", id=request["id"], action="accept", values={"text": "Four."})
    assert inspector.wait(30)
    assert "the model (person-in-notebook) said: Four." in result_text(inspector)

    browser_sends(tools, do="call")
    [request] = until(lambda: inspector.pending, what="the second sampling request")
    browser_sends(inspector, do="answer", id=request["id"], action="decline")
    assert inspector.wait(30)
    assert "no answer: The person declined the sampling request." in result_text(inspector)


def test_url_elicitation_shows_its_link(inspector: Inspector) -> None:
    browser_sets(inspector.tools, selected="visit")
    browser_sends(inspector.tools, do="call")
    [request] = until(lambda: inspector.pending, what="the URL elicitation")
    assert request["url"] == "https://example.org/sign-in" and request["message"] == "Sign in there"
    browser_sends(inspector, do="answer", id=request["id"], action="cancel")
    assert inspector.wait(30) and "url answer: cancel" in result_text(inspector)
    browser_sends(inspector, do="answer", id=request["id"], action="accept")
    assert (
        inspector.pending_errors[str(request["id"])][0]["message"] == "this request was already answered or withdrawn"
    )
    with pytest.raises(ValueError, match="accept, decline, cancel"):
        inspector.answer(request["id"], "maybe")


def test_closing_stops_listening(demo: Any) -> None:
    before = len(demo.requests._listeners)
    widget = Inspector(demo)
    assert len(demo.requests._listeners) == before + 3  # its log, its requests, its tool browser's list
    widget.close()
    assert len(demo.requests._listeners) == before


def test_the_lab_server_in_the_inspector(lab: Any) -> None:
    widget = lab.inspector()
    assert widget.wait(30)
    assert widget.server["name"] == "jupyter-mcp-lab" and {"tools", "resources", "prompts"} <= set(
        widget.server["capabilities"]
    )
    names = [t["name"] for t in widget.tools.tools]
    assert names == LAB_TOOLS
    assert widget.problems == {}
    browser_sets(widget.tools, selected="session")
    browser_sets(widget.tools, values={"action": "get_state"})
    browser_sends(widget.tools, do="call")
    assert widget.wait(30) and widget.tools.result["ok"]
    widget.close()
