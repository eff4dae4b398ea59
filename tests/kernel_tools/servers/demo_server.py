"""A small MCP server that is not jupyter-mcp-lab, for the inspector's tests.

Built with the official SDK (``MCPServer``): tools (one with progress, one that logs, one
that asks the person through elicitation, one that samples the client's model, one that
lists the client's roots, one that fails, one that returns an image), resources, a
resource template and a prompt with arguments. It says hello on its standard error.

    python demo_server.py                 # stdio
    python demo_server.py --http PORT     # streamable HTTP on 127.0.0.1:PORT/mcp; every
                                          # request must carry the header X-Demo-Key: let-me-in
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import warnings
from typing import Any

import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import UserMessage
from pydantic import BaseModel, Field

# 1x1 red PNG
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
KEY_HEADER, KEY = "x-demo-key", "let-me-in"

# Logging, sampling and roots are deprecated in the 2026-07-28 protocol; this server speaks the
# handshake-era protocol on purpose, and its stderr should say only what the tests look for.
warnings.filterwarnings("ignore", message=".*deprecated as of 2026")

mcp = MCPServer("demo-server", instructions="A demo server for the notebook inspector's tests.")


class Person(BaseModel):
    name: str = Field(description="Your name")
    age: int = Field(default=30, description="Your age")


@mcp.tool()
def echo(text: str) -> str:
    """Say the text back."""
    return f"echo: {text}"


@mcp.tool()
def add(a: int, b: int) -> dict[str, int]:
    """Add two integers."""
    return {"sum": a + b}


@mcp.tool()
async def count(steps: int, ctx: Context) -> str:
    """Count to ``steps``, reporting progress at each step."""
    for i in range(1, steps + 1):
        await asyncio.sleep(0.02)
        await ctx.report_progress(progress=i, total=steps, message=f"step {i} of {steps}")
    return f"counted to {steps}"


@mcp.tool()
async def chatty(ctx: Context) -> str:
    """Log at three levels, announce changed resources, and write to standard error."""
    await ctx.info("starting to chat")
    await ctx.warning("this is a warning")
    await ctx.error("this is an error")
    await ctx.session.send_resource_list_changed()  # a handshake-era notification, as legacy clients get it
    print("chatty wrote this to stderr", file=sys.stderr, flush=True)
    return "chatted"


@mcp.tool()
async def ask_name(ctx: Context) -> str:
    """Ask the person for their name and age (elicitation)."""
    result = await ctx.elicit(message="Who are you?", schema=Person)
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"action={result.action}, content={content}"


@mcp.tool()
async def ask_model(prompt: str, ctx: Context) -> str:
    """Ask the client's model (sampling)."""
    try:
        result = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
            max_tokens=50,
            system_prompt="Answer briefly.",
            related_request_id=ctx.request_id,
        )
    except Exception as exc:  # the person declined: the client answered with an error
        return f"no answer: {exc}"
    content: Any = result.content
    return f"model {result.model} says: {content.text}"


@mcp.tool()
async def roots(ctx: Context) -> list[str]:
    """The client's roots, as URIs."""
    listed = await ctx.session.list_roots()
    return [str(r.uri) for r in listed.roots]


@mcp.tool()
def fail() -> types.CallToolResult:
    """Always fails, with text only."""
    return types.CallToolResult(content=[types.TextContent(type="text", text="it went wrong")], is_error=True)


@mcp.tool()
def picture() -> list[types.ContentBlock]:
    """A caption and a one-pixel image."""
    return [
        types.TextContent(type="text", text="a red pixel"),
        types.ImageContent(type="image", data=PNG, mime_type="image/png"),
    ]


@mcp.resource("demo://readme", name="Read me", mime_type="text/markdown")
def readme() -> str:
    """What this server is."""
    return "# Demo\n\nA demo server."


@mcp.resource("demo://notes/{name}", name="A note", mime_type="application/json")
def a_note(name: str) -> str:
    """A note by name."""
    return json.dumps({"name": name, "text": f"the note called {name}"})


@mcp.prompt()
def summarize(topic: str, style: str = "short") -> list[UserMessage]:
    """Ask for a summary of a topic."""
    return [UserMessage(content=types.TextContent(type="text", text=f"Summarize {topic}, {style} style."))]


def http_app() -> Any:
    app = mcp.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1")

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        # The client's headers= must arrive: no key, no entry.
        if scope["type"] == "http" and dict(scope["headers"]).get(KEY_HEADER.encode()) != KEY.encode():
            await send({"type": "http.response.start", "status": 401, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"missing X-Demo-Key"})
            return
        await app(scope, receive, send)

    return guarded


def main() -> None:
    tag = os.environ.get("DEMO_TAG", "-")
    print(f"demo server starting (tag {tag}, in {os.getcwd()})", file=sys.stderr, flush=True)
    if sys.argv[1:2] == ["--http"]:
        import uvicorn

        uvicorn.run(http_app(), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", lifespan="on")
    else:
        mcp.run("stdio")


if __name__ == "__main__":
    main()
