"""Split a markdown source into chunks that parse independently.

A top-level ATX heading at column 0 starts a new block whatever came before, unless the
line sits inside something that swallows it: a fenced code block, a ``$$`` math block,
an HTML block, or front matter. Splitting there lets a document be parsed chunk by chunk,
so an edit re-parses one section instead of the whole file. When unsure, do not split:
a missed split costs time, a wrong one would cost correctness.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from .headings import ATX_OPEN_COLUMN0

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_HTML_END = [
    (
        re.compile(r"^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)", re.I),
        re.compile(r"</(?:script|pre|style|textarea)>", re.I),
    ),
    (re.compile(r"^ {0,3}<!--"), re.compile(r"-->")),
    (re.compile(r"^ {0,3}<\?"), re.compile(r"\?>")),
    (re.compile(r"^ {0,3}<![A-Za-z]"), re.compile(r">")),
    (re.compile(r"^ {0,3}<!\[CDATA\["), re.compile(r"\]\]>")),
]
_MAY_START = frozenset("#`~$<")  # a line that starts anything tracked here starts with one of these
_HTML_START = re.compile(r"^ {0,3}</?[A-Za-z]")
# A line that may start something tracked here (its first non-space character is one of _MAY_START).
# (A break first: a literal lets the regex engine skip ahead; "^" with re.M would test every position.)
_MAY_START_LINE = re.compile(r"\n *[#`~$<]")


def chunk_starts(lines: list[str], text: str | None = None, starts: list[int] | None = None) -> list[int]:
    """Indexes (0-based) of the lines where a new chunk may start; always begins with 0.

    ``lines`` are the text's lines without their breaks. Given the text and its line starts
    as well, prose is skipped with one regex search instead of a test per line (only for
    ``\n`` breaks, the only ones a multiline ``^`` knows).
    """
    jump = text is not None and starts is not None and "\r" not in text
    points = [0]
    fence: tuple[str, int] | None = None  # (char, length)
    math = False
    html_end: re.Pattern[str] | None = None
    html_until_blank = False
    i = 0
    n = len(lines)
    opener = re.match(r"-{3,}", lines[0]) if n else None
    if opener:  # front matter, as mdit-py-plugins reads it: runs to a line of as many dashes, or ...
        closer = re.compile(rf"(?:\.\.\.| {{0,3}}-{{{len(opener.group(0))},}})[ \t]*")
        for j in range(1, n):
            if closer.fullmatch(lines[j]):
                i = j + 1
                break
        else:
            return points
    while i < n:
        if jump and i and fence is None and not math and html_end is None and not html_until_blank:
            found = _MAY_START_LINE.search(text, starts[i] - 1)  # type: ignore[arg-type,index]
            if found is None:
                break
            i = bisect_right(starts, found.start() + 1) - 1  # type: ignore[arg-type]
        line = lines[i]
        if fence is not None:
            stripped = line.strip()
            char, length = fence
            if (
                stripped
                and set(stripped) == {char}
                and len(stripped) >= length
                and len(line) - len(line.lstrip(" ")) <= 3
            ):
                fence = None
        elif math:
            if line.rstrip().endswith("$$"):
                math = False
        elif html_end is not None:
            if html_end.search(line):
                html_end = None
        elif html_until_blank:
            if not line.strip():
                html_until_blank = False
        elif line[:1] not in _MAY_START and line.lstrip(" ")[:1] not in _MAY_START:
            pass  # most lines: prose that cannot open a heading, fence, math or HTML block
        else:
            if ATX_OPEN_COLUMN0.match(line) and i > 0:
                points.append(i)
            elif m := _FENCE_OPEN.match(line):
                marker, info = m.group(1), m.group(2)
                if not (marker[0] == "`" and "`" in info):
                    fence = (marker[0], len(marker))
            elif line.lstrip(" ").startswith("$$") and len(line) - len(line.lstrip(" ")) <= 3:
                body = line.strip()[2:]
                math = not body.rstrip().endswith("$$")
            else:
                for start, end in _HTML_END:
                    if start.match(line):
                        if not end.search(line, pos=line.find("<") + 2):
                            html_end = end
                        break
                else:
                    if _HTML_START.match(line):
                        html_until_blank = True
        i += 1
    return points
