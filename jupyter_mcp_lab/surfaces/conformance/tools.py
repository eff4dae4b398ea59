"""The conformance suite's fixture tools, as SDK ``Tool`` objects run with the SDK's ``Context``
(progress, logging, sampling, elicitation and SSE polling reach them through the request).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from ...server.mcp_server import Ctx, SurfaceServer

log = logging.getLogger(__name__)

# 1x1 red PNG and a minimal WAV, as the suite suggests.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="


class UserInfo(BaseModel):
    username: str = Field(description="User's response")
    email: str = Field(description="User's email address")


class Defaults(BaseModel):
    name: str = Field(default="John Doe", description="User name")
    age: int = Field(default=30, description="User age")
    score: float = Field(default=95.5, description="User score")
    status: str = Field(
        default="active",
        description="User status",
        json_schema_extra={"enum": ["active", "inactive", "pending"]},
    )
    verified: bool = Field(default=True, description="Verification status")


class EnumChoices(BaseModel):
    untitledSingle: str = Field(
        description="Simple enum without titles",
        json_schema_extra={"enum": ["option1", "option2", "option3"]},
    )
    titledSingle: str = Field(
        description="Enum with titled options (oneOf)",
        json_schema_extra={
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ]
        },
    )
    legacyEnum: str = Field(
        description="Legacy enum with enumNames",
        json_schema_extra={
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
    )
    untitledMulti: list[str] = Field(
        description="Multi-select without titles",
        json_schema_extra={"items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
    )
    titledMulti: list[str] = Field(
        description="Multi-select with titled options",
        json_schema_extra={
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            }
        },
    )


def test_simple_text() -> str:
    """Tests simple text content response"""
    return "This is a simple text response for testing."


def test_image_content() -> list[types.ImageContent]:
    """Tests image content response"""
    return [types.ImageContent(type="image", data=PNG, mime_type="image/png")]


def test_audio_content() -> list[types.AudioContent]:
    """Tests audio content response"""
    return [types.AudioContent(type="audio", data=WAV, mime_type="audio/wav")]


def test_embedded_resource() -> list[types.EmbeddedResource]:
    """Tests embedded resource content response"""
    return [
        types.EmbeddedResource(
            type="resource",
            resource=types.TextResourceContents(
                uri="test://embedded-resource",
                mime_type="text/plain",
                text="This is an embedded resource content.",
            ),
        )
    ]


def test_multiple_content_types() -> list[types.ContentBlock]:
    """Tests response with multiple content types (text, image, resource)"""
    return [
        types.TextContent(type="text", text="Multiple content types test:"),
        types.ImageContent(type="image", data=PNG, mime_type="image/png"),
        types.EmbeddedResource(
            type="resource",
            resource=types.TextResourceContents(
                uri="test://mixed-content-resource",
                mime_type="application/json",
                text=json.dumps({"test": "data", "value": 123}),
            ),
        ),
    ]


async def test_tool_with_logging(ctx: Context) -> str:
    """Tests tool that emits log messages during execution"""
    await ctx.info("Tool execution started")
    await asyncio.sleep(0.05)
    await ctx.info("Tool processing data")
    await asyncio.sleep(0.05)
    await ctx.info("Tool execution completed")
    return "Tool with logging executed successfully"


async def test_tool_with_progress(ctx: Context) -> str:
    """Tests tool that reports progress notifications"""
    for step in (0, 50, 100):
        await ctx.report_progress(progress=step, total=100, message=f"Completed step {step} of 100")
        if step < 100:
            await asyncio.sleep(0.05)
    meta = ctx.request_context.meta
    return str(meta.get("progress_token", 0) if meta is not None else 0)


def test_error_handling() -> types.CallToolResult:
    """Tests error response handling"""
    text = "This tool intentionally returns an error for testing"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


async def test_sampling(prompt: str, ctx: Context) -> str:
    """Tests server-initiated sampling (LLM completion request)"""
    result = await ctx.session.create_message(
        messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
        max_tokens=100,
        # On the tool call's own stream: the client may not have opened the GET stream.
        related_request_id=ctx.request_id,
    )
    content: Any = result.content
    text = content.text if getattr(content, "type", None) == "text" else "No response"
    return f"LLM response: {text}"


async def test_elicitation(message: str, ctx: Context) -> str:
    """Tests server-initiated elicitation (user input request)"""
    result = await ctx.elicit(message=message, schema=UserInfo)
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"User response: action={result.action}, content={content}"


async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    """Tests elicitation with default values for all primitive types (SEP-1034)"""
    result = await ctx.elicit(message="Please review and update the form fields with defaults", schema=Defaults)
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"Elicitation completed: action={result.action}, content={content}"


async def test_elicitation_sep1330_enums(ctx: Context) -> str:
    """Tests elicitation with enum schema variations per SEP-1330"""
    result = await ctx.elicit(message="Please select options from the enum fields", schema=EnumChoices)
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"Elicitation completed: action={result.action}, content={content}"


async def test_reconnection(ctx: Context) -> str:
    """Tests SSE polling by closing the stream mid-call (SEP-1699)"""
    await ctx.info("Before disconnect")
    await ctx.close_sse_stream()
    await asyncio.sleep(0.2)  # the client reconnects with Last-Event-ID meanwhile
    await ctx.info("After reconnect")
    return "Reconnection test completed"


def json_schema_2020_12_tool(name: str | None = None, address: dict[str, Any] | None = None) -> str:
    """Tool with JSON Schema 2020-12 features"""
    return f"name={name}, address={address}"


# The published schema must keep 2020-12 keywords that pydantic does not generate.
SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}

TOOLS: tuple[Callable[..., Any], ...] = (
    test_simple_text,
    test_image_content,
    test_audio_content,
    test_embedded_resource,
    test_multiple_content_types,
    test_tool_with_logging,
    test_tool_with_progress,
    test_error_handling,
    test_sampling,
    test_elicitation,
    test_elicitation_sep1034_defaults,
    test_elicitation_sep1330_enums,
    test_reconnection,
    json_schema_2020_12_tool,
)


def register_tools(server: SurfaceServer) -> None:
    for fn in TOOLS:
        _register_tool(server, fn, SCHEMA_2020_12 if fn is json_schema_2020_12_tool else None)


def _register_tool(server: SurfaceServer, fn: Callable[..., Any], schema: dict[str, Any] | None = None) -> None:
    tool = Tool.from_function(fn)
    definition = types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=schema or tool.parameters,
        output_schema=tool.output_schema,
    )

    async def call(ctx: Ctx, arguments: dict[str, Any]) -> types.CallToolResult:
        try:
            result = await tool.run(arguments, Context(request_context=ctx), convert_result=True)
        except MCPError:
            raise
        except Exception as exc:  # reported as the SDK's servers report it
            log.info("fixture %s failed: %r", tool.name, str(exc))
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(exc))], is_error=True)
        assert isinstance(result, types.CallToolResult)
        return result

    server.add_tool(definition, call)
