"""JSON a client sends (REST bodies, lab-bridge messages), parsed with a nesting limit.

Python's parser recurses once per level of nesting: a few thousand brackets raise
RecursionError inside it (a 500 with a traceback, or a closed websocket), and whatever
walks the parsed value recurses again. Nothing a client sends here nests deeper than a
handful of levels, so a body nested deeper than ``MAX_DEPTH`` is refused before parsing.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 64

# A JSON string (escapes included): brackets inside one do not nest anything.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SLICE = 1 << 16


class JSONInputError(ValueError):
    """The input is not JSON, or nests too deeply; the message says which, for the client."""


def loads(raw: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(raw)``, refusing input nested deeper than ``max_depth`` levels."""
    try:
        text = raw.decode(json.detect_encoding(raw), "surrogatepass") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise JSONInputError(f"not JSON: {exc}") from None
    if too_deep(text, max_depth):
        raise JSONInputError(f"nested deeper than {max_depth} levels (arrays and objects in one another)")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise JSONInputError(f"not JSON: {exc}") from None


def too_deep(text: str, limit: int) -> bool:
    """Whether the arrays and objects of ``text`` nest deeper than ``limit`` (strings skipped)."""
    if text.count("[") + text.count("{") <= limit:
        return False  # the common case: too few brackets to nest that deep
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = 0
    # In slices, so 4 MB of "[" stops after the first slice instead of counting them all.
    for start in range(0, len(brackets), _SLICE):
        steps = list(accumulate(map(_STEP.__getitem__, brackets[start : start + _SLICE]), initial=depth))
        if max(steps) > limit:
            return True
        depth = steps[-1]
    return False
