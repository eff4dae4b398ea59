"""The transport-neutral dispatcher: called without MCP, as plain-HTTP routes will call it."""

from __future__ import annotations

import json

import pytest
from mcp.client import Client
from mcp_types import ElicitResult
from pydantic import BaseModel, ConfigDict, Field

from jupyter_mcp_lab.ops import OpContext, operation
from jupyter_mcp_lab.ops.context import Caller
from jupyter_mcp_lab.server.dispatch import Dispatcher, Reporter
from jupyter_mcp_lab.server.mcp_server import SurfaceServer
from jupyter_mcp_lab.surfaces import PROFILES, FlatTool, Surface
from tests.helpers import make_services
from tests.surfaces.test_builder import SURFACE  # registers test.echo / test.fail

CALLER = Caller("ann", "Ann", "route-client", "1", "s-1", "t")


@pytest.fixture
def services(tmp_path):
    return make_services(tmp_path, max_response_bytes=2_000)


async def test_a_call_without_mcp_returns_json_and_is_recorded(services):
    dispatcher = Dispatcher(SURFACE, services)
    outcome = await dispatcher.call("box", {"action": "echo", "text": "ab", "times": 2}, CALLER)
    assert not outcome.is_error
    assert outcome.payload == {"echoed": "abab", "revision": None}
    assert json.loads(outcome.text or "") == outcome.payload
    [entry] = services.activity.since(0)
    assert (entry.tool, entry.client, entry.user, entry.status) == ("box.echo", "route-client", "ann", "ok")
    assert entry.arguments == "text='ab', times=2"


async def test_errors_are_the_profiles_envelopes(services):
    dispatcher = Dispatcher(SURFACE, services)
    stale = await dispatcher.call("box", {"action": "fail", "how": "domain"}, CALLER)
    big = await dispatcher.call("box", {"action": "fail", "how": "big"}, CALLER)
    unknown = await dispatcher.call("nope", {}, CALLER)
    assert stale.is_error and stale.payload["error"] == "STALE"
    assert big.payload["error"] == "RESPONSE_TOO_LARGE"
    assert unknown.is_error and unknown.payload["error"] == "INVALID_ARGUMENT"
    vmark2 = Dispatcher(PROFILES["vmark2"], services)
    refused = await vmark2.call("document", {"action": "explode"}, CALLER)
    assert refused.is_error and refused.payload == {
        "success": False,
        "error": "unknown action 'explode'; one of: read, write, transform",
    }


class StepsParams(BaseModel):
    steps: int = Field(2, description="How many steps to report.")


class StepsResult(BaseModel):
    done: int


@operation("test.steps", read_only=True)
async def steps(ctx: OpContext, params: StepsParams) -> StepsResult:
    """Report progress once per step."""
    for i in range(params.steps):
        await ctx.report_progress(i + 1, params.steps, f"step {i + 1}")
    return StepsResult(done=params.steps)


STEPS = Surface("s", "s", "s", tools=(FlatTool("steps", steps),))


async def test_progress_reaches_the_reporter_and_the_mcp_client(services):
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    outcome = await Dispatcher(STEPS, services).call("steps", {"steps": 2}, CALLER, Reporter(progress=progress))
    assert outcome.payload == {"done": 2}
    assert seen == [(1, 2, "step 1"), (2, 2, "step 2")]

    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        heard.append((done, total, message))

    async with Client(SurfaceServer(STEPS, services), mode="legacy") as client:
        result = await client.call_tool("steps", {"steps": 3}, progress_callback=on_progress)
    assert result.structured_content == {"done": 3}
    assert heard == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


async def test_json_in_a_string_is_parsed_only_for_arguments_that_are_not_strings(services):
    dispatcher = Dispatcher(SURFACE, services)
    # times is an integer: "2" stays a string for the model to coerce or refuse, as before;
    # text is a string: JSON-looking text is kept as it was sent.
    outcome = await dispatcher.call("echo_text", {"text": "[1, 2]"}, CALLER)
    assert outcome.payload["echoed"] == "[1, 2]"


async def test_the_binding_announces_list_changes(services):
    async with Client(SurfaceServer(PROFILES["lab"], services), mode="legacy") as client:
        caps = client.server_capabilities
        assert caps is not None and caps.tools is not None and caps.tools.list_changed is True
        assert caps.resources is not None and caps.resources.list_changed is True


class Confirm(BaseModel):
    ok: bool = Field(description="Go ahead?")


class AskResult(BaseModel):
    answer: bool | None


@operation("test.ask", read_only=True)
async def ask(ctx: OpContext, params: StepsParams) -> AskResult:
    """Ask the person a question."""
    if ctx.ask is None:
        return AskResult(answer=None)
    answer = await ctx.ask("Proceed?", Confirm)
    return AskResult(answer=answer.ok if isinstance(answer, Confirm) else None)


async def test_questions_reach_the_person_through_elicitation(services):
    surface = Surface("q", "q", "q", tools=(FlatTool("ask", ask),))
    asked: list[str] = []

    async def answer(context, params):
        asked.append(params.message)
        return ElicitResult(action="accept", content={"ok": True})

    async with Client(SurfaceServer(surface, services), mode="legacy", elicitation_callback=answer) as client:
        result = await client.call_tool("ask", {})
    assert asked == ["Proceed?"] and result.structured_content == {"answer": True}
    async with Client(SurfaceServer(surface, services), mode="legacy") as client:  # a client that cannot answer
        assert (await client.call_tool("ask", {})).structured_content == {"answer": None}
    outcome = await Dispatcher(surface, services).call("ask", {}, CALLER)  # no transport to ask through
    assert outcome.payload == {"answer": None}


class Kept(BaseModel):
    items: list[int]


class FrozenKept(Kept):
    model_config = ConfigDict(frozen=True)


KEPT = {"mutable": Kept(items=[1]), "frozen": FrozenKept(items=[1])}


class KeptParams(BaseModel):
    which: str = "mutable"


@operation("test.kept", read_only=True)
async def kept(ctx: OpContext, params: KeptParams) -> Kept:
    """The same result object on every call (as an operation's cache returns it)."""
    return KEPT[params.which]


KEPT_SURFACE = Surface("k", "k", "k", tools=(FlatTool("kept", kept),))


async def test_a_result_returned_again_is_encoded_again_unless_it_is_frozen(services):
    dispatcher = Dispatcher(KEPT_SURFACE, services)
    first = await dispatcher.call("kept", {}, CALLER)
    KEPT["mutable"].items.append(2)  # a mutable result can change between calls: dumped again
    second = await dispatcher.call("kept", {}, CALLER)
    assert (first.payload, second.payload) == ({"items": [1]}, {"items": [1, 2]})
    assert json.loads(second.text or "") == second.payload
    one = await dispatcher.call("kept", {"which": "frozen"}, CALLER)
    two = await dispatcher.call("kept", {"which": "frozen"}, CALLER)
    assert two.payload is one.payload and two.text is one.text and one.text == '{"items":[1]}'
    assert await dispatcher.call("kept", {}, CALLER) != one  # another result: its own answer
    entries = services.activity.since(0)
    assert len(entries) == 5 and {e.result for e in entries[2:4]} == {'{"items":[1]}'}  # every call logged
