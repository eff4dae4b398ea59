"""One asyncio loop in a daemon thread, where every MCP session of this process lives.

A notebook cell is synchronous and the kernel's own loop is busy running it, so a client
cannot be driven from the cell's thread. Sessions stay open in this thread instead: a
synchronous call waits on a future, an ``await`` in a cell wraps the same future, and
widgets' button handlers submit work without blocking the kernel at all.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    def __init__(self, name: str = "jupyter-mcp-lab-client") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    @property
    def in_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``coro`` on the loop; a future the caller may wait on, or not."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` to its end and return its result (from any thread but this loop's)."""
        if self.in_thread:
            coro.close()
            raise RuntimeError("a synchronous call from inside the client loop would wait on itself; await it")
        return self.submit(coro).result(timeout)

    async def run_async(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` from another loop (a cell's top-level ``await``)."""
        if self.in_thread:
            return await coro
        return await asyncio.wrap_future(self.submit(coro))


_shared: LoopThread | None = None
_lock = threading.Lock()


def shared_loop() -> LoopThread:
    """The process's client loop, started on first use."""
    global _shared
    with _lock:
        if _shared is None or not _shared._thread.is_alive():
            _shared = LoopThread()
        return _shared
