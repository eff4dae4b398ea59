"""Tool arguments that cannot be Python parameters (``from``, ``if-match``): a params model
field with an alias is published, accepted and named in errors under its alias."""

from __future__ import annotations

import pytest
from mcp.client import Client
from pydantic import BaseModel, ConfigDict, Field

from jupyter_mcp_lab.ops import OpContext, operation
from jupyter_mcp_lab.surfaces import CompositeTool, FlatTool, Surface, build_server
from tests.helpers import make_services


class RangeParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    from_: int = Field(alias="from", ge=0, description="Start.")
    to: int = Field(ge=0, description="End.")
    if_match: str | None = Field(None, alias="if-match", description="Revision.")
    class_: str = Field("plain", alias="class", description="A keyword with a default.")


class NestedPart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="Some text.")
    before: str = ""


class NestedParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    part: NestedPart = Field(description="A nested model.")
    parts: list[NestedPart] = Field(default_factory=list, description="A list of them.")


class RangeResult(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    from_: int = Field(alias="from")
    to: int
    revision: str | None
    kind: str


class NestedResult(BaseModel):
    texts: list[str]


@operation("test.range", read_only=True)
async def range_op(ctx: OpContext, params: RangeParams) -> RangeResult:
    """Echo a range."""
    return RangeResult(from_=params.from_, to=params.to, revision=params.if_match, kind=params.class_)


@operation("test.nested", read_only=True)
async def nested_op(ctx: OpContext, params: NestedParams) -> NestedResult:
    """Echo nested texts."""
    return NestedResult(texts=[params.part.text, *(p.text for p in params.parts)])


SURFACE = Surface(
    name="aliases",
    title="aliases",
    instructions="test surface",
    tools=(
        FlatTool("range_flat", range_op),
        FlatTool("range_renamed", range_op, rename={"from_": "start"}, defaults={"class_": "bold"}),
        FlatTool("nested", nested_op),
        CompositeTool("box", "Range or nested.", actions={"range": range_op, "nested": nested_op}),
    ),
)


@pytest.fixture
def server(tmp_path):
    return build_server(SURFACE, make_services(tmp_path))


async def test_aliases_are_the_published_argument_names(server):
    tools = {t.name: t for t in await server.list_tools()}
    flat = tools["range_flat"].input_schema
    assert list(flat["properties"]) == ["from", "to", "if-match", "class"]
    assert flat["required"] == ["from", "to"]
    assert flat["properties"]["from"] == {"description": "Start.", "type": "integer"}
    assert flat["properties"]["class"]["default"] == "plain"
    renamed = tools["range_renamed"].input_schema
    assert set(renamed["properties"]) == {"start", "to", "if-match", "class"}
    assert renamed["properties"]["class"]["default"] == "bold"  # the profile's default, under the alias
    box = tools["box"].input_schema["properties"]
    assert {"from", "to", "if-match", "class", "part", "parts"} <= set(box)
    assert not any(name.endswith("_") for name in box)


async def test_arguments_are_accepted_under_their_alias(server):
    async with Client(server) as client:
        flat = await client.call_tool("range_flat", {"from": 2, "to": 5, "if-match": "rev-1", "class": "x"})
        renamed = await client.call_tool("range_renamed", {"start": 3, "to": 4})
        composite = await client.call_tool("box", {"action": "range", "from": 1, "to": 1})
    assert not flat.is_error, flat.content
    assert flat.structured_content == {"from": 2, "to": 5, "revision": "rev-1", "kind": "x"}
    assert renamed.structured_content == {"from": 3, "to": 4, "revision": None, "kind": "bold"}
    assert composite.structured_content == {"from": 1, "to": 1, "revision": None, "kind": "plain"}


async def test_python_names_are_not_arguments_and_errors_name_the_alias(server):
    async with Client(server) as client:
        python_name = await client.call_tool("range_flat", {"from_": 1, "to": 2})
        negative = await client.call_tool("range_flat", {"from": -1, "to": 2})
        missing = await client.call_tool("box", {"action": "range", "to": 2})
        missing_flat = await client.call_tool("range_flat", {"to": 2})
        renamed = await client.call_tool("range_renamed", {"start": "x", "to": 2})
    assert python_name.is_error and python_name.structured_content["argument"] == "from_"
    assert "from" in python_name.structured_content["message"]
    assert negative.is_error and negative.structured_content["argument"] == "from"
    assert missing.is_error and missing.structured_content["argument"] == "from"
    # A missing required argument is checked by the operation's model too: our envelope, not the SDK's text.
    assert missing_flat.is_error and missing_flat.structured_content["argument"] == "from"
    assert "Field required" in missing_flat.structured_content["message"]
    # A renamed argument is named as this tool publishes it, not as the operation calls it.
    assert renamed.is_error and renamed.structured_content["argument"] == "start"
    assert renamed.structured_content["message"].startswith("start: ")


async def test_nested_models_publish_an_inlined_schema(server):
    tools = {t.name: t for t in await server.list_tools()}
    part = tools["nested"].input_schema["properties"]["part"]
    assert part["properties"]["text"] == {"description": "Some text.", "type": "string"}
    assert part["required"] == ["text"]
    assert "$ref" not in str(tools["nested"].input_schema)
    assert tools["nested"].input_schema["properties"]["parts"]["items"]["type"] == "object"
    async with Client(server) as client:
        result = await client.call_tool("nested", {"part": {"text": "a"}, "parts": [{"text": "b", "before": ""}]})
        wrong = await client.call_tool("nested", {"part": {"text": "a", "extra": 1}})
    assert result.structured_content == {"texts": ["a", "b"]}
    assert wrong.is_error and wrong.structured_content["argument"] == "part.extra"
