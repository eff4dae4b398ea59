"""The MCP endpoints of one server: a surface, an SDK server and a session manager per profile.

The managers' ``run()`` contexts must be entered and left in one task, so they live in a
background task from ``start()`` to ``stop()`` (the extension's start hook and
``stop_extension``, or a standalone server's lifespan).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from mcp.server.transport_security import TransportSecuritySettings

from ..ops.context import Services
from ..surfaces import PROFILES
from .event_store import BoundedEventStore
from .mcp_server import SurfaceServer
from .request_limit import DEFAULT_MAX_REQUEST_BYTES, SessionManager

log = logging.getLogger(__name__)


class MCPEndpoints:
    def __init__(
        self,
        services: Services,
        profiles: list[str],
        security: TransportSecuritySettings | None,
        session_idle_timeout: float | None = 30 * 60,
        max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES,
    ) -> None:
        unknown = [p for p in profiles if p not in PROFILES]
        if unknown:
            raise ValueError(f"unknown MCP profile(s): {', '.join(unknown)}; known: {', '.join(PROFILES)}")
        self.services = services
        self.servers: dict[str, SurfaceServer] = {p: SurfaceServer(PROFILES[p], services) for p in profiles}
        self.managers: dict[str, SessionManager] = {
            p: SessionManager(
                app=server,
                event_store=BoundedEventStore(),
                json_response=False,
                stateless=False,
                security_settings=security,
                session_idle_timeout=session_idle_timeout,
                # Clients that lose an SSE stream come back quickly (SEP-1699 polling).
                retry_interval=1000,
                max_request_body_size=max_request_bytes,
            )
            for p, server in self.servers.items()
        }
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._run(ready), name="jupyter-mcp-lab endpoints")
        waiter = asyncio.create_task(ready.wait())
        done, _ = await asyncio.wait({self._task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            waiter.cancel()
            self._task.result()  # raises what stopped it
            raise RuntimeError("MCP endpoints stopped during start-up")

    async def _run(self, ready: asyncio.Event) -> None:
        async with contextlib.AsyncExitStack() as stack:
            for manager in self.managers.values():
                await stack.enter_async_context(manager.run())
            ready.set()
            await self._stop.wait()

    async def stop(self) -> None:
        if self._task is None:
            return
        self._stop.set()
        try:
            await asyncio.wait_for(self._task, timeout=10)
        except (TimeoutError, asyncio.CancelledError):
            self._task.cancel()
        except Exception:
            log.exception("MCP endpoints did not stop cleanly")
        self._task = None
