"""The surface builder: schemas, argument mapping, hints and error envelopes."""

from __future__ import annotations

import json

import pytest
from mcp.client import Client
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.ops import OpContext, operation
from jupyter_mcp_lab.surfaces import CompositeTool, FlatTool, Surface, build_server
from tests.helpers import make_services


class EchoParams(BaseModel):
    text: str = Field(description="What to echo.")
    expected_revision: str | None = Field(None, description="Revision token.")
    times: int = Field(1, ge=1, le=5, description="Repetitions.")


class EchoResult(BaseModel):
    echoed: str
    revision: str | None


class FailParams(BaseModel):
    how: str = Field(description="domain | crash | big")


class FailResult(BaseModel):
    data: str


@operation("test.echo", read_only=True)
async def echo(ctx: OpContext, params: EchoParams) -> EchoResult:
    """Echo text back."""
    return EchoResult(echoed=params.text * params.times, revision=params.expected_revision)


@operation("test.fail", destructive=True)
async def fail(ctx: OpContext, params: FailParams) -> FailResult:
    """Fail in the requested way."""
    if params.how == "domain":
        raise DomainError("STALE", "changed since you read it", current_revision="rev-2")
    if params.how == "big":
        return FailResult(data="x" * 10_000)
    raise RuntimeError("secret internal detail")


SURFACE = Surface(
    name="t",
    title="test",
    instructions="test surface",
    tools=(
        FlatTool("echo_text", echo, rename={"expected_revision": "baseRevision"}),
        CompositeTool("box", "Echo or fail.", actions={"echo": echo, "fail": fail}),
    ),
)


@pytest.fixture
def services(tmp_path):
    return make_services(tmp_path, max_response_bytes=2_000)


async def tools_by_name(server):
    return {t.name: t for t in await server.list_tools()}


async def test_flat_tool_schema_uses_profile_argument_names(services):
    tools = await tools_by_name(build_server(SURFACE, services))
    schema = tools["echo_text"].input_schema
    assert set(schema["properties"]) == {"text", "baseRevision", "times"}
    assert schema["required"] == ["text"]
    assert schema["properties"]["text"]["description"] == "What to echo."
    assert tools["echo_text"].description == "Echo text back."
    assert tools["echo_text"].annotations.read_only_hint is True
    assert tools["echo_text"].output_schema["properties"]["echoed"]["type"] == "string"


async def test_composite_hints_are_as_careful_as_the_least_careful_action(services):
    box = (await tools_by_name(build_server(SURFACE, services)))["box"]
    assert box.annotations.read_only_hint is False
    assert box.annotations.destructive_hint is True
    assert box.input_schema["required"] == ["action"]
    assert box.input_schema["properties"]["action"] == {
        "type": "string",
        "enum": ["echo", "fail"],
        "description": "The operation to run.",
    }
    assert "(used by: echo)" in box.input_schema["properties"]["times"]["description"]
    # Compact: no per-field titles, optional fields without the anyOf-null wrapper.
    assert box.input_schema["properties"]["times"]["type"] == "integer"
    assert "title" not in box.input_schema["properties"]["times"]


async def test_flat_tool_maps_renamed_arguments(services):
    async with Client(build_server(SURFACE, services)) as client:
        result = await client.call_tool("echo_text", {"text": "ab", "baseRevision": "rev-1", "times": 2})
    assert result.structured_content == {"echoed": "abab", "revision": "rev-1"}
    assert json.loads(result.content[0].text) == result.structured_content


async def test_argument_errors_name_the_argument(services):
    async with Client(build_server(SURFACE, services)) as client:
        stray = await client.call_tool("box", {"action": "fail", "text": "x"})
        missing = await client.call_tool("box", {"action": "echo"})
        bounds = await client.call_tool("box", {"action": "echo", "text": "x", "times": 9})
    assert stray.is_error and stray.structured_content["error"] == "INVALID_ARGUMENT"
    assert stray.structured_content["argument"] == "text"
    assert missing.is_error and missing.structured_content["argument"] == "text"
    assert "Field required" in missing.structured_content["message"]
    assert bounds.structured_content["argument"] == "times"


async def test_domain_errors_are_envelopes_and_crashes_do_not_leak(services):
    async with Client(build_server(SURFACE, services)) as client:
        stale = await client.call_tool("box", {"action": "fail", "how": "domain"})
        crash = await client.call_tool("box", {"action": "fail", "how": "crash"})
        big = await client.call_tool("box", {"action": "fail", "how": "big"})
    assert stale.is_error
    assert stale.structured_content == {
        "error": "STALE",
        "message": "changed since you read it",
        "current_revision": "rev-2",
    }
    assert crash.is_error and crash.structured_content["error"] == "INTERNAL"
    assert "secret" not in crash.content[0].text
    assert big.structured_content["error"] == "RESPONSE_TOO_LARGE"
    assert big.structured_content["limit"] == 2_000
    statuses = [e.status for e in services.activity.since(0)]
    assert statuses == ["STALE", "INTERNAL", "RESPONSE_TOO_LARGE"]


async def test_read_only_server_refuses_mutating_operations_only(tmp_path):
    services = make_services(tmp_path, read_only=True)
    async with Client(build_server(SURFACE, services)) as client:
        refused = await client.call_tool("box", {"action": "fail", "how": "crash"})
        allowed = await client.call_tool("box", {"action": "echo", "text": "ok"})
    assert refused.structured_content["error"] == "READ_ONLY"
    assert not allowed.is_error


async def test_a_profile_can_render_errors_its_own_way(services):
    def as_string(envelope):
        return CallToolResult(content=[TextContent(type="text", text=envelope["message"])], is_error=True)

    surface = Surface("t2", "t2", "t2", tools=SURFACE.tools, render_error=as_string)
    async with Client(build_server(surface, services)) as client:
        result = await client.call_tool("box", {"action": "fail", "how": "domain"})
    assert result.is_error and result.content[0].text == "changed since you read it"


def test_operations_need_models_and_a_docstring():
    with pytest.raises(TypeError, match="docstring"):

        @operation("test.nodoc")
        async def nodoc(ctx: OpContext, params: EchoParams) -> EchoResult:
            return EchoResult(echoed="", revision=None)

    with pytest.raises(TypeError, match="pydantic model"):

        @operation("test.badparams")
        async def bad(ctx: OpContext, params: dict) -> EchoResult:
            """Bad."""
            return EchoResult(echoed="", revision=None)


async def test_unknown_action_is_an_argument_envelope(services):
    async with Client(build_server(SURFACE, services)) as client:
        result = await client.call_tool("box", {"action": "explode"})
    assert result.is_error
    assert result.structured_content == {
        "error": "INVALID_ARGUMENT",
        "message": "unknown action 'explode'; one of: echo, fail",
        "argument": "action",
    }


async def test_unknown_arguments_are_refused_not_dropped(services):
    async with Client(build_server(SURFACE, services)) as client:
        flat = await client.call_tool("echo_text", {"text": "a", "expected_revision": "rev-1"})
        composite = await client.call_tool("box", {"action": "echo", "text": "a", "baseRevison": "x"})
    assert flat.structured_content["error"] == "INVALID_ARGUMENT"
    assert flat.structured_content["argument"] == "expected_revision"  # this profile calls it baseRevision
    assert "baseRevision" in flat.structured_content["message"]
    assert composite.structured_content["argument"] == "baseRevison"
    assert services.activity.since(0) == []  # refused before any operation ran


# A compact surface (the lab profile's way): the same tools, published for an agent's context.
COMPACT = Surface(
    name="tc",
    title="test",
    instructions="compact test surface",
    tools=(
        SURFACE.tools[0],
        CompositeTool("box", "Echo or fail.", actions={"echo": echo, "fail": fail}, describe={"how": "How to fail."}),
        CompositeTool("pair", "Echo, two ways.", actions={"one": echo, "two": echo}),
    ),
    compact=True,
    wording={"Revision token.": "From your last read."},
)


async def test_a_compact_surface_lists_each_actions_arguments_once(services):
    tools = await tools_by_name(build_server(COMPACT, services))
    box = tools["box"].input_schema
    # Which action takes what, required first, in one line instead of a note on each argument.
    assert box["properties"]["action"] == {
        "type": "string",
        "enum": ["echo", "fail"],
        "description": "echo {text, expected_revision?, times?}; fail {how}",
    }
    assert box["properties"]["times"] == {"type": "integer", "description": "Repetitions."}
    assert box["properties"]["how"]["description"] == "How to fail."  # the tool's own wording
    # The surface's wording replaces an operation's description wherever a tool takes it.
    assert box["properties"]["expected_revision"]["description"] == "From your last read."
    assert tools["echo_text"].input_schema["properties"]["baseRevision"]["description"] == "From your last read."
    assert "(used by" not in json.dumps([t.input_schema for t in tools.values()])
    # Arguments every action takes as optional are left out of the line; required ones stay.
    assert tools["pair"].input_schema["properties"]["action"]["description"] == "one {text}; two {text}"
    # Any object as the result, and the title once (not again in the hints).
    assert tools["box"].output_schema == {"type": "object"}
    assert tools["box"].title == "Box" and tools["box"].annotations.title is None
    assert tools["box"].annotations.destructive_hint is True

    # The published schema says less; the operations' models still check every argument.
    async with Client(build_server(COMPACT, services)) as client:
        ok = await client.call_tool("box", {"action": "echo", "text": "ab", "times": 2})
        too_many = await client.call_tool("box", {"action": "echo", "text": "ab", "times": 9})
        wrong_action = await client.call_tool("box", {"action": "fail", "text": "ab", "how": "domain"})
    assert ok.structured_content == {"echoed": "abab", "revision": None}  # valid against {"type": "object"}
    assert too_many.is_error and too_many.structured_content["argument"] == "times"
    assert wrong_action.is_error and wrong_action.structured_content["argument"] == "text"


async def test_the_reference_surfaces_keep_their_notes(services):
    box = (await tools_by_name(build_server(SURFACE, services)))["box"]
    assert box.input_schema["properties"]["action"]["description"] == "The operation to run."
    assert box.input_schema["properties"]["how"]["description"] == "domain | crash | big (used by: fail)"
    assert box.output_schema["title"] == "CompositeResult" and box.annotations.title == "Box"


async def test_a_tool_cannot_describe_an_argument_it_does_not_take(services):
    typo = CompositeTool("box", "Echo.", actions={"echo": echo}, describe={"hwo": "How to fail."})
    server = build_server(Surface("tt", "t", "t", tools=(typo,), compact=True), services)
    with pytest.raises(TypeError, match="'box' describes arguments it does not take: hwo"):
        await server.list_tools()
