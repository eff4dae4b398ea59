"""Inline marks: a small inline scanner, and toggle / link / clear edits (vmark format_* tools).

``scan_inline`` pairs emphasis delimiters the way CommonMark does (flanking rules, ``***``
split into strong + em), and finds code spans, links, ``<u>`` tags, ``~~`` and ``==``, plus
spans that must never be cut: escapes, autolinks, raw HTML, images, inline math, wiki links.

A range is first confined to one block (refused if it crosses a block boundary or lies in
code, math, HTML or front matter); in a list, quote, heading or table it must stay on one
line (one cell for a table), and the line's markers are excluded. Leading and trailing
whitespace is trimmed, and a range that cuts another span (a link, a code span, a differently
marked run) is widened to include all of it, so the markdown stays well-formed. Toggling
removes the mark when every character of the range already has it (markers just outside or
just inside the range), splitting a longer run when the range covers only part of it;
otherwise the range is wrapped and runs of the same mark inside it are merged.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..errors import ArgumentError, DomainError
from ..text import TextEdit
from .structure import Block, structure_of

MARKERS = {
    "bold": ("**", "**"),
    "italic": ("*", "*"),
    "strike": ("~~", "~~"),
    "underline": ("<u>", "</u>"),
    "highlight": ("==", "=="),
    "code": ("`", "`"),
}
_INLINE_BLOCKS = ("paragraph", "heading", "list", "blockquote", "table", "footnote")
_PREFIX = {
    "heading": re.compile(r" {0,3}#{1,6}(?:[ \t]+|$)"),
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
        from .tables import split_row

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


def _prepare(text: str, start: int, end: int, keep: set[str]) -> tuple[int, int, Inline]:
    """Confine, trim and widen a range (see the module doc)."""
    g0, g1 = segment(text, start, end)
    s, e = min(max(start, g0), g1), max(min(end, g1), g0)
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    inline = scan_inline(text, g0, g1)
    changed = s < e
    while changed:
        changed = False
        for a, b, _ in inline.opaque:
            if a < s < b or a < e < b:
                s, e, changed = min(s, a), max(e, b), True
        for sp in inline.spans:
            cuts = sp.o0 < s < sp.c1 or sp.o0 < e < sp.c1
            inside = sp.o1 <= s and e <= sp.c0 and sp.kind != "code"
            if cuts and not inside and (sp.kind not in keep or sp.o0 < s < sp.o1 or sp.c0 < e < sp.c1):
                s, e, changed = min(s, sp.o0), max(e, sp.c1), True
    return s, e, inline


def _unmark(text: str, s: int, e: int, spans: list[Span], every: list[Span]) -> list[TextEdit]:
    """Remove the spans' marks from [s, e), splitting runs that extend beyond it (``every``: all spans)."""
    markers = {p for sp in every for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1)) for p in range(a, b)}

    def visible(a: int, b: int) -> bool:
        return any(not text[p].isspace() and p not in markers for p in range(a, b))

    closes: list[TextEdit] = []
    opens: list[TextEdit] = []
    for sp in spans:
        if s == e:
            if sp.o1 <= s <= sp.c0:
                closes += [TextEdit(sp.o0, sp.o1, ""), TextEdit(sp.c0, sp.c1, "")]
            continue
        if not ((sp.o1 < e and sp.c0 > s) or (s <= sp.o0 and sp.c1 <= e)):
            continue
        if sp.o0 < s and visible(sp.o1, s):
            at = s
            while text[at - 1].isspace():
                at -= 1
            closes.append(TextEdit(at, at, text[sp.c0 : sp.c1]))
        else:
            closes.append(TextEdit(sp.o0, sp.o1, ""))
        if sp.c1 > e and visible(e, sp.c0):
            at = e
            while text[at].isspace():
                at += 1
            opens.insert(0, TextEdit(at, at, text[sp.o0 : sp.o1]))
        else:
            closes.append(TextEdit(sp.c0, sp.c1, ""))
    return closes + opens


def _covered(text: str, s: int, e: int, spans: list[Span]) -> bool:
    if not spans:
        return False
    if s == e:
        return any(sp.o1 <= s <= sp.c0 for sp in spans)
    return all(text[p].isspace() or any(sp.o0 <= p < sp.c1 for sp in spans) for p in range(s, e))


def toggle_mark(text: str, start: int, end: int, mark: str) -> list[TextEdit]:
    """Toggle bold / italic / code / strike / underline / highlight on a range (see the module doc)."""
    if mark not in MARKERS:
        raise ArgumentError(f"mark must be one of {', '.join(MARKERS)} (got {mark!r})", "mark")
    s, e, inline = _prepare(text, start, end, {mark})
    same = [sp for sp in inline.spans if sp.kind == mark]
    if _covered(text, s, e, same):
        return _unmark(text, s, e, same, inline.spans)
    if s == e:
        raise ArgumentError("the range holds no text to mark", "range")
    for sp in same:
        if sp.o0 < e and sp.c1 > s:
            s, e = min(s, sp.o0), max(e, sp.c1)
    edits = [
        TextEdit(a, b, "") for sp in same if s <= sp.o0 and sp.c1 <= e for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1))
    ]
    opener, closer = MARKERS[mark]
    if mark == "code":
        body = text[s:e]
        opener = closer = "`" * (max((len(r) for r in re.findall(r"`+", body)), default=0) + 1)
        if body.startswith("`") or body.endswith("`"):
            opener, closer = opener + " ", " " + closer
    return [TextEdit(s, s, opener), *edits, TextEdit(e, e, closer)]


def _destination(url: str, title: str | None) -> str:
    if not isinstance(url, str) or not url.strip() or re.search(r"[\r\n]", url):
        raise ArgumentError("url must be a non-empty single-line string", "url")
    url = url.strip()
    if re.search(r"[\s<>]", url) or url.count("(") != url.count(")"):
        if re.search(r"[<>]", url):
            raise ArgumentError("url must not contain spaces together with < or >", "url")
        url = f"<{url}>"
    if title is None:
        return f"]({url})"
    if not isinstance(title, str) or re.search(r"[\r\n]", title):
        raise ArgumentError("title must be a single-line string", "title")
    escaped = title.replace("\\", "\\\\").replace('"', '\\"')
    return f']({url} "{escaped}")'


def set_link(text: str, start: int, end: int, url: str, title: str | None = None) -> list[TextEdit]:
    """Make the range a link; a range that is (the text of) a link gets the new destination."""
    close = _destination(url, title)
    s, e, inline = _prepare(text, start, end, {"link"})
    links = [sp for sp in inline.spans if sp.kind == "link"]
    for sp in links:
        if (sp.o1, sp.c0) == (s, e) or (sp.o0, sp.c1) == (s, e) or (s == e and sp.o0 <= s <= sp.c1):
            return [TextEdit(sp.c0, sp.c1, close)]
    if s == e:
        raise ArgumentError("the range holds no text to link", "range")
    for sp in links:
        if sp.o0 < e and sp.c1 > s:
            s, e = min(s, sp.o0), max(e, sp.c1)
    inner = [
        TextEdit(a, b, "") for sp in links if s <= sp.o0 and sp.c1 <= e for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1))
    ]
    return [TextEdit(s, s, "["), *inner, TextEdit(e, e, close)]


def remove_link(text: str, offset_or_range: int | tuple[int, int] | list[int]) -> list[TextEdit]:
    """Unwrap the links (and autolinks) at an offset or overlapping a range, keeping their text."""
    if isinstance(offset_or_range, int) and not isinstance(offset_or_range, bool):
        start = end = offset_or_range
    elif isinstance(offset_or_range, (tuple, list)) and len(offset_or_range) == 2:
        start, end = offset_or_range
    else:
        raise ArgumentError("offset_or_range must be an offset or a [start, end] pair", "offset_or_range")
    g0, g1 = segment(text, start, end)
    inline = scan_inline(text, g0, g1)
    edits = [
        TextEdit(p, p + 1, "")
        for a, b, k in inline.opaque
        if k == "autolink" and a <= end and b >= start
        for p in (a, b - 1)
    ]
    links = [sp for sp in inline.spans if sp.kind == "link" and sp.o0 <= end and sp.c1 >= start]
    if start == end:
        edits += [TextEdit(a, b, "") for sp in links for a, b in ((sp.o0, sp.o1), (sp.c0, sp.c1))]
    else:
        edits += _unmark(text, max(start, g0), min(end, g1), links, inline.spans)
    if not edits:
        raise DomainError(
            "NOT_FOUND", f"no link at {start}" + (f"..{end}" if end != start else ""), argument="offset_or_range"
        )
    return edits


def clear_marks(text: str, start: int, end: int) -> list[TextEdit]:
    """Remove every mark and link from the range (splitting runs that extend beyond it); keep the text."""
    s, e, inline = _prepare(text, start, end, set(MARKERS) - {"code"} | {"link"})
    if s == e:
        return []
    return _unmark(text, s, e, inline.spans, inline.spans)
