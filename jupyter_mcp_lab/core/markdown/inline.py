"""The inline scanner: marked runs and uncuttable spans of a block's text, and the inline region of a range.

``scan_inline`` pairs emphasis delimiters the way CommonMark does (flanking rules, ``***``
split into strong + em), and finds code spans, links, ``<u>`` tags, ``~~`` and ``==``, plus
spans that must never be cut: escapes, autolinks, raw HTML, images, inline math, wiki links.
``segment`` confines a range to the inline region of one block (a paragraph, or one line or
table cell without its markers), and ``nested_code_lines`` finds the code nested in a list,
quote or footnote, which holds no inline text. The mark and link edits (``marks``), inserts
and CJK formatting are built on these.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..errors import ArgumentError
from .headings import ATX_OPEN
from .structure import Block, structure_of

_INLINE_BLOCKS = ("paragraph", "heading", "list", "blockquote", "table", "footnote")
_PREFIX = {
    "heading": ATX_OPEN,
    "list": re.compile(
        r"(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*(?:\[[ xX]\](?=[ \t]|$)[ \t]*)?"
    ),
}
_PREFIX["blockquote"] = _PREFIX["list"]
_PREFIX["footnote"] = re.compile(r"(?: {0,3}\[\^[^\]\s]+\]:)?" + _PREFIX["list"].pattern)
_CONTAINER = re.compile(r"^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--.*?-->", re.S)
_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


@dataclass(frozen=True)
class Span:
    """A marked run: opening marker [o0, o1), content [o1, c0), closing marker [c0, c1)."""

    kind: str  # bold italic strike highlight underline code link
    o0: int
    o1: int
    c0: int
    c1: int


@dataclass(frozen=True)
class Inline:
    spans: list[Span]
    opaque: list[tuple[int, int, str]]  # escape autolink html image math wiki


def _punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PS"


def _link_end(text: str, i: int, g1: int) -> tuple[int, int] | None:
    """For ``[`` at ``i``: (index of its ``]``, end of ``(dest)`` / ``[ref]``), or None."""
    depth, k = 0, i
    while k < g1:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        depth += (ch == "[") - (ch == "]")
        if depth == 0:
            break
        k += 1
    else:
        return None
    rb, k = k, k + 1
    if k >= g1 or text[k] not in "([":
        return None
    close, depth = ")" if text[k] == "(" else "]", 0
    while k < g1:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "\n" and close == ")" and text[k + 1 : k + 2] == "\n":
            return None
        depth += ch == text[rb + 1] and close == ")"
        if ch == close:
            depth -= 1
            if depth <= 0:
                return rb, k + 1
        k += 1
    return None


def _run(text: str, i: int, g1: int) -> int:
    k = i
    while k < g1 and text[k] == text[i]:
        k += 1
    return k - i


@dataclass
class _Delim:
    char: str
    pos: int  # start of the characters not yet used
    count: int
    closes: bool  # can also close (for the rule of three)
    length: int  # the run's original length


def _matches(opener: _Delim, closer: _Delim, closer_opens: bool) -> bool:
    """CommonMark's pairing test, with its rule of three."""
    if opener.char != closer.char:
        return False
    if closer.char in "~=" or not (opener.closes or closer_opens):
        return True
    return (opener.length + closer.length) % 3 != 0 or (opener.length % 3 == 0 and closer.length % 3 == 0)


def scan_inline(text: str, g0: int, g1: int) -> Inline:
    """Marked runs and uncuttable spans of ``text[g0:g1]`` (absolute offsets)."""
    spans: list[Span] = []
    opaque: list[tuple[int, int, str]] = []
    stack: list[_Delim] = []
    floors: list[tuple[int, int]] = []  # (link close position, stack floor) of open links
    tags: list[tuple[int, int]] = []
    skip: dict[int, int] = {}
    i = g0
    while i < g1:
        if i in skip:
            while floors and floors[-1][0] == i:
                del stack[floors.pop()[1] :]
            i = skip[i]
            continue
        ch = text[i]
        if ch == "\\" and i + 1 < g1 and text[i + 1] in _PUNCT:
            opaque.append((i, i + 2, "escape"))
            i += 2
            continue
        if ch == "`" or ch == "$":
            n = _run(text, i, g1)
            j = i + n
            while (j := text.find(ch * n, j, g1)) >= 0 and (text[j + n : j + n + 1] == ch or text[j - 1] == ch):
                j += _run(text, j, g1)
            if j < 0 or (ch == "$" and (n > 2 or text[i + n].isspace() or text[j - 1].isspace())):
                i += n
                continue
            if ch == "$":
                opaque.append((i, j + n, "math"))
            else:
                body = text[i + n : j]
                pad = int(len(body) > 1 and body[0] == body[-1] == " " and bool(body.strip()))
                spans.append(Span("code", i, i + n + pad, j - pad, j + n))
            i = j + n
            continue
        if ch == "<":
            m = _AUTOLINK.match(text, i, g1) or _TAG.match(text, i, g1)
            if m is None:
                i += 1
                continue
            tag = m.group(0).lower()
            if tag == "<u>":
                tags.append((i, m.end()))
            elif tag == "</u>" and tags:
                a, b = tags.pop()
                spans.append(Span("underline", a, b, i, m.end()))
            else:
                opaque.append((i, m.end(), "autolink" if m.re is _AUTOLINK else "html"))
            i = m.end()
            continue
        if ch == "[" and text.startswith("[[", i) and (j := text.find("]]", i + 2, g1)) > 0:
            opaque.append((i, j + 2, "wiki"))
            i = j + 2
            continue
        if (ch == "[" or text[i : i + 2] == "![") and (found := _link_end(text, i + (ch == "!"), g1)):
            rb, end = found
            if ch == "!":
                opaque.append((i, end, "image"))
                i = end
                continue
            spans.append(Span("link", i, i + 1, rb, end))
            skip[rb] = end
            floors.append((rb, len(stack)))
            i += 1
            continue
        if ch not in "*_~=":
            i += 1
            continue
        n = _run(text, i, g1)
        before = text[i - 1] if i > g0 else " "
        after = text[i + n] if i + n < g1 else " "
        left = not after.isspace() and (not _punct(after) or before.isspace() or _punct(before))
        right = not before.isspace() and (not _punct(before) or after.isspace() or _punct(after))
        if ch == "_":
            left, right = left and (not right or _punct(before)), right and (not left or _punct(after))
        if ch in "~=" and n != 2:
            i += n
            continue
        entry = _Delim(ch, i, n, right, n)
        floor = floors[-1][1] if floors else 0
        while right and entry.count > 0:
            k = len(stack) - 1
            while k >= floor and not _matches(stack[k], entry, left):
                k -= 1
            if k < floor:
                break
            o = stack[k]
            use = 2 if ch in "~=" or (o.count >= 2 and entry.count >= 2) else 1
            kind = {"~": "strike", "=": "highlight"}.get(ch, "bold" if use == 2 else "italic")
            start = o.pos + o.count - use
            spans.append(Span(kind, start, start + use, entry.pos, entry.pos + use))
            o.count -= use
            entry.pos += use
            entry.count -= use
            del stack[k + (o.count > 0) :]
        if entry.count > 0 and left:
            stack.append(entry)
        i += n
    return Inline(spans, opaque)


def nested_code_lines(text: str, block: Block) -> set[int]:
    """Lines (1-based) of a list / quote / footnote block that are fenced code or ``$$`` math nested in it."""
    idx, out, fence = structure_of(text).lines, set(), ""
    for line in range(block.line_start, block.line_end + 1):
        body = _CONTAINER.sub("", text[idx.start_of(line) : idx.end_of(line)], count=1)
        m = _FENCE.match(body)
        if fence:
            out.add(line)
            closes = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip()
            fence = "" if closes or (fence == "$$" and body.strip() == "$$") else fence
        elif m or body.strip().startswith("$$"):
            out.add(line)
            fence = m.group(1) if m else "" if len(body.strip()) > 2 and body.strip().endswith("$$") else "$$"
    return out


def segment(text: str, start: int, end: int, argument: str = "range") -> tuple[int, int]:
    """The inline region (paragraph, or one line / table cell without its markers) holding the range."""
    for name, v in (("start", start), ("end", end)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= len(text):
            raise ArgumentError(f"{name} must be an offset in the document (0..{len(text)})", name)
    if start > end:
        raise ArgumentError("start must not be after end", "start")
    st = structure_of(text)
    block = st.block_at(start)
    if block is None or st.block_at(end) is not block:
        raise ArgumentError(f"the range {start}..{end} is not inside one block", argument)
    if block.type not in _INLINE_BLOCKS:
        raise ArgumentError(f"{block.id} is a {block.type} block: marks apply to text", argument)
    if block.type == "paragraph":
        return block.start, block.end
    line = st.lines.line_of(start)
    if st.lines.line_of(end) != line:
        raise ArgumentError(f"in a {block.type} the range must stay on one line", argument)
    a, z = st.lines.start_of(line), st.lines.end_of(line)
    if block.type in ("list", "blockquote", "footnote") and line in nested_code_lines(text, block):
        raise ArgumentError(f"the range is in code nested in {block.id}: marks apply to text", argument)
    if block.type == "table":
        if line == block.line_start + 1:
            raise ArgumentError("the range is in the table's delimiter row", argument)
        from .table_model import split_row

        for c0, c1 in split_row(text[a:z])[0]:
            if a + c0 <= start and end <= a + c1:
                return a + c0, a + c1
        raise ArgumentError("in a table the range must stay inside one cell", argument)
    m = _PREFIX[block.type].match(text, a, z)
    if block.type == "heading" and (m is None or (block.line_end > block.line_start and line == block.line_end)):
        return z, z  # a setext underline has no text
    if block.type == "heading" and (closing := re.search(r"[ \t]+#+[ \t]*$", text[a:z])):
        z = a + closing.start()
    return (m.end() if m else a), z
