"""CJK typography (vmark cjk_spacing_fix, cjk_punctuation_convert, document.transform cjk-*).

Only prose is touched: paragraphs, headings, and the lines of lists, quotes, tables and
footnotes (fenced code and ``$$`` math nested in them skipped); code blocks, math, HTML
and front matter never. Inside prose, a small inline scanner (``inline.scan_inline``) keeps
code spans, inline math, URLs, link destinations, autolinks, HTML tags, entities and escapes
unchanged. Emphasis and link markers are transparent: ``中文**bold**`` gets its space
before the ``**``, ``**粗体**English`` after it.

- spacing ``add``: one space between a CJK character (ideographs, kana, hangul) and an
  adjacent ASCII / Latin letter or digit, both ways; ``remove`` deletes such spaces.
- punctuation ``to_fullwidth``: ``, . : ; ! ?`` right after a CJK character become
  ``，。：；！？`` (spaces after them go, unless the line ends); ``(...)`` whose content starts or
  ends with CJK becomes ``（...）``. Ellipses ``...`` and ``.`` before a letter or digit stay.
  ``to_halfwidth``: ``，。：；！？（）`` become ASCII, with a space after ``, . : ; ! ?`` before a letter or ``(``.
- ``cjk_format``: to_fullwidth, then add spacing, collapsing repeated spaces between CJK and Latin.
"""

# ruff: noqa: RUF001, RUF002  (full-width punctuation is the subject here)
from __future__ import annotations

import re
from collections.abc import Iterator

from ..errors import ArgumentError
from ..text import TextEdit
from .inline import nested_code_lines, scan_inline
from .structure import structure_of

_CJK = re.compile(
    "[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]"
)
_FULL = dict(zip(",.:;!?()", "，。：；！？（）", strict=True))
_HALF = {v: k for k, v in _FULL.items()}
_URL = re.compile(r"(?:https?|ftp)://[!-;=?-~]+|www\.[!-;=?-~]+|[\w.+-]+@[\w-]+\.[\w.-]+|&(?:#\d+|#x[0-9a-fA-F]+|\w+);")
TEXT, OPEN, CLOSE, KEEP = 0, 1, 2, 3  # character classes


def is_cjk(ch: str) -> bool:
    return bool(ch) and _CJK.match(ch) is not None


def is_latin(ch: str) -> bool:
    return bool(ch) and ((ch.isascii() and ch.isalnum()) or ("\u00c0" <= ch <= "\u024f" and ch.isalpha()))


def _pair(a: str, b: str) -> bool:
    return (is_cjk(a) and is_latin(b)) or (is_latin(a) and is_cjk(b))


def prose_segments(text: str) -> Iterator[tuple[int, int]]:
    """Regions of prose: whole paragraphs and headings, single lines of container blocks."""
    st = structure_of(text)
    idx = st.lines
    for b in st.blocks:
        if b.type in ("paragraph", "heading"):
            yield b.start, b.end
        elif b.type in ("list", "blockquote", "table", "footnote"):
            code = nested_code_lines(text, b) if b.type != "table" else set()
            for line in range(b.line_start, b.line_end + 1):
                if line not in code:
                    yield idx.start_of(line), idx.end_of(line)


def _classes(text: str, g0: int, g1: int) -> list[int]:
    cls = [TEXT] * (g1 - g0)
    inline = scan_inline(text, g0, g1)
    for sp in inline.spans:
        for k in range(sp.o0, sp.o1):
            cls[k - g0] = OPEN
        for k in range(sp.c0, sp.c1):
            cls[k - g0] = CLOSE
        if sp.kind == "code":
            for k in range(sp.o1, sp.c0):
                cls[k - g0] = KEEP
    for a, b, _ in inline.opaque:
        for k in range(a, b):
            cls[k - g0] = KEEP
    for m in _URL.finditer(text, g0, g1):
        for k in range(m.start(), m.end()):
            cls[k - g0] = KEEP if cls[k - g0] == TEXT else cls[k - g0]
    return cls


def _segment_edits(
    text: str,
    g0: int,
    g1: int,
    punct: str | None,
    spacing: str | None,
    collapse: bool,
    repl: dict[int, str],
    ins: dict[int, str],
) -> None:
    cls = _classes(text, g0, g1)
    vis = [p for p in range(g0, g1) if cls[p - g0] in (TEXT, KEEP)]

    def ch(p: int) -> str:
        return repl.get(p, text[p])

    def gap(x: int, y: int) -> int:  # where a space between x and y goes: after closing markers, before opening ones
        pos = x + 1
        for k in range(x + 1, y):
            pos = k + 1 if cls[k - g0] == CLOSE else pos
        return pos

    for n, p in enumerate(vis if punct else ()):
        c = text[p]
        if cls[p - g0] != TEXT or p in repl:
            continue
        prev = ch(vis[n - 1]) if n else ""
        nxt = text[vis[n + 1]] if n + 1 < len(vis) else ""
        if punct == "to_fullwidth" and c in ",.:;!?" and (is_cjk(prev) or prev in _HALF):
            if (c == "." and "." in (prev, nxt)) or (c in ".:" and nxt.isascii() and nxt.isalnum()):
                continue
            repl[p] = _FULL[c]
            m = n + 1
            while m < len(vis) and text[vis[m]] == " " and cls[vis[m] - g0] == TEXT:
                m += 1
            if m < len(vis) and text[vis[m]] != "\n":
                repl.update((vis[k], "") for k in range(n + 1, m))
        elif punct == "to_fullwidth" and c == "(":
            m = n + 1
            while m < len(vis) and text[vis[m]] not in "()\n":
                m += 1
            if (
                m < len(vis)
                and m > n + 1
                and text[vis[m]] == ")"
                and cls[vis[m] - g0] == TEXT
                and (is_cjk(text[vis[n + 1]]) or is_cjk(text[vis[m - 1]]))
            ):
                repl[p], repl[vis[m]] = "（", "）"
        elif punct == "to_halfwidth" and c in _HALF:
            repl[p] = _HALF[c]
            if c not in "（）" and n + 1 < len(vis) and (is_cjk(nxt) or is_latin(nxt) or nxt in "（("):
                ins.setdefault(gap(p, vis[n + 1]), " ")
    vis = [p for p in vis if repl.get(p) != ""]
    for n in range(len(vis) - 1):
        x, y = vis[n], vis[n + 1]
        if spacing == "add" and _pair(ch(x), ch(y)) and not cls[x - g0] == cls[y - g0] == KEEP:
            ins.setdefault(gap(x, y), " ")
        if (spacing == "remove" or collapse) and (is_cjk(ch(x)) or is_latin(ch(x))):
            m = n + 1
            while m < len(vis) and ch(vis[m]) in " \t" and cls[vis[m] - g0] == TEXT:
                m += 1
            if m == n + 1 or m == len(vis) or not _pair(ch(x), ch(vis[m])):
                continue
            run = vis[n + 1 : m]
            if spacing == "remove":
                repl.update((q, "") for q in run)
            elif collapse:
                if ch(run[0]) == "\t":
                    repl[run[0]] = " "
                repl.update((q, "") for q in run[1:])


def _transform(text: str, punct: str | None, spacing: str | None, collapse: bool = False) -> list[TextEdit]:
    repl: dict[int, str] = {}
    ins: dict[int, str] = {}
    for g0, g1 in prose_segments(text):
        _segment_edits(text, g0, g1, punct, spacing, collapse, repl, ins)
    edits: list[TextEdit] = []
    for p in sorted(set(repl) | set(ins)):
        new, end = ins.get(p, "") + repl.get(p, ""), p + 1 if p in repl else p
        if edits and edits[-1].end == p:
            edits[-1] = TextEdit(edits[-1].start, end, edits[-1].text + new)
        else:
            edits.append(TextEdit(p, end, new))
    return [e for e in edits if text[e.start : e.end] != e.text]


def cjk_spacing(text: str, action: str = "add") -> list[TextEdit]:
    """Add (or ``remove``) one space between CJK characters and adjacent Latin letters or digits."""
    if action not in ("add", "remove"):
        raise ArgumentError("action must be add or remove", "action")
    return _transform(text, None, action)


def cjk_punctuation(text: str, direction: str = "to_fullwidth") -> list[TextEdit]:
    """Convert ASCII punctuation beside CJK to full width (``to_fullwidth``), or back (``to_halfwidth``)."""
    key = direction.replace("-", "_").lower() if isinstance(direction, str) else ""
    if key not in ("to_fullwidth", "to_halfwidth"):
        raise ArgumentError("direction must be to_fullwidth or to_halfwidth", "direction")
    return _transform(text, key, None)


def cjk_format(text: str) -> list[TextEdit]:
    """Full-width punctuation, then CJK/Latin spacing with repeated spaces collapsed, as one edit list."""
    return _transform(text, "to_fullwidth", "add", collapse=True)


def transform(text: str, kind: str) -> list[TextEdit]:
    """vmark2 ``document.transform``: ``cjk-format``, ``cjk-spacing`` or ``cjk-punctuation``."""
    handlers = {"cjk-format": cjk_format, "cjk-spacing": cjk_spacing, "cjk-punctuation": cjk_punctuation}
    if kind not in handlers:
        raise ArgumentError(f"kind must be one of {', '.join(handlers)}", "kind")
    return handlers[kind](text)
