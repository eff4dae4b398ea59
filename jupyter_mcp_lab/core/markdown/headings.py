"""The ATX heading syntax (``# Title``, ``## Title ##``), defined once for every module.

``ATX_OPEN`` matches the opening sequence (up to three spaces of indentation, one to six
``#``, then blanks or the end of the line); ``ATX_OPEN_COLUMN0`` the same with its ``#`` in
the first column (what still starts a heading after any container, such as a list item);
``ATX_HEADING`` a whole heading line, with the title (closing ``#``s and trailing blanks
left out) as group 1. Use them with ``match``.
"""

from __future__ import annotations

import re

_MARKS = r"#{1,6}(?:[ \t]+|$)"
ATX_OPEN = re.compile(r" {0,3}" + _MARKS)
ATX_OPEN_COLUMN0 = re.compile(_MARKS)
ATX_HEADING = re.compile(ATX_OPEN.pattern + r"(.*?)(?:[ \t]+#+)?[ \t]*$")


def is_heading_line(line: str, *, column0: bool = False) -> bool:
    """Whether ``line`` opens an ATX heading (with ``column0``: at its first character)."""
    return (ATX_OPEN_COLUMN0 if column0 else ATX_OPEN).match(line) is not None
