"""The numbers a tool argument may carry, wherever it sits in the arguments.

Every integer is within ±(2**53 - 1): JSON numbers beyond it are not exact in JavaScript or
any client that parses numbers as doubles, and no position, line, count or size here comes
near it (a 2**70 offset is a mistake, not a document). Every float is finite (Python's JSON
parser takes ``NaN`` and ``Infinity``). This holds for values inside free-form arguments
too (table operations, patches, command arguments), which no params model types.
"""

from __future__ import annotations

import math
from typing import Any

from ...core.errors import ArgumentError

MAX_INTEGER = 2**53 - 1


def check_numbers(arguments: dict[str, Any]) -> None:
    """Raise the ``ArgumentError`` naming the first number out of range in ``arguments``
    (as the dispatcher names a model's errors: ``edits.0.at``)."""
    # Iterative: the arguments may nest as deep as the transport's JSON parser allows.
    stack: list[tuple[str, Any]] = [(name, value) for name, value in reversed(arguments.items())]
    while stack:
        where, value = stack.pop()
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            if not -MAX_INTEGER <= value <= MAX_INTEGER:
                raise ArgumentError(
                    f"{where}: {_short(value)} is out of range; integers are limited to ±{MAX_INTEGER} (2^53-1)",
                    argument=where,
                )
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ArgumentError(f"{where}: {value} is not a finite number", argument=where)
        elif isinstance(value, dict):
            stack.extend((f"{where}.{k}", v) for k, v in reversed(value.items()))
        elif isinstance(value, list | tuple):
            stack.extend((f"{where}.{i}", v) for i, v in reversed(list(enumerate(value))))


def _short(value: int) -> str:
    # str() of a huge int is slow and unreadable (Python refuses beyond 4300 digits).
    return str(value) if value.bit_length() <= 128 else f"an integer of {value.bit_length()} bits"
