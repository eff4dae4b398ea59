"""The ``conformance`` profile: the fixtures of the official MCP conformance suite.

Off unless configured. It proves that Jupyter's endpoint carries what the document tools
rely on: progress, logging, sampling, elicitation, resources, subscriptions, prompts and
completion. Names and texts follow the suite's server requirements.
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import UserMessage
from pydantic import BaseModel, Field

from ..ops.context import Services
from .base import Surface

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


def _register_tools(mcp: MCPServer) -> None:
    @mcp.tool()
    def test_simple_text() -> str:
        """Tests simple text content response"""
        return "This is a simple text response for testing."

    @mcp.tool()
    def test_image_content() -> list[types.ImageContent]:
        """Tests image content response"""
        return [types.ImageContent(type="image", data=PNG, mime_type="image/png")]

    @mcp.tool()
    def test_audio_content() -> list[types.AudioContent]:
        """Tests audio content response"""
        return [types.AudioContent(type="audio", data=WAV, mime_type="audio/wav")]

    @mcp.tool()
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

    @mcp.tool()
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

    @mcp.tool()
    async def test_tool_with_logging(ctx: Context) -> str:
        """Tests tool that emits log messages during execution"""
        await ctx.info("Tool execution started")
        await asyncio.sleep(0.05)
        await ctx.info("Tool processing data")
        await asyncio.sleep(0.05)
        await ctx.info("Tool execution completed")
        return "Tool with logging executed successfully"

    @mcp.tool()
    async def test_tool_with_progress(ctx: Context) -> str:
        """Tests tool that reports progress notifications"""
        for step in (0, 50, 100):
            await ctx.report_progress(progress=step, total=100, message=f"Completed step {step} of 100")
            if step < 100:
                await asyncio.sleep(0.05)
        meta = ctx.request_context.meta
        return str(meta.get("progress_token", 0) if meta is not None else 0)

    @mcp.tool()
    def test_error_handling() -> types.CallToolResult:
        """Tests error response handling"""
        text = "This tool intentionally returns an error for testing"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    @mcp.tool()
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

    @mcp.tool()
    async def test_elicitation(message: str, ctx: Context) -> str:
        """Tests server-initiated elicitation (user input request)"""
        result = await ctx.elicit(message=message, schema=UserInfo)
        content = result.data.model_dump_json() if result.action == "accept" else "{}"
        return f"User response: action={result.action}, content={content}"

    @mcp.tool()
    async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
        """Tests elicitation with default values for all primitive types (SEP-1034)"""
        result = await ctx.elicit(message="Please review and update the form fields with defaults", schema=Defaults)
        content = result.data.model_dump_json() if result.action == "accept" else "{}"
        return f"Elicitation completed: action={result.action}, content={content}"

    @mcp.tool()
    async def test_elicitation_sep1330_enums(ctx: Context) -> str:
        """Tests elicitation with enum schema variations per SEP-1330"""
        result = await ctx.elicit(message="Please select options from the enum fields", schema=EnumChoices)
        content = result.data.model_dump_json() if result.action == "accept" else "{}"
        return f"Elicitation completed: action={result.action}, content={content}"

    @mcp.tool()
    async def test_reconnection(ctx: Context) -> str:
        """Tests SSE polling by closing the stream mid-call (SEP-1699)"""
        await ctx.info("Before disconnect")
        await ctx.close_sse_stream()
        await asyncio.sleep(0.2)  # the client reconnects with Last-Event-ID meanwhile
        await ctx.info("After reconnect")
        return "Reconnection test completed"

    @mcp.tool()
    def json_schema_2020_12_tool(name: str | None = None, address: dict[str, Any] | None = None) -> str:
        """Tool with JSON Schema 2020-12 features"""
        return f"name={name}, address={address}"

    # The published schema must keep 2020-12 keywords that pydantic does not generate.
    tool = mcp._tool_manager.get_tool("json_schema_2020_12_tool")
    assert tool is not None
    tool.parameters = {
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


def _register_resources_and_prompts(mcp: MCPServer) -> None:
    @mcp.resource("test://static-text", name="Static Text Resource", mime_type="text/plain")
    def static_text() -> str:
        """A static text resource for testing"""
        return "This is the content of the static text resource."

    @mcp.resource("test://static-binary", name="Static Binary Resource", mime_type="image/png")
    def static_binary() -> bytes:
        """A static binary resource (image) for testing"""
        return base64.b64decode(PNG)

    @mcp.resource("test://template/{id}/data", name="Resource Template", mime_type="application/json")
    def template(id: str) -> str:
        """A resource template with parameter substitution"""
        return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})

    @mcp.resource("test://watched-resource", name="Watched Resource", mime_type="text/plain")
    def watched() -> str:
        """A resource that can be subscribed to"""
        return "Watched resource content"

    @mcp.prompt()
    def test_simple_prompt() -> list[UserMessage]:
        """A simple prompt without arguments"""
        return [UserMessage(content=types.TextContent(type="text", text="This is a simple prompt for testing."))]

    @mcp.prompt()
    def test_prompt_with_arguments(arg1: str, arg2: str) -> list[UserMessage]:
        """A prompt with required arguments"""
        text = f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
        return [UserMessage(content=types.TextContent(type="text", text=text))]

    @mcp.prompt()
    def test_prompt_with_embedded_resource(resourceUri: str) -> list[UserMessage]:
        """A prompt with an embedded resource"""
        resource = types.TextResourceContents(
            uri=resourceUri, mime_type="text/plain", text="Embedded resource content for testing."
        )
        return [
            UserMessage(content=types.EmbeddedResource(type="resource", resource=resource)),
            UserMessage(content=types.TextContent(type="text", text="Please process the embedded resource above.")),
        ]

    @mcp.prompt()
    def test_prompt_with_image() -> list[UserMessage]:
        """A prompt with image content"""
        return [
            UserMessage(content=types.ImageContent(type="image", data=PNG, mime_type="image/png")),
            UserMessage(content=types.TextContent(type="text", text="Please analyze the image above.")),
        ]

    @mcp.completion()
    async def complete(ref: Any, argument: types.CompletionArgument, context: Any) -> types.Completion:
        return types.Completion(values=[], total=0, has_more=False)


def _register_protocol_handlers(mcp: MCPServer, subscriptions: set[str]) -> None:
    # MCPServer has no public hooks for these three methods; the low-level server does.
    low = mcp._lowlevel_server

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        return types.EmptyResult()

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        subscriptions.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        subscriptions.discard(str(params.uri))
        return types.EmptyResult()

    low.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    low.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
    low.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)


def _extend(mcp: MCPServer, services: Services) -> None:
    _register_tools(mcp)
    _register_resources_and_prompts(mcp)
    _register_protocol_handlers(mcp, set())


SURFACE = Surface(
    name="conformance",
    title="MCP conformance fixtures",
    instructions="Fixtures for the official MCP conformance suite. Not for agents.",
    extend=_extend,
    server_name="mcp-conformance-test-server",
)
