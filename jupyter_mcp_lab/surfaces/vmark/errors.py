"""VMark's error shape, shared by the v1 and v2 profiles."""

from __future__ import annotations

import json
from typing import Any

from ...core.errors import DomainError, ErrorCode

# The envelope detail that marks an error VMark answers with its own plain message.
_PLAIN = "vmark_plain"


def plain_error(code: ErrorCode, message: str, **details: Any) -> DomainError:
    """An error VMark's tool answers with a plain message (its handler's ``errorResult``
    text), not a JSON envelope: ``message`` is VMark's wording."""
    return DomainError(code, message, **details, **{_PLAIN: True})


def render_error(envelope: dict[str, Any]) -> dict[str, Any]:
    """VMark's error shape (sent as the structured content and as JSON text, marked isError):
    argument errors and VMark's own refusals as a plain string, the rest as a JSON envelope."""
    if envelope.get("error") == "INVALID_ARGUMENT" or envelope.get(_PLAIN):
        error: str = envelope.get("message", "invalid arguments")
    else:
        error = json.dumps(envelope, ensure_ascii=False)
    return {"success": False, "error": error}
