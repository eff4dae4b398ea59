"""Kernel helpers for jupyter-mcp-lab: call the lab's MCP tools from a notebook, review
agents' changes in widgets, and inspect any other MCP server.

>>> from kernel_tools import connect
>>> lab = connect()                                   # this kernel's Jupyter server
>>> lab.call("document", action="read", path="notes.md")
>>> other = connect("stdio:python my_server.py")      # any MCP server
"""

from __future__ import annotations

from typing import Any

from .aio import AsyncLab
from .client import Lab
from .connect import connect
from .discovery import ServerInfo, ServerNotFound, find_server
from .errors import ApiError, LabError, NotALabServer, ProtocolError, ToolError
from .requests import PendingRequest
from .results import ToolResult

__all__ = [
    "ApiError",
    "AsyncLab",
    "Lab",
    "LabError",
    "NotALabServer",
    "PendingRequest",
    "ProtocolError",
    "ServerInfo",
    "ServerNotFound",
    "ToolError",
    "ToolResult",
    "connect",
    "find_server",
]


def __getattr__(name: str) -> Any:
    # Widgets and Panel load only when asked for: a plain `lab.call` needs neither.
    if name in ("widgets",):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(name)
