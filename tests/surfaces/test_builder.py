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
