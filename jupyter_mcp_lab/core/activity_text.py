"""What the activity log keeps of a call: its arguments and its answer as bounded text.

The log keeps the last 1000 calls in memory, so each is kept small, yet whole enough that a
filter finds an argument anywhere in it (an ``op: "find_replace"`` deep in an edit list) and
an expanded entry shows what the agent sent:

- arguments: their JSON, whole up to ``ARGUMENTS_LIMIT`` characters (4 KB); past that each
  long string and list is cut (strings to 1024, 256, 64, then 16 characters, marked
  ``…(N chars)``; lists to 100, 20, 5, then 2 items, marked ``…(N items)``) until it fits,
  and what still does not fit is cut at the limit (then it is no longer JSON);
- the result: a success's JSON the same way in ``RESULT_LIMIT`` characters (1 KB; most
  answers fit as they were sent, with no second encoding), an error as ``CODE: message``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

ARGUMENTS_LIMIT = 4096
RESULT_LIMIT = 1024
LATER_LIMIT = 8192  # answers up to this long are summarised when the log entry is first read
# At each try, the longest string and list kept whole, until the JSON fits.
CUTS = ((1024, 100), (256, 20), (64, 5), (16, 2))
CUT = "…"


def _cut(value: Any, longest: int, items: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= longest else f"{value[:longest]}{CUT}({len(value)} chars)"
    if isinstance(value, dict):
        return {str(k): _cut(v, longest, items) for k, v in value.items()}
    if isinstance(value, list | tuple):
        kept = [_cut(v, longest, items) for v in value[:items]]
        return kept if len(value) <= items else [*kept, f"{CUT}({len(value)} items)"]
    return value


# default=str: an argument the log cannot encode (bytes from an adapter) is shown, not lost.
# One encoder for every call: json.dumps with options builds a new one each time, which
# cost more than encoding a small call's arguments.
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), default=str).encode


def _at_least(value: Any, longest: int, items: int, budget: int) -> int:
    """A lower bound of the length of ``_cut(value, longest, items)``'s JSON, counted only
    until it passes ``budget`` (a string is its characters and quotes, anything else at
    least one character; separators are not counted)."""
    if isinstance(value, str):
        return min(len(value), longest) + 2
    if isinstance(value, dict):
        n = 2
        for k, v in value.items():
            n += len(str(k)) + 4 + _at_least(v, longest, items, budget - n)
            if n > budget:
                break
        return n
    if isinstance(value, list | tuple):
        n = 2
        for v in value[:items]:
            n += _at_least(v, longest, items, budget - n)
            if n > budget:
                break
        return n
    return 1


def bounded_json(value: Any, limit: int, text: str | None = None) -> str:
    """``value`` as JSON in at most ``limit`` characters (see the module's rules); ``text``:
    its JSON already encoded, if the caller has it."""
    text = _dumps(value) if text is None else text
    if len(text) <= limit:
        return text
    last = len(CUTS) - 1
    for i, (longest, items) in enumerate(CUTS):
        # A cut that cannot fit is skipped unbuilt: a large answer (a 200-cell listing) is
        # looked at as far as the limit, not copied and encoded at every try.
        if i < last and _at_least(value, longest, items, limit) > limit:
            continue
        text = _dumps(_cut(value, longest, items))
        if len(text) <= limit:
            return text
    return text[: limit - 1] + CUT


def full_arguments(arguments: dict[str, Any]) -> str:
    """The call's arguments for the log: JSON, whole up to 4 KB."""
    return bounded_json(arguments, ARGUMENTS_LIMIT)


def result_summary(answer: Any, text: str) -> str:
    """A success's answer for the log, up to 1 KB: its JSON ``text`` as sent when that is
    short (most are), else the answer with long strings and lists cut, so its keys show."""
    return bounded_json(answer, RESULT_LIMIT, text)


def later_summary(answer: Any, text: str) -> str | Callable[[], str]:
    """``result_summary`` now when it is the text itself or the answer is large (then its cost
    is small beside the call's), else the function that makes it from ``text`` when the entry
    is first read: a few-KB answer's cuts cost a trivial call a few percent of its CPU, and
    most entries are never read. ``text`` alone is kept (at most ``LATER_LIMIT`` characters
    for each of the log's 1000 entries), not the answer's objects."""
    if len(text) <= RESULT_LIMIT or len(text) > LATER_LIMIT:
        return result_summary(answer, text)
    return lambda: result_summary(json.loads(text), text)


def error_summary(envelope: dict[str, Any]) -> str:
    """An error's answer for the log: ``CODE: message``, cut to 1 KB."""
    code, message = envelope.get("error", "ERROR"), envelope.get("message", "")
    text = f"{code}: {message}" if message else str(code)
    return text if len(text) <= RESULT_LIMIT else text[: RESULT_LIMIT - 1] + CUT
