"""The conformance suite's resources, resource template, prompts and protocol handlers
(logging level, subscriptions, completion), as plain protocol types on the profile's server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from .tools import PNG

if TYPE_CHECKING:
    from ...server.mcp_server import Ctx, SurfaceServer


def _text(uri: str, text: str, mime_type: str) -> list[types.TextResourceContents | types.BlobResourceContents]:
    return [types.TextResourceContents(uri=uri, text=text, mime_type=mime_type)]


def register_resources(server: SurfaceServer) -> None:
    static: list[tuple[str, str, str, str, types.TextResourceContents | types.BlobResourceContents]] = [
        (
            "test://static-text",
            "Static Text Resource",
            "A static text resource for testing",
            "text/plain",
            types.TextResourceContents(
                uri="test://static-text",
                text="This is the content of the static text resource.",
                mime_type="text/plain",
            ),
        ),
        (
            "test://static-binary",
            "Static Binary Resource",
            "A static binary resource (image) for testing",
            "image/png",
            types.BlobResourceContents(uri="test://static-binary", blob=PNG, mime_type="image/png"),
        ),
        (
            "test://watched-resource",
            "Watched Resource",
            "A resource that can be subscribed to",
            "text/plain",
            types.TextResourceContents(
                uri="test://watched-resource", text="Watched resource content", mime_type="text/plain"
            ),
        ),
    ]
    for uri, name, description, mime_type, contents in static:

        async def read(ctx: Ctx, uri: str, contents: Any = contents) -> list[Any]:
            return [contents]

        server.add_resource(types.Resource(uri=uri, name=name, description=description, mime_type=mime_type), read)

    pattern = re.compile(r"test://template/(?P<id>[^/]+)/data")

    async def read_template(ctx: Ctx, uri: str) -> list[Any] | None:
        match = pattern.fullmatch(uri)
        if match is None:
            return None
        id_ = match["id"]
        return _text(
            uri, json.dumps({"id": id_, "templateTest": True, "data": f"Data for ID: {id_}"}), "application/json"
        )

    server.add_resource_template(
        types.ResourceTemplate(
            uri_template="test://template/{id}/data",
            name="Resource Template",
            description="A resource template with parameter substitution",
            mime_type="application/json",
        ),
        read_template,
    )


def _user(content: Any) -> types.PromptMessage:
    return types.PromptMessage(role="user", content=content)


def register_prompts(server: SurfaceServer) -> None:
    def text(value: str) -> types.TextContent:
        return types.TextContent(type="text", text=value)

    prompts: list[tuple[str, str, list[str], Callable[[dict[str, str]], list[types.PromptMessage]]]] = [
        (
            "test_simple_prompt",
            "A simple prompt without arguments",
            [],
            lambda a: [_user(text("This is a simple prompt for testing."))],
        ),
        (
            "test_prompt_with_arguments",
            "A prompt with required arguments",
            ["arg1", "arg2"],
            lambda a: [_user(text(f"Prompt with arguments: arg1='{a['arg1']}', arg2='{a['arg2']}'"))],
        ),
        (
            "test_prompt_with_embedded_resource",
            "A prompt with an embedded resource",
            ["resourceUri"],
            lambda a: [
                _user(
                    types.EmbeddedResource(
                        type="resource",
                        resource=types.TextResourceContents(
                            uri=a["resourceUri"], mime_type="text/plain", text="Embedded resource content for testing."
                        ),
                    )
                ),
                _user(text("Please process the embedded resource above.")),
            ],
        ),
        (
            "test_prompt_with_image",
            "A prompt with image content",
            [],
            lambda a: [
                _user(types.ImageContent(type="image", data=PNG, mime_type="image/png")),
                _user(text("Please analyze the image above.")),
            ],
        ),
    ]
    for name, description, args, render in prompts:
        prompt = types.Prompt(
            name=name,
            description=description,
            arguments=[types.PromptArgument(name=a, required=True) for a in args],
        )

        async def get(ctx: Ctx, arguments: dict[str, str], prompt: types.Prompt = prompt, render: Any = render) -> Any:
            missing = [a.name for a in prompt.arguments or [] if a.name not in arguments]
            if missing:
                raise MCPError(code=types.INVALID_PARAMS, message=f"Missing required arguments: {missing}")
            return types.GetPromptResult(description=prompt.description, messages=render(arguments))

        server.add_prompt(prompt, get)


def register_protocol_handlers(server: SurfaceServer, subscriptions: set[str]) -> None:
    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        return types.EmptyResult()

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        subscriptions.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        subscriptions.discard(str(params.uri))
        return types.EmptyResult()

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        return types.CompleteResult(completion=types.Completion(values=[], total=0, has_more=False))

    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
    server.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)
    server.add_request_handler("completion/complete", types.CompleteRequestParams, complete)
