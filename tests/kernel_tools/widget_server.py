"""An MCP server (not jupyter-mcp-lab) for the widgets' tests, run on stdio as a subprocess.

Built with the official SDK's ``MCPServer``: tools whose schemas exercise the generated forms
(bounds, enums, a discriminated union), a slow tool that logs and reports progress, tools that
ask the person (form and URL elicitation) and the client's model (sampling) and return what
they were told, one that fails; a text resource, an image resource, a resource template and
a prompt with arguments.

    python widget_server.py
"""

from __future__ import annotations

import asyncio
import base64
import warnings
from typing import Annotated, Literal

import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.prompts.base import UserMessage
from pydantic import BaseModel, Field

warnings.filterwarnings("ignore", message=".*deprecated as of 2026")  # logging and sampling: on purpose

# 1x1 red PNG
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)

mcp = MCPServer("widget-test-server", version="1.2.3", instructions="Tools, resources and prompts for widget tests.")


class Profile(BaseModel):
    name: str = Field(description="Your name", min_length=1)
    age: int = Field(30, ge=0, le=150, description="Your age")
    color: Literal["red", "green", "blue"] = "green"
    subscribe: bool = False


class ByPath(BaseModel):
    by: Literal["path"] = "path"
    path: str


class ByTab(BaseModel):
    by: Literal["tab"] = "tab"
    tab: int = Field(ge=0)


@mcp.tool(annotations=types.ToolAnnotations(read_only_hint=True))
def greet(name: str, times: Annotated[int, Field(ge=1, le=5)] = 1, shout: bool = False) -> str:
    """Greet someone.

    Says hello as many times as asked."""
    text = " ".join([f"hello {name}"] * times)
    return text.upper() if shout else text


@mcp.tool()
def route(
    target: Annotated[ByPath | ByTab, Field(discriminator="by")], tags: list[str] | None = None
) -> dict[str, object]:
    """Send to a path or a tab (a choice between two shapes)."""
    return {"target": target.model_dump(), "tags": tags or []}


@mcp.tool()
async def slow(steps: int, ctx: Context, pause: float = 0.05) -> str:
    """Count slowly: logs and reports progress at each step."""
    await ctx.info(f"slow: starting {steps} steps")
    for i in range(1, steps + 1):
        await asyncio.sleep(pause)
        await ctx.report_progress(progress=i, total=steps, message=f"step {i}")
    await ctx.warning("slow: done")
    return f"counted to {steps}"


@mcp.tool()
async def ask(ctx: Context) -> str:
    """Ask the person for their profile (elicitation) and say what they answered."""
    result = await ctx.elicit(message="Tell me about you", schema=Profile)
    if result.action != "accept":
        return f"the person chose {result.action}"
    return f"accepted: {result.data.model_dump_json()}"


@mcp.tool()
async def visit(ctx: Context) -> str:
    """Ask the person to visit a page (URL elicitation)."""
    result = await ctx.elicit_url(message="Sign in there", url="https://example.org/sign-in", elicitation_id="e-1")
    return f"url answer: {result.action}"


@mcp.tool()
async def sample(prompt: str, ctx: Context) -> str:
    """Ask the client's model (sampling) and say what it answered."""
    try:
        result = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
            max_tokens=64,
            system_prompt="Be brief.",
            related_request_id=ctx.request_id,
        )
    except Exception as exc:
        return f"no answer: {exc}"
    content = result.content
    return f"the model ({result.model}) said: {getattr(content, 'text', content)}"


@mcp.tool()
async def roots(ctx: Context) -> list[str]:
    """The roots the client offers, as URIs."""
    listed = await ctx.session.list_roots()
    return [str(r.uri) for r in listed.roots]


@mcp.tool()
async def grow(ctx: Context) -> str:
    """Add a tool named "extra" and announce that the tool list changed."""

    def extra() -> str:
        """A tool that appeared later."""
        return "extra!"

    mcp.add_tool(extra)
    await ctx.session.send_tool_list_changed()
    return "grown"


@mcp.tool()
def boom(reason: str = "because") -> str:
    """Always fails."""
    raise ToolError(f"boom: {reason}")


@mcp.resource("info://readme", name="readme", title="Read me", mime_type="text/markdown")
def readme() -> str:
    """What this server is."""
    return "# Widget server\n\nFor tests."


@mcp.resource("img://pixel", name="pixel", mime_type="image/png")
def pixel() -> bytes:
    """A one-pixel PNG."""
    return PNG


@mcp.resource("note://{name}", name="note", mime_type="text/plain")
def a_note(name: str) -> str:
    """A note by name."""
    return f"the note called {name}"


@mcp.prompt()
def review(topic: str, tone: str = "kind") -> list[UserMessage]:
    """Ask for a review of a topic."""
    return [UserMessage(content=types.TextContent(type="text", text=f"Review {topic} in a {tone} tone."))]


if __name__ == "__main__":
    mcp.run("stdio")
