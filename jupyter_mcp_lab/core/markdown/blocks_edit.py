"""Block types: convert a top-level block (paragraph, heading, blockquote, code, lists).

Every function returns ``TextEdit``s against the original text, written through
``line_edits.replace_lines`` (only the lines that change). Whole blocks (resolve, insert,
update, delete, move) are ``blocks``.
"""

from __future__ import annotations

import re

from ..errors import ArgumentError
from ..text import TextEdit
from .blocks import block_lines, insert_block, resolve_block
from .headings import ATX_HEADING, ATX_OPEN
from .line_edits import replace_lines
from .lists import check_wrappable, markers_beside, set_list_kind, toggle_list, unwrap_items, wrap_lines
from .structure import Block
from .type_names import block_type_name

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_QUOTE = re.compile(r"^ {0,3}> ?")
_ORDERED = re.compile(r" {0,3}\d{1,9}(?=[.)](?:[ \t]|$))")
_BLOCK_START = re.compile(  # a heading, or any other line that would start a block
    ATX_OPEN.pattern + r"| {0,3}(?:>|[-+*](?:[ \t]|$)|`{3}|~{3}|=+[ \t]*$|([-_*])(?:[ \t]*\1){2,}[ \t]*$)"
)


def _escape(line: str) -> str:
    """A line of text that must not start a block (a list, a heading, a fence...) as a paragraph line."""
    if m := _ORDERED.match(line):
        return f"{line[: m.end()]}\\{line[m.end() :]}"
    if _BLOCK_START.match(line):
        pad = len(line) - len(line.lstrip(" "))
        return f"{line[:pad]}\\{line[pad:]}"
    return line


def content_lines(text: str, block: Block) -> list[str]:
    """A block's text without its block syntax (heading marks, quote marks, fences, list markers)."""
    lines = block_lines(text, block)
    if block.type == "heading":
        m = ATX_HEADING.match(lines[0])
        return [m.group(1)] if m else lines[:-1]
    if block.type == "blockquote":
        return [_QUOTE.sub("", ln, count=1) for ln in lines]
    if block.type == "code":
        m = _FENCE.match(lines[0])
        if m is None:  # indented code
            return [re.sub(r"^(?: {1,4}|\t)", "", ln) for ln in lines]
        inner = lines[1:]
        if (
            inner
            and inner[-1].strip().startswith(m.group(2)[0] * len(m.group(2)))
            and not inner[-1].strip(m.group(2)[0])
        ):
            inner = inner[:-1]
        pad = len(m.group(1))
        return [ln[min(pad, len(ln) - len(ln.lstrip(" "))) :] for ln in inner]
    if block.type == "list":
        return unwrap_items(text, block)
    return lines


def _fence_for(lines: list[str]) -> str:
    longest = max((len(m.group(2)) for ln in lines if (m := _FENCE.match(ln)) and m.group(2)[0] == "`"), default=2)
    return "`" * max(3, longest + 1)


def _build(text: str, kind: str, block: Block, lines: list[str], level: int | None, language: str | None) -> list[str]:
    raw = block_lines(text, block)
    if kind == "paragraph":
        return lines if block.type in ("paragraph", "blockquote", "list") else [_escape(ln) for ln in lines]
    if kind == "heading":
        title = " ".join(ln.strip() for ln in lines if ln.strip())
        return [("#" * (level or 1) + " " + title).rstrip()]
    if kind == "blockquote":
        return [f"> {ln}" if ln.strip() else ">" for ln in raw]
    if kind == "code":
        if block.type == "code" and (m := _FENCE.match(raw[0])):
            return [m.group(1) + m.group(2) + (language or ""), *raw[1:]]
        fence = _fence_for(lines)
        return [fence + (language or ""), *lines, fence]
    check_wrappable(text, block)
    return wrap_lines(lines, kind, 1, *markers_beside(text, block))


def set_block_type(
    text: str, target: str | int, type: str, level: int | None = None, language: str | None = None
) -> list[TextEdit]:
    """Convert a top-level block (id or offset) to paragraph / heading / blockquote / code / a list kind."""
    kind = block_type_name(type)
    if level is not None and (not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 6):
        raise ArgumentError("level must be an integer from 1 to 6", "level")
    if language is not None and (not isinstance(language, str) or re.search(r"[`\r\n]", language)):
        raise ArgumentError("language must be a single line without backticks", "language")
    block = resolve_block(text, target, types=("paragraph", "heading", "blockquote", "code", "list"))
    if kind in ("bullet", "ordered", "task") and block.type == "list":
        return set_list_kind(text, block.start, block.end, kind)
    if kind == block.type and kind in ("paragraph", "blockquote"):
        return []
    raw = block_lines(text, block)
    if kind == "heading" and block.type == "heading" and (level or 1) == block.level and ATX_HEADING.match(raw[0]):
        return []
    if kind == "code" and block.type == "code" and language is None and _FENCE.match(raw[0]):
        return []
    lines = content_lines(text, block)  # a blockquote is lifted: the quoted markdown becomes the block
    return replace_lines(text, block.line_start, block.line_end, _build(text, kind, block, lines, level, language))


def toggle_block(text: str, target: str | int, type: str, level: int | None = None) -> list[TextEdit]:
    """vmark ``block_toggle``: set the type, or turn the block back into a paragraph if it already has it."""
    kind = block_type_name(type)
    block = resolve_block(text, target)
    if kind in ("bullet", "ordered", "task"):
        return toggle_list(text, block.start, block.end, kind)
    same = kind == block.type and (kind != "heading" or level is None or level == block.level)
    if same and kind != "paragraph":
        return set_block_type(text, block.id, "paragraph")
    return set_block_type(text, block.id, kind, level=level)


def insert_horizontal_rule(text: str, offset: int) -> list[TextEdit]:
    """Insert a thematic break as its own block (``***`` at the very start, where ``---`` could open front matter)."""
    edit = insert_block(text, offset, "---")
    return [insert_block(text, offset, "***") if edit.start == 0 else edit]
