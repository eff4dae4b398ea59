"""``lab.aio``: every call of a ``Lab``, awaitable (``await lab.aio.call(...)``).

The coroutines run on the client loop's thread, where the session lives; awaiting them from
another loop (a cell's top-level ``await``) hops there and back, so the caller's loop stays
free meanwhile. The synchronous ``Lab`` methods wait on these same coroutines.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.shared.exceptions import MCPError
from mcp_types import GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool

from .errors import ProtocolError, ToolError
from .progress import ProgressBar
from .results import ToolResult

if TYPE_CHECKING:
    from .client import Lab

T = TypeVar("T")


class AsyncLab:
    """``lab.aio``: the same calls, awaitable (``await lab.aio.call(...)``)."""

    def __init__(self, lab: Lab) -> None:
        self._lab = lab

    async def _on_loop(self, make: Callable[[], Awaitable[T]]) -> T:
        async def run() -> T:
            try:
                return await make()
            except MCPError as exc:  # the SDK's protocol error, in this package's vocabulary
                raise ProtocolError(exc.error.code, exc.error.message, exc.error.data) from None

        return await self._lab._loop.run_async(run())

    async def tools(self, refresh: bool = False) -> list[Tool]:
        lab = self._lab
        lab.client  # noqa: B018  # a closed client says so, even with tools cached
        if lab._tools is None or refresh:

            async def fetch() -> list[Tool]:
                tools, cursor = [], None
                while True:
                    page = await lab.client.list_tools(cursor=cursor)
                    tools.extend(page.tools)
                    cursor = page.next_cursor
                    if not cursor:
                        return tools

            lab._tools = await self._on_loop(fetch)
        return list(lab._tools)

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any] | None = None,
        /,
        *,
        progress: bool | ProgressBar = True,
        raise_on_error: bool = True,
        **kwargs: Any,
    ) -> ToolResult:
        lab = self._lab
        args = {**(arguments or {}), **kwargs}
        bar = progress if isinstance(progress, ProgressBar) else (ProgressBar(tool) if progress else None)
        raw = await self._on_loop(lambda: lab.client.call_tool(tool, args, progress_callback=bar))
        if bar is not None:
            bar.close()
        result = ToolResult(tool, raw)
        if result.is_error and raise_on_error:
            raise _tool_error(tool, result)
        return result

    async def resources(self) -> list[Resource]:
        return await self._pages(lambda c: self._lab.client.list_resources(cursor=c), "resources")

    async def resource_templates(self) -> list[ResourceTemplate]:
        return await self._pages(lambda c: self._lab.client.list_resource_templates(cursor=c), "resource_templates")

    async def prompts(self) -> list[Prompt]:
        return await self._pages(lambda c: self._lab.client.list_prompts(cursor=c), "prompts")

    async def _pages(self, fetch: Callable[[str | None], Awaitable[Any]], attr: str) -> list[Any]:
        async def all_pages() -> list[Any]:
            items: list[Any] = []
            cursor = None
            while True:
                page = await fetch(cursor)
                items.extend(getattr(page, attr))
                cursor = page.next_cursor
                if not cursor:
                    return items

        return await self._on_loop(all_pages)

    async def read_resource(self, uri: str) -> ReadResourceResult:
        return await self._on_loop(lambda: self._lab.client.read_resource(uri))

    async def get_prompt(self, name: str, **arguments: str) -> GetPromptResult:
        return await self._on_loop(lambda: self._lab.client.get_prompt(name, {k: str(v) for k, v in arguments.items()}))

    async def ping(self) -> float:
        async def timed() -> float:
            start = asyncio.get_running_loop().time()
            with warnings.catch_warnings():  # ping is a legacy-era method, and this is a legacy session
                warnings.simplefilter("ignore")
                await self._lab.client.send_ping()
            return asyncio.get_running_loop().time() - start

        return await self._on_loop(timed)


def _tool_error(tool: str, result: ToolResult) -> ToolError:
    envelope = dict(result)
    code = envelope.get("error")
    if isinstance(code, str):
        return ToolError(tool, code, str(envelope.get("message", "")), envelope)
    return ToolError(tool, "TOOL_ERROR", result.text or "the tool failed", envelope)
