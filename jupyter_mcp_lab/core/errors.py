"""Domain errors: the structured envelopes every surface returns.

An envelope is ``{"error": CODE, "message": ..., **details}``. Profiles translate it into
the reference system's shape; the lab profile returns it as is, marked ``isError``.
"""

from __future__ import annotations

from typing import Any, Literal

ErrorCode = Literal[
    "STALE",
    "INVALID_TAB",
    "INVALID_PATH",
    "INVALID_ARGUMENT",
    "NOT_FOUND",
    "CONFLICT",
    "READ_ONLY",
    "NOT_WORKFLOW",
    "INVALID_PATCH",
    "NO_LAB_CLIENT",
    "APPROVAL_REQUIRED",
    "INDEX_UNAVAILABLE",
    "NOT_IMPLEMENTED",
    "RESPONSE_TOO_LARGE",
    "INTERNAL",
]


class DomainError(Exception):
    """An error an agent must see and can act on."""

    def __init__(self, code: ErrorCode, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.details = details

    def envelope(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r})"


class ArgumentError(DomainError):
    """A missing or ill-typed argument; the message names the argument."""

    def __init__(self, message: str, argument: str | None = None) -> None:
        details = {"argument": argument} if argument else {}
        super().__init__("INVALID_ARGUMENT", message, **details)
        self.argument = argument
