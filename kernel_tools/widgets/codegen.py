"""A call as the Python a person can paste into a cell: ``lab.call("document", action="read", path="notes.md")``.

Values are written as Python literals (``True``, ``None``, double-quoted strings), so the code
runs as is. Arguments that are not Python identifiers (``from``, ``my-arg``) or that clash
with ``Lab.call``'s own keywords go in a dict instead of keyword arguments.
"""

from __future__ import annotations

import json
import keyword
import math
from typing import Any

# Lab.call's own keyword parameters: an argument of the same name must go in the dict.
_CALL_KEYWORDS = {"progress", "raise_on_error", "arguments", "tool"}
WIDTH = 100  # longer calls put one argument per line


def literal(value: Any) -> str:
    """``value`` (JSON data) as a Python literal."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f'float("{value}")'
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: escaped instead
            text = json.dumps(value)
        return text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(str(k))}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    raise TypeError(f"not JSON data: {type(value).__name__}")


def call_code(tool: str, arguments: dict[str, Any], var: str = "lab") -> str:
    """The ``var.call(...)`` that makes this call."""
    names_ok = all(k.isidentifier() and not keyword.iskeyword(k) and k not in _CALL_KEYWORDS for k in arguments)
    if names_ok:
        parts = [literal(tool), *(f"{k}={literal(v)}" for k, v in arguments.items())]
    else:
        parts = [literal(tool), literal(arguments)] if arguments else [literal(tool)]
    one_line = f"{var}.call({', '.join(parts)})"
    if len(one_line) <= WIDTH or len(parts) < 3:
        return one_line
    body = "".join(f"    {p},\n" for p in parts)
    return f"{var}.call(\n{body})"
