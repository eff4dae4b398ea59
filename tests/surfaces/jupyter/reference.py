"""Calling the jupyter profile's tools as an agent configured for jupyter-mcp-server does:
the text content is what it reads, the structured content ``{kind, result, …}`` its data."""

from __future__ import annotations

from typing import Any

from mcp_types import CallToolResult

from tests.conftest import text_of

# jupyter-mcp-server 2.2.4's notebook tools, in the order its README lists them.
TOOLS = (
    "list_files",
    "list_kernels",
    "use_notebook",
    "list_notebooks",
    "restart_notebook",
    "unuse_notebook",
    "read_notebook",
    "insert_cell",
    "overwrite_cell_source",
    "edit_cell_source",
    "read_cell",
    "delete_cell",
    "clear_cell_output",
    "move_cell",
    "execute_cell",
    "insert_execute_code_cell",
    "execute_code",
)


class Jupyter:
    def __init__(self, client: Any) -> None:
        self.client = client

    async def call(self, tool: str, **arguments: Any) -> CallToolResult:
        result = await self.client.call_tool(tool, arguments)
        assert isinstance(result, CallToolResult)
        return result

    async def ok(self, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
        """(the text, the structured content) of a successful call."""
        result = await self.call(tool, **arguments)
        assert not result.is_error, f"{tool} {arguments}: {text_of(result)}"
        assert result.structured_content is not None
        return text_of(result), result.structured_content

    async def text(self, tool: str, **arguments: Any) -> str:
        return (await self.ok(tool, **arguments))[0]

    async def fail(self, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
        """(the text, the envelope) of a tool error."""
        result = await self.call(tool, **arguments)
        assert result.is_error, f"{tool} {arguments} did not fail: {text_of(result)}"
        assert result.structured_content is not None
        return text_of(result), result.structured_content
