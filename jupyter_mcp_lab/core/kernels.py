"""Kernels as operations see them: the Jupyter server's own kernels and sessions.

The server's implementation (``server/kernels.py``) goes through Jupyter's kernel and
session managers, so a kernel an agent starts for a notebook is the one JupyterLab shows
for it. The standalone server has none (``Services.kernels`` is None).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

ExecutionStatus = Literal["ok", "error", "timeout"]
# Called as outputs arrive: with the new output (an nbformat output dict; None when outputs
# were cleared or a display updated) and the outputs so far (streams merged).
OnOutput = Callable[[dict[str, Any] | None, list[dict[str, Any]]], Awaitable[None]]


@dataclass
class KernelInfo:
    id: str
    name: str
    state: str
    connections: int = 0
    last_activity: str | None = None
    paths: list[str] = field(default_factory=list)  # the notebooks whose sessions use it
    display_name: str = ""  # its kernelspec's
    language: str = ""
    env: dict[str, str] = field(default_factory=dict)  # its kernelspec's environment variables


@dataclass
class Execution:
    status: ExecutionStatus
    outputs: list[dict[str, Any]]  # nbformat 4 outputs, streams merged
    execution_count: int | None
    interrupted: bool = False  # the kernel was interrupted at the timeout


class Kernels(Protocol):
    async def list(self) -> list[KernelInfo]:
        """The running kernels, with the notebooks whose sessions use them."""
        ...

    async def find(self, path: str) -> KernelInfo | None:
        """The kernel of ``path``'s session, if one runs."""
        ...

    async def ensure(self, path: str, kernel_name: str | None) -> tuple[KernelInfo, bool]:
        """The kernel of ``path``'s session, starting a session with ``kernel_name`` (None:
        the default kernel) if none runs; and whether it was started now."""
        ...

    async def execute(self, kernel_id: str, code: str, seconds: float, on_output: OnOutput) -> Execution:
        """Run ``code``; after ``seconds`` the kernel is interrupted and what came is returned."""
        ...

    async def interrupt(self, kernel_id: str) -> None: ...

    async def restart(self, kernel_id: str) -> None: ...
