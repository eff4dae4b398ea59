"""A small MCP server on stdio, for notebook 06 (the inspector): any server would do.

Written with the official Python SDK (``MCPServer``). It has what an inspector should show:
tools (one reports progress, one asks the person a question by elicitation, one asks the
client's model by sampling), a resource, a resource template, a prompt with arguments,
and log messages. Run by the notebook as ``connect("stdio:python servers/demo_server.py")``.
"""

from __future__ import annotations

import asyncio
import json
import warnings

import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import UserMessage
from pydantic import BaseModel, Field

# Logging and sampling are deprecated in the newest protocol revision, still part of the
# one this session speaks: the SDK's warnings would only clutter the notebook's log pane.
warnings.filterwarnings("ignore", message=".*deprecated as of 2026-07-28.*")

mcp = MCPServer("demo-server", instructions="A demo server for the jupyter-mcp-lab inspector notebook.")

RECIPES = {
    "pancakes": "Flour, milk, eggs; whisk, rest ten minutes, fry.",
    "salad": "Leaves, oil, lemon, salt; toss just before serving.",
}


class Booking(BaseModel):
    """The details of a booking."""

    guests: int = Field(description="How many people?", ge=1, le=12)
    time: str = Field(default="19:00", description="At what time?")
    terrace: bool = Field(default=False, description="Outside, on the terrace?")


@mcp.tool()
def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


@mcp.tool()
async def count_slowly(ctx: Context, to: int = 5) -> str:
    """Count to a number, reporting progress at each step (and a log message)."""
    for i in range(1, to + 1):
        await ctx.report_progress(progress=i, total=to, message=f"counted {i}")
        await asyncio.sleep(0.1)
    await ctx.info(f"counted to {to}")
    return f"Counted to {to}."


@mcp.tool()
async def book_table(restaurant: str, ctx: Context) -> str:
    """Book a table: asks the person for the details (elicitation)."""
    await ctx.info(f"asking the person about a table at {restaurant}")
    answer = await ctx.elicit(message=f"Booking a table at {restaurant}: for how many, and when?", schema=Booking)
    if answer.action != "accept":
        return f"No booking: the person chose {answer.action}."
    booking = answer.data
    where = "on the terrace" if booking.terrace else "inside"
    return f"Booked {restaurant} for {booking.guests} at {booking.time}, {where}."


@mcp.tool()
async def summarize(text: str, ctx: Context) -> str:
    """Summarize a text: asks the client's model (sampling), here answered by the person."""
    question = types.TextContent(type="text", text=f"Summarize: {text}")
    result = await ctx.session.create_message(
        messages=[types.SamplingMessage(role="user", content=question)],
        max_tokens=60,
        system_prompt="You write one-line summaries.",
        related_request_id=ctx.request_id,
    )
    content = result.content
    reply = content.text if isinstance(content, types.TextContent) else "(no text)"
    return f"Summary from {result.model}: {reply}"


@mcp.resource("demo://recipes", name="Recipe index", mime_type="application/json")
def recipe_index() -> str:
    """The names of all recipes."""
    return json.dumps(sorted(RECIPES))


@mcp.resource("demo://recipes/{name}", name="Recipe", mime_type="text/plain")
def recipe(name: str) -> str:
    """One recipe by name."""
    return RECIPES.get(name, f"No recipe called {name!r}.")


@mcp.prompt()
def plan_dinner(guests: str, cuisine: str = "any") -> list[UserMessage]:
    """A prompt to plan a dinner for a number of guests."""
    text = f"Plan a dinner for {guests} guests; cuisine: {cuisine}. Use the recipes at demo://recipes."
    return [UserMessage(content=types.TextContent(type="text", text=text))]


if __name__ == "__main__":
    mcp.run("stdio")
