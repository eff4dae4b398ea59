"""Exceptions a notebook user catches: a tool's domain error keeps its envelope."""

from __future__ import annotations

from typing import Any


class LabError(Exception):
    """Base of the kernel helpers' errors."""


class ToolError(LabError):
    """A tool answered with an error (``isError``).

    ``code`` is the envelope's ``error`` (``STALE``, ``NOT_FOUND``, …; ``TOOL_ERROR`` when the
    server sent only text), ``details`` the envelope's other fields (``current_revision``, …),
    ``envelope`` the whole structured answer.
    """

    def __init__(self, tool: str, code: str, message: str, envelope: dict[str, Any] | None = None) -> None:
        self.tool = tool
        self.code = code
        self.message = message
        self.envelope = envelope or {}
        self.details = {k: v for k, v in self.envelope.items() if k not in ("error", "message")}
        super().__init__(f"{tool}: {code}: {message}")

    def __getattr__(self, name: str) -> Any:
        # e.g. err.current_revision for a STALE answer
        details = self.__dict__.get("details") or {}
        if name in details:
            return details[name]
        raise AttributeError(name)


class ProtocolError(LabError):
    """The server answered a request with a JSON-RPC error (an unknown resource, a prompt's
    missing argument, …): ``code`` is the JSON-RPC code, ``data`` what the server added."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        self.code, self.message, self.data = code, message, data
        super().__init__(f"{message} (JSON-RPC error {code})")


class ApiError(LabError):
    """The REST API answered an error status; ``status`` and the JSON ``body``."""

    def __init__(self, status: int, body: Any, route: str) -> None:
        self.status, self.body, self.route = status, body, route
        message = body.get("message") if isinstance(body, dict) else str(body)
        code = body.get("error") if isinstance(body, dict) else None
        self.code = code or f"HTTP_{status}"
        super().__init__(f"{route}: {status} {self.code}: {message}")


class NotALabServer(LabError):
    """The review API is asked of a server that is not a jupyter-mcp-lab server."""
