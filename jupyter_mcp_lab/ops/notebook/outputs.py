"""A cell's outputs as an agent reads them: text inline, everything else by reference.

Stream text, errors and ``text/plain`` results are shown as text (capped); images, HTML,
JSON and every other rich output are MCP resources (a URI, MIME type and size) the agent
fetches when it needs them, so a read never carries base64.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from pydantic import BaseModel, Field

from ...core.errors import DomainError

SCHEME = "notebook-output"
TEMPLATE = SCHEME + ":///{+path}{?cell,output,mime}"
TEXT_LIMIT = 2_000  # characters of one output's text in a read; the rest through its resource
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# MIME types whose nbformat value is base64 text of binary data.
_BINARY = re.compile(r"^(image/(?!svg)|audio/|video/|application/(pdf|octet-stream))")


class OutputResource(BaseModel):
    uri: str
    mimeType: str
    size: int = Field(description="Bytes of the data (decoded size for base64 data).")


class OutputView(BaseModel):
    type: str = Field(description="stream, execute_result, display_data or error.")
    text: str | None = Field(None, description="Its text (stream, error, text/plain), capped.")
    truncated: bool = False
    resources: list[OutputResource] = Field(default_factory=list)


def output_uri(path: str, cell_id: str, index: int, mime: str) -> str:
    return f"{SCHEME}:///{quote(path)}?cell={quote(cell_id, safe='')}&output={index}&mime={quote(mime, safe='')}"


def parse_uri(uri: str) -> tuple[str, str, int, str]:
    """(path, cell id, output index, MIME type) of a notebook-output URI."""
    parts = urlsplit(uri)
    query = parse_qs(parts.query)
    try:
        cell, output, mime = query["cell"][0], int(query["output"][0]), query["mime"][0]
        return unquote(parts.path.lstrip("/")), cell, output, mime
    except (KeyError, IndexError, ValueError):
        raise DomainError("INVALID_ARGUMENT", f"not a notebook output URI: {uri}", argument="uri") from None


def _joined(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def output_text(out: dict[str, Any]) -> str | None:
    kind = out.get("output_type")
    if kind == "stream":
        return _joined(out.get("text", ""))
    if kind == "error":
        trace = "\n".join(_ANSI.sub("", line) for line in out.get("traceback", []))
        return trace or f"{out.get('ename', '')}: {out.get('evalue', '')}"
    data = out.get("data") or {}
    return _joined(data["text/plain"]) if "text/plain" in data else None


def data_size(mime: str, value: Any) -> int:
    text = value if isinstance(value, str) else _joined(value) if isinstance(value, list) else _json(value)
    if _BINARY.match(mime):
        packed = re.sub(r"\s", "", text)
        return len(packed) * 3 // 4 - (len(packed) - len(packed.rstrip("=")))
    return len(text.encode("utf-8"))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def view(path: str, cell_id: str, index: int, out: dict[str, Any], limit: int = TEXT_LIMIT) -> OutputView:
    text = output_text(out)
    truncated = text is not None and len(text) > limit
    resources = [
        OutputResource(uri=output_uri(path, cell_id, index, mime), mimeType=mime, size=data_size(mime, value))
        for mime, value in (out.get("data") or {}).items()
        if mime != "text/plain" or truncated
    ]
    return OutputView(
        type=str(out.get("output_type", "")),
        text=text[:limit] if truncated and text is not None else text,
        truncated=truncated,
        resources=resources,
    )


def summary(outputs: list[dict[str, Any]]) -> str:
    """A short line: "2 outputs: stream, image/png" ("" when there are none)."""
    if not outputs:
        return ""
    kinds: list[str] = []
    for out in outputs:
        data = out.get("data") or {}
        rich = [m for m in data if m != "text/plain"]
        if out.get("output_type") == "error":
            kinds.append(f"error {out.get('ename', '')}".strip())
        elif rich:
            kinds.append(rich[0])
        else:
            kinds.append(str(out.get("output_type") if not data else "text/plain"))
    n = len(outputs)
    return f"{n} output{'s' if n > 1 else ''}: {', '.join(dict.fromkeys(kinds))}"


def output_data(out: dict[str, Any], mime: str) -> tuple[str, bool]:
    """The data of ``out`` as ``mime``: (text, is base64 binary)."""
    data = out.get("data") or {}
    if mime not in data:
        text = output_text(out) if mime == "text/plain" else None
        if text is None:
            raise DomainError("NOT_FOUND", f"this output has no {mime} data", mime=mime)
        return text, False
    value = data[mime]
    if isinstance(value, dict | list) and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return _json(value), False
    text = _joined(value)
    binary = bool(_BINARY.match(mime))
    return (re.sub(r"\s", "", text) if binary else text), binary
