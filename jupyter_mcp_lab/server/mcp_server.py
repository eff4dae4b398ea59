"""The MCP binding of a surface: the SDK's low-level ``Server`` with our own handlers.

tools/list answers the definitions the dispatcher compiled once; tools/call derives the
caller from the request, hands the call to the dispatcher with a reporter bound to the
request (progress and log notifications travel on the call's own stream) and wraps the
outcome as ``CallToolResult`` (structured content, the JSON as text, ``isError`` on
envelopes). Resources read through the dispatcher too. The SDK keeps everything it owns:
JSON-RPC, sessions, the handshake, argument-free protocol checks, elicitation and sampling
on ``ctx.session``. Tools, resources and prompts that are MCP fixtures rather than
operations (the conformance profile) register here through ``add_tool``/``add_resource``/
``add_prompt``; other methods through the SDK's public ``add_request_handler``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.elicitation import elicit_with_validation
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from ..core.errors import DomainError
from ..ops.context import Services
from ..surfaces.base import Surface
from ..surfaces.caller import caller_from_context
from .dispatch import Dispatcher, Outcome, Reporter

Ctx = ServerRequestContext[Any, Any]
ToolCall = Callable[[Ctx, dict[str, Any]], Awaitable[types.CallToolResult]]
ResourceRead = Callable[[Ctx, str], Awaitable["list[types.TextResourceContents | types.BlobResourceContents] | None"]]
PromptGet = Callable[[Ctx, dict[str, str]], Awaitable[types.GetPromptResult]]

log = logging.getLogger(__name__)

# Our tool and resource lists change (profiles, the lab bridge): say so in initialize.
LIST_CHANGED = NotificationOptions(prompts_changed=True, resources_changed=True, tools_changed=True)


def tool_result(outcome: Outcome) -> types.CallToolResult | dict[str, Any]:
    """The outcome as tools/call answers it: a ``CallToolResult``, or a success with structured
    content as the dict that model dumps to (see below)."""
    payload = outcome.payload
    if isinstance(payload, types.CallToolResult):  # a profile that renders its errors as MCP results itself
        return payload
    if outcome.is_error:
        text = outcome.text or types_json(payload)
        structured = payload if isinstance(payload, dict) else None
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structured_content=structured, is_error=True
        )
    assert outcome.text is not None
    head = types.CallToolResult(content=[types.TextContent(type="text", text=outcome.text)])
    if not isinstance(payload, dict):
        return types.CallToolResult(content=head.content, structured_content=payload)
    # The wire form as the model dumps it, with the structured content put in as it is: the
    # SDK's runner dumps a returned model field by field (walking every value of the
    # structured content, 9 ms of CPU for a 5,000-row outline) but takes a returned dict as
    # it is, and the dispatcher's payload is already plain JSON values (dumped in JSON mode).
    wire = head.model_dump(by_alias=True, mode="json", exclude_none=True)
    return {"content": wire.pop("content"), "structuredContent": payload, **wire}


def types_json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class SurfaceServer(Server[Any]):
    """One profile's MCP server; ``self.dispatcher`` is the transport-neutral part."""

    def __init__(self, surface: Surface, services: Services) -> None:
        super().__init__(
            surface.server_name,
            version=services.version,
            title=surface.title,
            instructions=surface.instructions,
            get_tool_input_schema=self._input_schema,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
            # The 2026-07-28 way to hear of list changes, as every SDK server offers it.
            on_subscriptions_listen=ListenHandler(InMemorySubscriptionBus()),
        )
        self.surface = surface
        self.dispatcher = Dispatcher(surface, services)
        self._extra_tools: dict[str, tuple[types.Tool, ToolCall]] = {}
        self._all_tools: dict[str, tuple[types.Tool, ToolCall | None]] | None = None  # built on first use
        self._tool_list: types.ListToolsResult | None = None
        self._resources: list[tuple[types.Resource, ResourceRead]] = [
            (
                types.Resource(uri=r.uri, name=r.name, title=r.title, description=r.description, mime_type=r.mime_type),
                self._read_surface_resource,
            )
            for r in surface.resources
        ]
        self._templates: list[tuple[types.ResourceTemplate, ResourceRead]] = []
        self._prompts: dict[str, tuple[types.Prompt, PromptGet]] = {}
        if surface.extend is not None:
            surface.extend(self, services)

    # ------------------------------------------------------------------ registration

    def add_tool(self, definition: types.Tool, call: ToolCall) -> None:
        self._extra_tools[definition.name] = (definition, call)
        self._all_tools = self._tool_list = None

    @property
    def _tools(self) -> dict[str, tuple[types.Tool, ToolCall | None]]:
        """The surface's tools (compiled by the dispatcher on first use), then the extra ones."""
        if self._all_tools is None:
            tools: dict[str, tuple[types.Tool, ToolCall | None]] = {
                name: (binding.definition, None) for name, binding in self.dispatcher.tools.items()
            }
            self._all_tools = tools | self._extra_tools
        return self._all_tools

    def add_resource(self, resource: types.Resource, read: ResourceRead) -> None:
        self._resources.append((resource, read))

    def add_resource_template(self, template: types.ResourceTemplate, read: ResourceRead) -> None:
        """``read`` answers None for a URI its template does not match."""
        self._templates.append((template, read))

    def add_prompt(self, prompt: types.Prompt, get: PromptGet) -> None:
        self._prompts[prompt.name] = (prompt, get)

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        # The session manager asks without options; ours announce listChanged.
        return super().create_initialization_options(
            notification_options or LIST_CHANGED, experimental_capabilities, extensions
        )

    async def run_stdio(self) -> None:
        """Serve one client over this process's stdin and stdout."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            await self.run(read_stream, write_stream, self.create_initialization_options())

    async def list_tools(self) -> list[types.Tool]:
        return [definition for definition, _ in self._tools.values()]

    # ------------------------------------------------------------------ tools

    def _input_schema(self, name: str) -> dict[str, Any] | None:
        entry = self._tools.get(name)
        return None if entry is None else entry[0].input_schema

    async def _list_tools(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        if self._tool_list is None:
            self._tool_list = types.ListToolsResult(tools=await self.list_tools())
        return self._tool_list

    async def _call_tool(self, ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        name = params.name
        entry = self._tools.get(name)
        if entry is None:  # the SDK's servers answer so
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"Unknown tool: {name}")], is_error=True
            )
        if entry[1] is not None:
            return await entry[1](ctx, params.arguments or {})
        caller = caller_from_context(ctx, self.surface.name)
        outcome = await self.dispatcher.call(name, params.arguments or {}, caller, self._reporter(ctx))
        # A dict is a handler result the SDK's runner takes (its handler type names the model only).
        return cast(types.CallToolResult, tool_result(outcome))

    @staticmethod
    def _reporter(ctx: Ctx) -> Reporter:
        """Progress, log messages and questions travel on the call's own stream (the client may
        not have opened the standalone GET stream)."""
        session = ctx.session
        related = str(ctx.request_id)

        async def log(level: str, message: str) -> None:
            await session.send_log_message(level=level, data=message, logger=None, related_request_id=related)  # type: ignore[arg-type]

        async def ask(message: str, schema: type[BaseModel]) -> BaseModel | None:
            caps = session.client_capabilities
            if caps is None or caps.elicitation is None:
                return None
            answer = await elicit_with_validation(session, message, schema, related_request_id=related)
            return answer.data if answer.action == "accept" else None

        follows = (ctx.meta or {}).get("progress_token") is not None
        return Reporter(
            progress=session.report_progress, log=log, protocol_version=ctx.protocol_version, ask=ask, follows=follows
        )

    # ------------------------------------------------------------------ resources and prompts

    async def _list_resources(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[r for r, _ in self._resources])

    async def _list_templates(
        self, ctx: Ctx, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[t for t, _ in self._templates])

    async def _read_resource(self, ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        for resource, read in self._resources:
            if str(resource.uri) == uri:
                contents = await read(ctx, uri)
                assert contents is not None
                return types.ReadResourceResult(contents=contents)
        for _, read in self._templates:
            if (contents := await read(ctx, uri)) is not None:
                return types.ReadResourceResult(contents=contents)
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown resource: {uri}", data={"uri": uri})

    async def _read_surface_resource(
        self, ctx: Ctx, uri: str
    ) -> list[types.TextResourceContents | types.BlobResourceContents]:
        caller = caller_from_context(ctx, self.surface.name)
        try:
            text = await self.dispatcher.read_resource(uri, caller, self._reporter(ctx))
        except DomainError as exc:
            raise MCPError(code=types.INTERNAL_ERROR, message=types_json(exc.envelope()), data={"uri": uri}) from None
        except Exception:  # nothing of a crash reaches the client
            log.exception("resource %s failed", uri)
            raise MCPError(
                code=types.INTERNAL_ERROR, message=f"Error reading resource {uri}", data={"uri": uri}
            ) from None
        mime = self.dispatcher.resources[uri].mime_type
        return [types.TextResourceContents(uri=uri, text=text, mime_type=mime)]

    async def _list_prompts(self, ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[p for p, _ in self._prompts.values()])

    async def _get_prompt(self, ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        entry = self._prompts.get(params.name)
        if entry is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {params.name}")
        return await entry[1](ctx, params.arguments or {})


def build_server(surface: Surface, services: Services) -> SurfaceServer:
    return SurfaceServer(surface, services)
