"""``Lab``: one MCP session, driven from notebook cells, over the official Python SDK client.

Every method has a synchronous form for a plain cell (``lab.call("document", action="read",
path="notes.md")``) and the same method awaitable under ``lab.aio`` for a cell's top-level
``await`` (``await lab.aio.call(...)``). ``lab.start(...)`` begins a call without waiting
(what widgets use, so the kernel stays free to hear the person's clicks). The session lives
in the client loop's thread (``loop.py``) from ``connect()`` to ``lab.close()``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import tempfile
from collections.abc import Coroutine
from contextlib import AsyncExitStack
from typing import Any, TypeVar

import httpx2
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import (
    GetPromptResult,
    Implementation,
    Prompt,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    Tool,
)

from .aio import AsyncLab
from .diagnose import explain_failure
from .discovery import ServerInfo
from .errors import LabError, NotALabServer
from .loop import LoopThread, shared_loop
from .progress import ProgressBar
from .prompting import answer_by_prompt, in_kernel_main_thread
from .requests import PendingRequest, ServerRequests
from .results import ToolResult
from .target import Target

T = TypeVar("T")
CLIENT_NAME = "jupyter-mcp-lab-notebook"


class Lab:
    """A connected MCP client (see the module docstring); made by ``kernel_tools.connect()``."""

    def __init__(
        self,
        target: Target,
        *,
        requests: ServerRequests | None = None,
        mode: str = "legacy",
        timeout: float = 300.0,
        client_name: str = CLIENT_NAME,
        loop: LoopThread | None = None,
    ) -> None:
        self.target = target
        self.requests = requests or ServerRequests()
        self.mode = mode
        self.timeout = timeout
        self.client_name = client_name
        self.aio = AsyncLab(self)
        self._loop = loop or shared_loop()
        self._client: Client | None = None
        self._stop: asyncio.Event | None = None
        self._holder: concurrent.futures.Future[None] | None = None
        self._tools: list[Tool] | None = None
        self._review: Any = None
        self._events: Any = None
        # A stdio server's stderr, kept for lab.stderr() (a kernel's sys.stderr has no file descriptor).
        self._stderr = tempfile.TemporaryFile("w+", prefix="mcp-stdio-") if target.command else None  # noqa: SIM115

    # --- the session ----------------------------------------------------------------

    def open(self) -> Lab:
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._holder = self._loop.submit(self._hold(ready))
        try:
            ready.result(self.timeout)
        except Exception as exc:
            self._holder.cancel()
            clearer = explain_failure(self.target, exc, self.stderr())
            if clearer is exc:
                raise
            raise clearer from exc
        except BaseException:
            self._holder.cancel()
            raise
        return self

    async def _hold(self, ready: concurrent.futures.Future[None]) -> None:
        """Keep the SDK client's context open (entered and left in this one task)."""
        self._stop = asyncio.Event()
        try:
            async with AsyncExitStack() as stack:
                transport: Any
                if self.target.command:
                    command = self.target.command
                    params = StdioServerParameters(
                        command=command[0], args=command[1:], env=self.target.env, cwd=self.target.cwd
                    )
                    transport = stdio_client(params, errlog=self._stderr)  # type: ignore[arg-type]
                else:
                    assert self.target.url
                    timeout = httpx2.Timeout(30, read=self.timeout)
                    http = httpx2.AsyncClient(headers=self.target.headers, timeout=timeout)
                    await stack.enter_async_context(http)
                    transport = streamable_http_client(self.target.url, http_client=http)
                self._client = await stack.enter_async_context(self._sdk_client(transport))
                ready.set_result(None)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(_unwrap(exc))
            elif not isinstance(exc, asyncio.CancelledError):
                ended = {"kind": "error", "level": "error", "data": f"session ended: {_unwrap(exc)!r}"}
                self.requests._append_log(ended)
        finally:
            self._client = None

    def _sdk_client(self, transport: Any) -> Client:
        r = self.requests
        return Client(
            transport,
            mode=self.mode,
            client_info=Implementation(name=self.client_name, version=_version()),
            sampling_callback=r.sampling,
            elicitation_callback=r.elicitation,
            list_roots_callback=r.list_roots,
            logging_callback=r.logging,
            message_handler=r.message,
            log_level="debug",
        )

    @property
    def client(self) -> Client:
        if self._client is None:
            raise LabError("the MCP session is closed (connect() again)")
        return self._client

    @property
    def connected(self) -> bool:
        return self._client is not None

    def close(self) -> None:
        if self._events is not None:
            self._events.close()
        if self._stop is not None and self._holder is not None and not self._holder.done():
            self._loop.loop.call_soon_threadsafe(self._stop.set)
            try:
                self._holder.result(10)
            except (concurrent.futures.TimeoutError, concurrent.futures.CancelledError):
                self._holder.cancel()
        if self._review is not None:
            self._review.close()

    def __enter__(self) -> Lab:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- running coroutines from a cell ----------------------------------------------

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Wait for ``coro``; meanwhile, from the kernel's main thread, ask the person whatever
        the server asks (the widgets can't hear clicks while a cell blocks)."""
        if self._loop.in_thread:  # a listener or handler on the client loop: waiting here would hang it
            coro.close()
            raise RuntimeError("a synchronous Lab call on the client loop's thread would wait on itself; use lab.aio")
        future = self._loop.submit(coro)
        if not in_kernel_main_thread():
            return _result(future)
        arrived = self.requests.arrived

        def wake(_: object) -> None:
            with arrived:
                arrived.notify_all()

        future.add_done_callback(wake)  # a finished call wakes the wait below at once
        with arrived:
            while not future.done():
                if self.requests.pending:
                    request = self.requests.pending[0]
                    arrived.release()
                    try:
                        answer_by_prompt(request)
                    finally:
                        arrived.acquire()
                else:
                    arrived.wait(1.0)
        return _result(future)

    # --- the protocol, synchronous ------------------------------------------------------

    def tools(self, refresh: bool = False) -> list[Tool]:
        """The server's tools (cached; ``refresh=True`` asks again)."""
        return self._run(self.aio.tools(refresh))

    def tool(self, name: str) -> Tool:
        """One tool's definition (name, description, inputSchema, outputSchema, annotations)."""
        for tool in self.tools():
            if tool.name == name:
                return tool
        raise LabError(f"no tool {name!r}; tools: {', '.join(t.name for t in self.tools())}")

    def call(
        self,
        tool: str,
        arguments: dict[str, Any] | None = None,
        /,
        *,
        progress: bool | ProgressBar = True,
        raise_on_error: bool = True,
        **kwargs: Any,
    ) -> ToolResult:
        """Call a tool: ``lab.call("document", action="read", path="notes.md")``.

        Keyword arguments join ``arguments``. A domain error raises ``ToolError`` (its
        ``code`` and envelope fields); ``raise_on_error=False`` returns it as a result.
        """
        # Made here, in the cell's context (see progress.py), unless the caller brought one.
        bar = progress if isinstance(progress, ProgressBar) else (ProgressBar(tool) if progress else None)
        return self._run(self.aio.call(tool, arguments, progress=bar or False, raise_on_error=raise_on_error, **kwargs))

    def start(
        self, tool: str, arguments: dict[str, Any] | None = None, /, **kwargs: Any
    ) -> concurrent.futures.Future[ToolResult]:
        """Start a call and return at once: a future (``.result()``, ``.done()``). Requests the
        server makes meanwhile wait in ``lab.pending`` (or the inspector widget)."""
        kwargs.setdefault("raise_on_error", False)
        return self._loop.submit(self.aio.call(tool, arguments, **kwargs))

    def resources(self) -> list[Resource]:
        return self._run(self.aio.resources())

    def resource_templates(self) -> list[ResourceTemplate]:
        return self._run(self.aio.resource_templates())

    def read_resource(self, uri: str) -> ReadResourceResult:
        return self._run(self.aio.read_resource(uri))

    def prompts(self) -> list[Prompt]:
        return self._run(self.aio.prompts())

    def get_prompt(self, name: str, **arguments: str) -> GetPromptResult:
        return self._run(self.aio.get_prompt(name, **arguments))

    def ping(self) -> float:
        """Round-trip time of a ping, in seconds."""
        return self._run(self.aio.ping())

    # --- what the server asked, what it said --------------------------------------------

    @property
    def pending(self) -> list[PendingRequest]:
        """Requests from the server (elicitation, sampling) waiting for the person."""
        return list(self.requests.pending)

    @property
    def log(self) -> list[dict[str, Any]]:
        """Server notifications and log messages, newest last."""
        return list(self.requests.log)

    def stderr(self) -> str:
        """What a stdio server wrote to its standard error."""
        if self._stderr is None:
            return ""
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read()

    # --- jupyter-mcp-lab's own API (the person's side) --------------------------------------

    @property
    def server(self) -> ServerInfo:
        if self.target.server is None:
            raise NotALabServer(f"{self.target.label} is not a jupyter-mcp-lab server: no review API there")
        return self.target.server

    @property
    def review(self) -> Any:
        """The REST API as the person (``kernel_tools.rest.ReviewAPI``): list, accept, reject…"""
        if self._review is None:
            from .rest import ReviewAPI

            self._review = ReviewAPI(self.server)
        return self._review

    @property
    def events(self) -> Any:
        """The server's review events, one stream shared by this client's widgets."""
        if self._events is None:
            from .events import EventStream

            self._events = EventStream(self.server)
        return self._events

    # --- widgets (kernel_tools.widgets) and the Panel board ------------------------------

    def tool_browser(self, tool: str | None = None) -> Any:
        """The server's tools as forms generated from their schemas; calls, results, history."""
        from .widgets import ToolBrowser

        return ToolBrowser(self, tool=tool)

    def form(self, tool: str) -> Any:
        """One tool's form (a tool browser opened on it)."""
        return self.tool_browser(tool)

    def inspector(self) -> Any:
        """The MCP inspector: tools, resources, prompts, ping, the server's log and its requests."""
        from .widgets import Inspector

        return Inspector(self)

    def review_widget(self, path: str | None = None) -> Any:
        """Pending suggestions (of one document, or all) to accept or reject, kept current."""
        from .widgets import SuggestionReview

        return SuggestionReview(self, path=path)

    def document_view(self, path: str) -> Any:
        """A markdown document rendered with its pending suggestions marked, kept current."""
        from .widgets import DocumentView

        return DocumentView(self, path)

    def outline_view(self, path: str) -> Any:
        """An outline (OPML) as a tree with agents' pending row changes to accept or reject, kept current."""
        from .widgets import OutlineView

        return OutlineView(self, path)

    def board(self) -> Any:
        """The Panel review board (every pending suggestion, filters, diffs, agents' activity)."""
        from .board import review_board

        return review_board(self)

    def __repr__(self) -> str:
        state = "connected" if self.connected else "closed"
        how = f", found by {self.target.server.source}" if self.target.server else ""
        profile = f", profile {self.target.profile}" if self.target.profile else ""
        return f"<Lab {self.target.label} ({state}{profile}{how})>"


def _result(future: concurrent.futures.Future[T]) -> T:
    try:
        return future.result()
    except LabError as exc:
        # A domain error's traceback through the client loop's thread says nothing to the
        # person: it ends at their call.
        raise exc.with_traceback(None) from None


def _unwrap(exc: BaseException) -> BaseException:
    """The one real cause inside the SDK's exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _version() -> str:
    try:
        from jupyter_mcp_lab._version import __version__

        return str(__version__)
    except ImportError:
        return "0"
