"""The outliner profile's errors: the envelope with the reference's snake-case codes
(``no_document``, ``row_not_found``; the others are the lab codes in lower case)."""

from __future__ import annotations

from typing import Any

from ...core.errors import DomainError

NO_DOCUMENT = "no_document"
_REASON = "outliner_code"  # the envelope detail that carries a code of this profile


def no_document(
    message: str = "no outline is open: open an .opml or markdown file in JupyterLab and focus its tab",
) -> DomainError:
    return DomainError("NOT_FOUND", message, **{_REASON: NO_DOCUMENT})


def render_error(envelope: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in envelope.items() if k not in ("error", _REASON)}
    code = envelope.get(_REASON)
    if code is None:
        code = "row_not_found" if envelope.get("error") == "NOT_FOUND" and "row" in envelope else None
    if code is None:
        code = str(envelope.get("error", "internal")).lower()
    return {"error": code, **rest}
