"""The Jupyter server's kernels for agents: its kernel manager and session manager.

A notebook's kernel is the kernel of the Jupyter session for its path, the one JupyterLab
connects to when it opens the notebook; when none runs, one is started through a session
(as JupyterLab does), so the person sees it. Code runs through a kernel client of our own
(its own channels); its messages are told apart from the person's by their parent id.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import time
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any

from jupyter_core.utils import ensure_async
from tornado import web
from traitlets import TraitError

from ..core.content.cells import output_from_msg
from ..core.errors import DomainError
from ..core.kernels import Execution, ExecutionStatus, KernelInfo, OnOutput

log = logging.getLogger(__name__)

READY_TIMEOUT = 60.0  # a kernel that just started needs a few seconds before it answers
SPECS_TTL = 5.0  # seconds a listing of the installed kernelspecs is reused
INTERRUPT_GRACE = 5.0  # after an interrupt at the timeout: time for the kernel to go idle


class JupyterKernels:
    def __init__(self, serverapp: Any) -> None:
        self.serverapp = serverapp
        # One execution at a time per kernel through us: the kernel runs them in turn anyway,
        # and each reads only its own messages.
        self._locks: dict[str, asyncio.Lock] = {}
        # A kernel client of ours per kernel, kept between runs: connecting one and waiting for
        # the kernel to answer it costs ~0.2 s, fifteen times a trivial run. Kept per kernel
        # process (its pid), so a restarted kernel, by anyone, gets a fresh one.
        self._clients: dict[str, tuple[Any, Any]] = {}  # kernel id -> (pid, client)
        self._spec_cache: tuple[float, dict[str, Any]] | None = None

    @property
    def _km(self) -> Any:
        return self.serverapp.kernel_manager

    @property
    def _sm(self) -> Any:
        return self.serverapp.session_manager

    def _specs(self) -> dict[str, Any]:
        """The installed kernelspecs, read again after ``SPECS_TTL`` seconds: reading them
        walks the kernel folders and parses each kernel.json, and a notebook's kernel is
        looked up on every execution."""
        now = time.monotonic()
        if self._spec_cache is None or now - self._spec_cache[0] > SPECS_TTL:
            self._spec_cache = (now, self._km.kernel_spec_manager.get_all_specs())
        return self._spec_cache[1]

    def _infos(self, sessions: Iterable[dict[str, Any]], only: Iterable[str] | None = None) -> list[KernelInfo]:
        """The running kernels (those of ``only`` if given), each with the paths of
        ``sessions`` that use it."""
        paths: dict[str, list[str]] = {}
        for s in sessions:
            kernel = s.get("kernel") or {}
            if kernel.get("id"):
                paths.setdefault(kernel["id"], []).append(s.get("path", ""))
        out = []
        specs = self._specs()
        for kernel_id in list(self._km.list_kernel_ids()) if only is None else only:
            try:
                model = self._km.kernel_model(kernel_id)
            except (TraitError, KeyError, web.HTTPError):
                # Starting (no last activity yet: Jupyter's own listing fails on it, so one
                # agent's kernel starting failed another's run) or just gone: not listed.
                continue
            spec = (specs.get(model.get("name", "")) or {}).get("spec") or {}
            out.append(
                KernelInfo(
                    id=model["id"],
                    name=model.get("name", ""),
                    state=model.get("execution_state", ""),
                    connections=int(model.get("connections", 0)),
                    last_activity=model.get("last_activity"),
                    paths=sorted(paths.get(model["id"], [])),
                    display_name=spec.get("display_name", ""),
                    language=spec.get("language", ""),
                    env={str(k): str(v) for k, v in (spec.get("env") or {}).items()},
                )
            )
        return out

    async def list(self) -> list[KernelInfo]:
        return self._infos(await ensure_async(self._sm.list_sessions()))

    async def find(self, path: str) -> KernelInfo | None:
        sessions = await ensure_async(self._sm.list_sessions())  # one listing for both steps
        mine = [(s.get("kernel") or {}).get("id") for s in sessions if s.get("path") == path]
        running = {k.id: k for k in self._infos(sessions, only=[k for k in mine if k])}
        for s in sessions:
            kernel_id = (s.get("kernel") or {}).get("id")
            if s.get("path") == path and kernel_id in running:
                return running[kernel_id]
        return None

    async def ensure(self, path: str, kernel_name: str | None) -> tuple[KernelInfo, bool]:
        found = await self.find(path)
        if found is not None:
            return found, False
        specs = self._km.kernel_spec_manager.find_kernel_specs()
        name = kernel_name or self._km.default_kernel_name
        if name not in specs:
            raise DomainError(
                "NOT_FOUND",
                f"the notebook's kernel {name!r} is not installed on this server (installed: "
                f"{', '.join(sorted(specs)) or 'none'}); set its kernelspec to one of those",
                kernelName=name,
                installed=sorted(specs),
            )
        await self._sm.create_session(path=path, name=PurePosixPath(path).name, type="notebook", kernel_name=name)
        found = await self.find(path)
        if found is None:  # the session manager just made it
            raise DomainError("INTERNAL", f"the kernel session for {path!r} did not start")
        return found, True

    def _kernel(self, kernel_id: str) -> Any:
        if kernel_id not in self._km:
            raise DomainError("NOT_FOUND", f"no running kernel {kernel_id!r}", kernelId=kernel_id)
        return self._km.get_kernel(kernel_id)

    async def interrupt(self, kernel_id: str) -> None:
        self._kernel(kernel_id)
        await ensure_async(self._km.interrupt_kernel(kernel_id))

    async def restart(self, kernel_id: str) -> None:
        self._kernel(kernel_id)
        self._drop(kernel_id)
        await ensure_async(self._km.restart_kernel(kernel_id))

    def _drop(self, kernel_id: str) -> None:
        cached = self._clients.pop(kernel_id, None)
        if cached is not None:
            cached[1].stop_channels()

    def close(self) -> None:
        """Stop our kernel clients (the server is stopping)."""
        for kernel_id in list(self._clients):
            self._drop(kernel_id)

    async def _client(self, kernel_id: str, kernel: Any) -> Any:
        """Our connected client of ``kernel``, made (and the kernel's answer awaited) when
        there is none for its current process."""
        for gone in [k for k in self._clients if k not in self._km]:
            self._drop(gone)
        pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
        cached = self._clients.get(kernel_id)
        if cached is not None and cached[0] == pid and cached[1].channels_running:
            return cached[1]
        self._drop(kernel_id)
        client = kernel.client()
        client.start_channels()
        try:
            # Ready: our iopub subscription is live, so no output of ours is missed.
            await client.wait_for_ready(timeout=READY_TIMEOUT)
        except BaseException:
            client.stop_channels()
            raise
        self._clients[kernel_id] = (pid, client)
        return client

    async def execute(self, kernel_id: str, code: str, seconds: float, on_output: OnOutput) -> Execution:
        kernel = self._kernel(kernel_id)
        lock = self._locks.setdefault(kernel_id, asyncio.Lock())
        began = time.monotonic()
        try:
            await asyncio.wait_for(lock.acquire(), seconds)
        except TimeoutError:
            return Execution("timeout", [], None)
        try:
            left = seconds - (time.monotonic() - began)
            try:
                client = await self._client(kernel_id, kernel)
            except RuntimeError as exc:  # wait_for_ready: the kernel died or did not answer
                raise DomainError("INTERNAL", f"the kernel did not answer: {exc}", kernelId=kernel_id) from None
            # The code's time starts once the kernel answers (one just started takes seconds).
            return await self._run(client, kernel_id, code, time.monotonic() + left, on_output)
        finally:
            lock.release()

    async def _run(self, client: Any, kernel_id: str, code: str, deadline: float, on_output: OnOutput) -> Execution:
        msg_id = client.execute(code, store_history=True, allow_stdin=False)
        outputs: list[dict[str, Any]] = []
        displays: dict[str, list[int]] = {}  # display_id -> indexes of its outputs
        count: int | None = None
        status: ExecutionStatus = "ok"
        clear_next = False
        interrupted = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0 and not interrupted:
                # The code overran: stop it so the kernel is usable, and keep what it said.
                await ensure_async(self._km.interrupt_kernel(kernel_id))
                interrupted, status = True, "timeout"
                deadline = time.monotonic() + INTERRUPT_GRACE
                continue
            if left <= 0:
                break
            try:
                msg = await client.get_iopub_msg(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content.get("execution_state") == "idle":
                break
            if kind == "execute_input":
                count = content.get("execution_count")
            elif kind == "clear_output":
                if content.get("wait"):
                    clear_next = True
                else:
                    outputs.clear()
                    displays.clear()
                    await on_output(None, outputs)
            elif kind == "update_display_data":
                display_id = str((content.get("transient") or {}).get("display_id"))
                for i in displays.get(display_id, []):
                    outputs[i] = {
                        **outputs[i],
                        "data": content.get("data", {}),
                        "metadata": content.get("metadata", {}),
                    }
                await on_output(None, outputs)
            elif kind in ("stream", "display_data", "execute_result", "error"):
                if clear_next:
                    outputs.clear()
                    displays.clear()
                    clear_next = False
                out = output_from_msg(kind, content)
                if kind == "execute_result":
                    count = content.get("execution_count", count)
                if kind == "error" and status == "ok":
                    status = "error"
                last = outputs[-1] if outputs else None
                if kind == "stream" and last and last["output_type"] == "stream" and last["name"] == out["name"]:
                    # As JupyterLab shows consecutive stream text; a new dict, so what was
                    # shown before (``on_output``'s list) is not changed under its reader.
                    outputs[-1] = {**last, "text": last["text"] + out["text"]}
                else:
                    shown_id = (content.get("transient") or {}).get("display_id")
                    if shown_id:
                        displays.setdefault(str(shown_id), []).append(len(outputs))
                    outputs.append(out)
                await on_output(out, outputs)
        return Execution(status, outputs, count, interrupted)
