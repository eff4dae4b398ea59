"""VMark's error shape, shared by the v1 and v2 profiles."""

from __future__ import annotations

import json
from typing import Any


def render_error(envelope: dict[str, Any]) -> dict[str, Any]:
    """VMark's error shape (sent as the structured content and as JSON text, marked isError)."""
    if envelope.get("error") == "INVALID_ARGUMENT":
        error: str = envelope.get("message", "invalid arguments")
    else:
        error = json.dumps(envelope, ensure_ascii=False)
    return {"success": False, "error": error}
