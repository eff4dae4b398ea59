"""Property tests of the markdown structure: generated and real-world documents.

The structure is computed chunk by chunk (``core/markdown/chunks.py`` cuts the text at
headings so an edit re-parses one section). The critical property: the chunked structure
is exactly what markdown-it finds when it parses the WHOLE text at once (same parser
configuration, top-level tokens with their line maps). The generator therefore leans on
what can swallow a heading line: fences (also unclosed, tab-indented, inside list items),
``$$`` math (also with blank lines or a trailing ``$$``), HTML blocks, front matter
variants, and soups of such lines.
"""

from __future__ import annotations

import os
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.markdown import edits as md
from jupyter_mcp_lab.core.markdown.block_parser import block_parser
from jupyter_mcp_lab.core.markdown.structure import Structure, structure_of
from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.text import LineIndex, apply_edits, newline_of
from jupyter_mcp_lab.ops.markdown.edit import Anchored, UpdateBlock, UpdateSection, text_edits

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------- the reference

# Independent of structure.py's table on purpose: a wrong mapping there shows up here.
REFERENCE_TYPES = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "fence": "code",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "hr": "hr",
    "math_block": "math",
    "math_block_label": "math",
    "html_block": "html",
    "front_matter": "front_matter",
    "footnote_reference_open": "footnote",
}
_MD = block_parser(guards=False)  # markdown-it-py as it runs: the guards are checked too


def _trim_blank(lines: list[str], first: int, last: int) -> int:
    """``last`` (1-based, inclusive) moved up over blank lines, not above ``first``."""
    while last > first and not lines[last - 1].strip():
        last -= 1
    return last


def reference_blocks(text: str) -> list[tuple[Any, ...]]:
    """Top-level blocks of the whole text parsed at once: (type, first line, last line, details)."""
    lines = LineIndex(text)
    src_lines = [text[lines.start_of(k) : lines.start_of(k + 1)] for k in range(1, lines.line_count + 1)]
    tokens = _MD.parse(text)
    out = []
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.nesting == -1 or tok.map is None or tok.type not in REFERENCE_TYPES:
            continue
        kind = REFERENCE_TYPES[tok.type]
        first = tok.map[0] + 1
        last = _trim_blank(src_lines, first, tok.map[1])
        details: dict[str, Any] = {}
        if kind == "heading":
            details = {"level": int(tok.tag[1]), "title": tokens[i + 1].content.strip()}
        elif kind == "code":
            details = {"info": tok.info.strip() or None}
        elif kind == "list":
            items = []
            depth = 0
            for t in tokens[i:]:
                depth += t.nesting
                if t.type == "list_item_open" and t.level == 1 and t.map is not None:
                    a = t.map[0] + 1
                    items.append((a, _trim_blank(src_lines, a, t.map[1])))
                if depth == 0:
                    break
            details = {"ordered": tok.type == "ordered_list_open", "items": tuple(items)}
        out.append((kind, first, last, details))
    return out


def chunked_blocks(s: Structure) -> list[tuple[Any, ...]]:
    out = []
    for b in s.blocks:
        details: dict[str, Any] = {}
        if b.type == "heading":
            details = {"level": b.level, "title": b.title}
        elif b.type == "code":
            details = {"info": b.info}
        elif b.type == "list":
            details = {"ordered": b.ordered, "items": b.items}
        out.append((b.type, b.line_start, b.line_end, details))
    return out


# --------------------------------------------------------------------------- the generator

WORDS = st.sampled_from(
    ["alpha", "beta", "gamma", "delta", "中文", "naïve", "emoji🙂", "`code`", "*em*", "a # b", "$x$", "<b>"]
)


@st.composite
def words(draw: Any, min_size: int = 1, max_size: int = 5) -> str:
    return " ".join(draw(st.lists(WORDS, min_size=min_size, max_size=max_size)))


@st.composite
def heading(draw: Any) -> str:
    style = draw(st.sampled_from(["atx", "atx", "atx", "closed", "indented", "empty", "setext", "tab"]))
    level = draw(st.integers(1, 6))
    title = draw(words())
    if style == "closed":
        return f"{'#' * level} {title} {'#' * draw(st.integers(1, 3))}"
    if style == "indented":
        return " " * draw(st.integers(1, 3)) + f"{'#' * level} {title}"
    if style == "empty":
        return "#" * level
    if style == "setext":
        return f"{title}\n{draw(st.sampled_from(['===', '---', '=']))}"
    if style == "tab":
        return f"{'#' * level}\t{title}"
    return f"{'#' * level} {title}"


@st.composite
def paragraph(draw: Any) -> str:
    return "\n".join(draw(st.lists(words(), min_size=1, max_size=3)))


CODE_LINES = st.sampled_from(
    ["x = 1", "# not a heading", "## also not", "", "```", "~~~", "\t```", "   ```", "$$", "<div>", "<!--", "    # x"]
)


@st.composite
def fence(draw: Any, indent: str = "") -> str:
    char = draw(st.sampled_from("`~"))
    n = draw(st.integers(3, 5))
    info = draw(st.sampled_from(["", "python", "md", " yaml title", "{r}"]))
    body = draw(st.lists(CODE_LINES, max_size=4))
    closing = draw(st.sampled_from(["same", "same", "longer", "shorter", "tab", "missing", "indented"]))
    lines = [char * n + info, *body]
    if closing == "same":
        lines.append(char * n)
    elif closing == "longer":
        lines.append(char * (n + 1))
    elif closing == "shorter":
        lines.append(char * (n - 1))
    elif closing == "tab":
        lines.append("\t" + char * n)
    elif closing == "indented":
        lines.append("   " + char * n)
    return "\n".join(indent + line if line else line for line in lines)


@st.composite
def math(draw: Any) -> str:
    style = draw(st.sampled_from(["block", "block", "one-line", "label", "blank-inside", "trailing", "unclosed"]))
    body = draw(st.lists(st.sampled_from(["a^2 + b^2", "# x", "\\frac{1}{2}", "```", "x $$ y"]), max_size=3))
    if style == "one-line":
        return "$$ e = mc^2 $$"
    if style == "label":
        return "\n".join(["$$", *body, "$$ (eq1)"])
    if style == "blank-inside":
        return "\n".join(["$$", *body, "", "b", "$$"])
    if style == "trailing":
        return "$$ a $$ b"
    if style == "unclosed":
        return "\n".join(["$$", *body])
    return "\n".join(["$$", *body, "$$"])


@st.composite
def list_block(draw: Any, depth: int = 0) -> str:
    ordered = draw(st.booleans())
    loose = draw(st.booleans())
    items = []
    for k in range(draw(st.integers(1, 4))):
        marker = f"{k + 1}{draw(st.sampled_from('.)'))}" if ordered else draw(st.sampled_from("-*+"))
        task = draw(st.sampled_from(["", "", "[ ] ", "[x] ", "[X] "]))
        pad = " " * (len(marker) + 1)
        item = f"{marker} {task}{draw(words())}"
        extra = draw(st.sampled_from(["none", "none", "para", "fence", "sublist", "lazy", "math"]))
        if extra == "para":
            item += f"\n\n{pad}{draw(words())}"
        elif extra == "fence":
            item += "\n" + draw(fence(indent=pad))
        elif extra == "sublist" and depth < 2:
            sub = draw(list_block(depth + 1))
            item += "\n" + "\n".join(pad + line if line else line for line in sub.split("\n"))
        elif extra == "lazy":
            item += "\n" + draw(words())
        elif extra == "math":
            item += f"\n{pad}$$\n{pad}x"
        items.append(item)
    return ("\n\n" if loose else "\n").join(items)


@st.composite
def table(draw: Any) -> str:
    cols = draw(st.integers(1, 4))
    header = "| " + " | ".join(f"h{c}" for c in range(cols)) + " |"
    sep = "|" + "|".join(draw(st.sampled_from(["---", ":--", "--:", ":-:"])) for _ in range(cols)) + "|"
    rows = ["| " + " | ".join(draw(st.sampled_from(["1", "x", "`|`", ""])) for _ in range(cols)) + " |"] * draw(
        st.integers(0, 3)
    )
    return "\n".join([header, sep, *rows])


@st.composite
def blockquote(draw: Any) -> str:
    inner = draw(st.lists(st.sampled_from(["quote", "# quoted heading", "```", "- item", "$$", ""]), max_size=3))
    lines = ["> " + draw(words()), *(("> " + x) if x else ">" for x in inner)]
    if draw(st.booleans()):
        lines.append(draw(words()))  # lazy continuation
    return "\n".join(lines)


HTML = st.sampled_from(
    [
        "<div>\n# inside div\n</div>",
        "<div>\n\n# after blank\n</div>",
        "<!--\n# commented out\n-->",
        "<!-- one line -->",
        "<!--\n# never closed",
        "<span>",
        "<span>\n```",
        "<script>\n# js\n</script>",
        "<?php\n# x\n?>",
        "<!DOCTYPE html>",
        "<![CDATA[\n# x\n]]>",
        "<details>\n<summary>s</summary>\n\n# in details\n\n</details>",
    ]
)

TRICKY_LINES = st.sampled_from(
    [
        "# h",
        "#",
        "## h2",
        "```",
        "````",
        "~~~",
        "\t```",
        "  ```",
        "- ```",
        "> ```",
        "1. a",
        "- a",
        "  - b",
        "$$",
        "$$ a $$ b",
        "x $$",
        "<div>",
        "<span>",
        "<!--",
        "-->",
        "</div>",
        "---",
        "...",
        "    # indented",
        "text",
        "| a | b |",
        "|---|---|",
        "[^1]: note",
        "[^1]: $$",
        "> $$",
        "- $$",
        "$$ (eq1)",
        "x $$ (eq1)",
        "  <!--",
        " \t```",
        "  ---",
        "<script>",
        "[ref]:",
        "",
        "",
    ]
)


@st.composite
def line_soup(draw: Any) -> str:
    return "\n".join(draw(st.lists(TRICKY_LINES, min_size=1, max_size=20)))


@st.composite
def front_matter(draw: Any) -> str:
    opening = draw(st.sampled_from(["---", "---", "----", "--- yaml", "---  "]))
    body = draw(st.lists(st.sampled_from(["title: x", "# yaml comment", "tags: [a, b]", ""]), max_size=3))
    closing = draw(st.sampled_from(["---", "---", "...", "-----", "  ---", "--", None]))
    return "\n".join([opening, *body, *([closing] if closing is not None else [])])


BLOCK = st.one_of(
    heading(),
    heading(),
    paragraph(),
    fence(),
    math(),
    list_block(),
    table(),
    blockquote(),
    HTML,
    st.sampled_from(["---", "***", "___", "    indented code\n    # not a heading", "[^1]: a footnote"]),
    line_soup(),
)


@st.composite
def markdown_docs(draw: Any) -> str:
    parts = []
    if draw(st.integers(0, 4)) == 0:
        parts.append(draw(front_matter()))
    parts.extend(draw(st.lists(BLOCK, min_size=1, max_size=10)))
    text = ""
    for k, part in enumerate(parts):
        text += part
        if k < len(parts) - 1:
            text += "\n" * draw(st.sampled_from([1, 2, 2, 2, 3]))
    text += draw(st.sampled_from(["\n", "\n", "", "\n\n"]))
    newline = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"]))
    return text.replace("\n", newline)


# MCP_LAB_PROPS_SCALE=50 runs 50 times as many examples (a deeper search than the suite's ~15 s).
SCALE = int(os.environ.get("MCP_LAB_PROPS_SCALE", "1"))
PROPS = settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EDIT_PROPS = settings(max_examples=120 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- (b) chunked == whole

# Found while writing these tests: each made the chunk splitter cut inside a block.
SPLITTER_REGRESSIONS = [
    "```\n\t```\n# not a heading\n```\n",  # a tab-indented ``` does not close a fence
    "----\n# title: x\n----\n\ntext\n",  # front matter opened by four dashes
    "--- x\n# c\n---\n",  # front matter opener with trailing text
    "para\n<span>\n```\n\n# x\n```\n",  # <span> cannot interrupt a paragraph; the fence opens
    "- a\n  ```\n# x\n```\n# y\n```\n",  # a fence inside a list item ends with the item
    "$$ a $$ b\n```\nc $$\n# y\n```\n",  # $$ with text after a closing $$ is no math block
    "- $$\n  a\n# x\nb $$\n",  # dollarmath inside a list item runs past the item
    "- a\n  <!--\n$$\n-->\n# x\nb $$\n",
    "---\n  ---\n# a\n$$\n---\n\n# b\n$$\n$$\n",  # front matter closed by an indented ---
    "$$\na\n$$ (eq1)\n$$\n\n# x\nb $$\n",  # a labelled closing $$; blank lines inside math
]


@pytest.mark.parametrize("text", SPLITTER_REGRESSIONS)
def test_chunked_structure_equals_whole_parse_regressions(text: str) -> None:
    assert chunked_blocks(Structure(text)) == reference_blocks(text)


@PROPS
@given(markdown_docs())
@example("# a\n\n```\n# b\n```\n\n## c\n")
@example("---\ntitle: x\n# not a heading\n---\n# real\n")
@example("# a\r\n\r\n$$\r\n# in math\r\n$$\r\n# b\r\n")
def test_chunked_structure_equals_whole_parse(text: str) -> None:
    assert chunked_blocks(Structure(text)) == reference_blocks(text)


MAX_REAL_WORLD_FILES = 250


def _real_world_files() -> list[Path]:
    files = sorted(ROOT.glob("*.md"))
    for folder in (ROOT / "tests" / "js" / "node_modules", ROOT / "labext" / "node_modules", ROOT / ".venv"):
        if folder.is_dir():
            files.extend(sorted(p for p in folder.rglob("*.md") if p.is_file() and p.stat().st_size < 300_000))
    return files


def test_chunked_structure_equals_whole_parse_on_real_world_markdown() -> None:
    files = _real_world_files()
    assert files, "no markdown files found (README.md at least)"
    checked = 0
    for path in files[:MAX_REAL_WORLD_FILES]:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        s = Structure(text)
        assert chunked_blocks(s) == reference_blocks(text), path
        check_blocks_and_sections(s)
        checked += 1
    assert checked >= 1


# --------------------------------------------------------------------------- (a) ids, order, sections


def check_blocks_and_sections(s: Structure) -> None:
    text = s.text
    ids = [b.id for b in s.blocks]
    assert len(ids) == len(set(ids)), ids
    for b in s.blocks:
        assert re.fullmatch(r"[a-z]+-\d+", b.id), b.id
        assert 1 <= b.line_start <= b.line_end <= s.lines.line_count
        assert 0 <= b.start <= b.end <= len(text)
        assert b.start == s.lines.start_of(b.line_start)
        assert b.end == s.lines.end_of(b.line_end)
        assert s.by_id[b.id] is b
    for a, b in pairwise(s.blocks):
        assert a.line_end < b.line_start, (a, b)  # in order, no overlap
        assert a.end < b.start

    heads = s.headings
    sections = [x for x in s.sections if x.heading is not None]
    assert [x.id for x in sections] == [h.id for h in heads]
    for x in sections:
        assert x.start == x.heading.start
        assert x.start < x.end <= len(text)
        later = [h for h in heads if h.start > x.start]
        ender = next((h for h in later if (h.level or 0) <= x.level), None)
        assert x.end == (ender.start if ender else len(text))
        # Nothing inside a section is at its level or above.
        assert all((h.level or 0) > x.level for h in later if h.start < x.end)
    for x in sections:
        for y in sections:
            disjoint = x.end <= y.start or y.end <= x.start
            nested = (x.start <= y.start and y.end <= x.end) or (y.start <= x.start and x.end <= y.end)
            assert disjoint or nested, (x, y)
    # The outermost sections tile the text from the first heading to the end.
    outer = [x for x in sections if not any(y is not x and y.start <= x.start and x.end <= y.end for y in sections)]
    if heads:
        assert outer[0].start == heads[0].start
        assert outer[-1].end == len(text)
        for x, y in pairwise(outer):
            assert x.end == y.start
    preamble = [x for x in s.sections if x.heading is None]
    first = heads[0].start if heads else len(text)
    if text[:first].strip():
        assert [(p.id, p.start, p.end) for p in preamble] == [("preamble", 0, first)]
        assert s.sections[0] is preamble[0]
    else:
        assert preamble == []


@PROPS
@given(markdown_docs())
def test_node_ids_unique_blocks_ordered_sections_nest_and_cover(text: str) -> None:
    check_blocks_and_sections(Structure(text))


# --------------------------------------------------------------------------- (c) edits touch only their range

NEW_CONTENT = st.sampled_from(
    ["replacement paragraph", "## New heading", "- a\n- b", "| x |\n|---|\n| 1 |", "新しい段落", "x\n\ny"]
)


@EDIT_PROPS
@given(markdown_docs(), st.data())
def test_update_block_changes_only_that_block(text: str, data: Any) -> None:
    s = structure_of(text)
    assume(s.blocks)
    b = data.draw(st.sampled_from(s.blocks))
    content = data.draw(NEW_CONTENT)
    out = apply_edits(text, text_edits(s, UpdateBlock(op="update_block", nodeId=b.id, content=content)))
    assert out[: b.start] == text[: b.start]
    assert out[b.start + len(content) :] == text[b.end :]
    assert out == text[: b.start] + content + text[b.end :]


@EDIT_PROPS
@given(markdown_docs(), st.data())
def test_update_section_changes_only_that_section(text: str, data: Any) -> None:
    s = structure_of(text)
    sections = [x for x in s.sections if x.heading is not None]
    assume(sections)
    sec = data.draw(st.sampled_from(sections))
    keep = data.draw(st.booleans())
    content = data.draw(NEW_CONTENT)
    out = apply_edits(
        text, text_edits(s, UpdateSection(op="update_section", nodeId=sec.id, content=content, keepHeading=keep))
    )
    end = sec.end
    while end > sec.start and text[end - 1] in "\r\n":
        end -= 1
    nl = newline_of(text)
    assert out.endswith(text[end:])  # the blank lines before the next section stay too
    if keep:
        assert out == text[: sec.heading.end] + nl + nl + content + text[end:]
    else:
        assert out == text[: sec.start] + content + text[end:]


@EDIT_PROPS
@given(markdown_docs(), st.data())
def test_anchored_replace_changes_only_the_anchor(text: str, data: Any) -> None:
    s = structure_of(text)
    assume(s.blocks)
    b = data.draw(st.sampled_from(s.blocks))
    assume(b.end > b.start)
    i = data.draw(st.integers(b.start, b.end - 1))
    j = data.draw(st.integers(i + 1, min(b.end, i + 12)))
    k = data.draw(st.integers(max(0, i - 8), i))
    anchor, before = text[i:j], text[k:i]
    replacement = data.draw(st.sampled_from(["X", "", "longer replacement", "\u2603"]))
    op = Anchored(op="anchored", text=anchor, replacement=replacement, before=before)
    exact = [m.start() + len(before) for m in re.finditer(f"(?={re.escape(before + anchor)})", text)]
    assert i in exact
    try:
        out = apply_edits(text, text_edits(s, op))
    except DomainError as exc:
        # Several places match (overlapping ones too): the error says how many.
        assert exc.code == "CONFLICT", exc
        assert exc.details["match_count"] == len(exact) >= 2
        return
    assert exact == [i], "an ambiguous anchor was applied to one of its places"
    assert out == text[:i] + replacement + text[j:]


def test_anchored_context_is_whitespace_loose() -> None:
    text = "# T\n\nThe quick brown\nfox jumps over the lazy dog.\n\nThe quick brown cat.\n"
    s = structure_of(text)
    # The agent re-wrapped the context onto one line: it still finds the one place.
    m = md.anchored(s, "jumps", before="quick brown fox ")
    assert text[m.start : m.end] == "jumps"
    assert m.start == text.index("jumps")
    with pytest.raises(DomainError) as info:
        md.anchored(s, "quick")
    assert info.value.code == "CONFLICT"
    assert info.value.details["match_count"] == 2


# --------------------------------------------------------------------------- (d) revisions


TEXTS = st.one_of(st.text(max_size=40), markdown_docs(), st.sampled_from(["\ud800", "a\udfffb", "", "\r\n", "\n"]))


@settings(max_examples=200 * SCALE, deadline=None)
@given(TEXTS, TEXTS)
def test_revision_changes_iff_content_changes(a: str, b: str) -> None:
    assert (revision_of(a) == revision_of(b)) == (a == b)
    assert re.fullmatch(r"rev-[0-9a-f]{12}", revision_of(a))
    assert revision_of(a) == revision_of(str(a))  # a function of the content only


@settings(max_examples=200 * SCALE, deadline=None)
@given(markdown_docs(), st.data())
def test_any_one_character_change_changes_the_revision(text: str, data: Any) -> None:
    i = data.draw(st.integers(0, len(text)))
    ch = data.draw(st.characters())
    changed = text[:i] + ch + text[i:]
    assert revision_of(changed) != revision_of(text)
    assert structure_of(changed).revision == revision_of(changed)
    if i < len(text) and text[i] != ch:
        replaced = text[:i] + ch + text[i + 1 :]
        assert revision_of(replaced) != revision_of(text)
