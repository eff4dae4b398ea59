"""The latency floor's MCP server: the SDK's high-level ``MCPServer`` as a bare SDK server
is written, with the two tools ``latency.py`` calls (``session`` and ``document``) running
the same operations as the subject. What the subject adds on top (its dispatcher's argument
checks, response budget, activity log, the low-level binding, Jupyter) is what is measured.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context, MCPServer

from jupyter_mcp_lab.ops.context import OpContext, Services
from jupyter_mcp_lab.server.dispatch.tools import resolve
from jupyter_mcp_lab.surfaces import PROFILES
from jupyter_mcp_lab.surfaces.base import CompositeTool
from jupyter_mcp_lab.surfaces.caller import caller_from_context


def build_server(services: Services) -> MCPServer:
    server = MCPServer(name="latency-floor")
    tools = {t.name: t for t in PROFILES["lab"].tools if isinstance(t, CompositeTool)}

    async def run(tool: str, action: str, ctx: Context, **fields: Any) -> dict[str, Any]:
        op = resolve(tools[tool].actions[action])  # an operation or an adapter, by object or name
        context = OpContext(services=services, caller=caller_from_context(ctx.request_context, "lab"))
        result = await op(context, op.params.model_validate(fields))
        return result.model_dump(mode="json", by_alias=True)

    @server.tool(name="session", description="The session's state.", structured_output=True)
    async def session(action: str, ctx: Context) -> dict[str, Any]:
        return await run("session", action, ctx)

    @server.tool(name="document", description="Read a document.", structured_output=True)
    async def document(action: str, path: str, ctx: Context) -> dict[str, Any]:
        return await run("document", action, ctx, path=path)

    return server
