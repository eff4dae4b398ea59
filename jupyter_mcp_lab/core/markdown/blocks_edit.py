"""Block-level edits: change a block's type, insert or delete whole blocks, rewrite lines.

Every function returns ``TextEdit``s against the original text. ``replace_lines`` is the
primitive the table and list editors share: it diffs a block's old lines against new ones
and touches only the lines (and, within a line, only the characters) that differ, so the
document's line breaks and every untouched line stay byte-for-byte as they were.

Block inserts (``insert_block``) land on their own lines, separated by blank lines only
where needed. An offset strictly inside a block inserts after that block; an offset at a
block's first character inserts before it (never before front matter); an offset between
blocks inserts there.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from ..errors import ArgumentError, DomainError
from ..text import LineIndex, TextEdit, newline_of
from .structure import Block, structure_of

_TYPE_NAMES = {
    "paragraph": "paragraph",
    "text": "paragraph",
    "heading": "heading",
    "blockquote": "blockquote",
    "quote": "blockquote",
    "codeblock": "code",
    "code": "code",
    "fence": "code",
    "bullet": "bullet",
    "bulletlist": "bullet",
    "ordered": "ordered",
    "orderedlist": "ordered",
    "task": "task",
    "tasklist": "task",
}
_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_QUOTE = re.compile(r"^ {0,3}> ?")
_ORDERED = re.compile(r" {0,3}\d{1,9}(?=[.)](?:[ \t]|$))")
_BLOCK_START = re.compile(
    r" {0,3}(?:>|[-+*](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|`{3}|~{3}|=+[ \t]*$|([-_*])(?:[ \t]*\1){2,}[ \t]*$)"
)


def block_type_name(value: str, argument: str = "type") -> str:
    """Canonical name of a block type (accepts vmark names such as ``codeBlock``)."""
    key = value.replace("_", "").replace("-", "").lower() if isinstance(value, str) else ""
    if key not in _TYPE_NAMES:
        raise ArgumentError(
            f"{argument} must be one of paragraph, heading, blockquote, codeBlock, "
            f"bullet, ordered, task (got {value!r})",
            argument,
        )
    return _TYPE_NAMES[key]


def resolve_block(text: str, target: str | int, argument: str = "target", types: tuple[str, ...] = ()) -> Block:
    """The top-level block named by a node id, or holding a code point offset."""
    st = structure_of(text)
    if isinstance(target, str):
        block = st.by_id.get(target)
        if block is None:
            raise DomainError("NOT_FOUND", f"no block {target!r} in this revision", argument=argument)
    elif isinstance(target, int) and not isinstance(target, bool):
        if not 0 <= target <= len(text):
            raise ArgumentError(f"{argument} {target} is outside the document (0..{len(text)})", argument)
        found = st.block_at(target)
        if found is None:
            raise DomainError("NOT_FOUND", f"no block at offset {target}", argument=argument)
        block = found
    else:
        raise ArgumentError(f"{argument} must be a node id or an offset", argument)
    if types and block.type not in types:
        raise ArgumentError(f"{block.id} is a {block.type}, not a {' or '.join(types)}", argument)
    return block


def block_lines(text: str, block: Block) -> list[str]:
    idx = structure_of(text).lines
    return [text[idx.start_of(k) : idx.end_of(k)] for k in range(block.line_start, block.line_end + 1)]


def _trimmed(start: int, old: str, new: str) -> list[TextEdit]:
    if old == new:
        return []
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    q = 0
    while q < min(len(old), len(new)) - p and old[-1 - q] == new[-1 - q]:
        q += 1
    return [TextEdit(start + p, start + len(old) - q, new[p : len(new) - q])]


def replace_lines(text: str, line_start: int, line_end: int, new_lines: list[str]) -> list[TextEdit]:
    """Minimal edits turning lines ``line_start..line_end`` (1-based, inclusive) into ``new_lines``."""
    idx = LineIndex(text)
    nl = newline_of(text)
    old = [text[idx.start_of(k) : idx.end_of(k)] for k in range(line_start, line_end + 1)]
    edits: list[TextEdit] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=old, b=new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        first, last = line_start + i1, line_start + i2 - 1
        if i1 < i2 and j1 < j2:
            a, b = idx.start_of(first), idx.end_of(last)
            if i2 - i1 == j2 - j1:
                for k in range(i2 - i1):
                    edits += _trimmed(idx.start_of(first + k), old[i1 + k], new_lines[j1 + k])
            else:
                edits += _trimmed(a, text[a:b], nl.join(new_lines[j1:j2]))
        elif i1 < i2:  # delete whole lines with one of their breaks
            if last < idx.line_count:
                edits.append(TextEdit(idx.start_of(first), idx.start_of(last + 1), ""))
            else:
                edits.append(TextEdit(idx.end_of(first - 1) if first > 1 else 0, idx.end_of(last), ""))
        elif i1 < len(old):
            pos = idx.start_of(first)
            edits.append(TextEdit(pos, pos, nl.join(new_lines[j1:j2]) + nl))
        else:
            pos = idx.end_of(line_end)
            edits.append(TextEdit(pos, pos, nl + nl.join(new_lines[j1:j2])))
    return edits


def insert_block(text: str, offset: int, block: str) -> TextEdit:
    """Insert ``block`` (lines joined by ``\\n``) as its own block at or after ``offset`` (see module doc)."""
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= len(text):
        raise ArgumentError(f"offset must be an offset in the document (0..{len(text)})", "offset")
    st = structure_of(text)
    idx, nl = st.lines, newline_of(text)
    body = nl.join(block.split("\n"))

    def blank(line: int) -> bool:
        return not text[idx.start_of(line) : idx.end_of(line)].strip()

    inside = st.block_at(offset)
    line, count = idx.line_of(offset), idx.line_count
    if inside is not None and offset == inside.start and inside.type != "front_matter":  # before the block
        before = nl if inside.line_start > 1 and not blank(inside.line_start - 1) else ""
        return TextEdit(inside.start, inside.start, before + body + nl + nl)
    if inside is not None or not blank(line):  # after the block (or a line outside blocks)
        line = inside.line_end if inside is not None else line
        pos = idx.end_of(line)
        return TextEdit(pos, pos, nl + nl + body + (nl if line < count and not blank(line + 1) else ""))
    first, last = line, line  # between blocks: in the run of blank lines, after its first line
    while first > 1 and blank(first - 1):
        first -= 1
    while last < count and blank(last + 1):
        last += 1
    at = first + 1 if first > 1 else first
    if at > count:
        return TextEdit(len(text), len(text), nl + body + nl)
    after = nl if last < count and at > last else ""
    return TextEdit(idx.start_of(at), idx.start_of(at), body + nl + after)


def delete_block(text: str, block: Block) -> TextEdit:
    """Remove a block and the blank lines that separated it, leaving one separation."""
    idx = structure_of(text).lines
    nxt = block.line_end + 1
    while nxt <= idx.line_count and not text[idx.start_of(nxt) : idx.end_of(nxt)].strip():
        nxt += 1
    if nxt <= idx.line_count:
        return TextEdit(block.start, idx.start_of(nxt), "")
    prev = block.line_start - 1
    while prev >= 1 and not text[idx.start_of(prev) : idx.end_of(prev)].strip():
        prev -= 1
    if prev >= 1:
        return TextEdit(idx.end_of(prev), block.end, "")
    return TextEdit(0, len(text), "")


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
        m = _ATX.match(lines[0])
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
        from .lists import unwrap_items

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
    from .lists import check_wrappable, markers_beside, wrap_lines

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
        from .lists import set_list_kind

        return set_list_kind(text, block.start, block.end, kind)
    if kind == block.type and kind in ("paragraph", "blockquote"):
        return []
    raw = block_lines(text, block)
    if kind == "heading" and block.type == "heading" and (level or 1) == block.level and _ATX.match(raw[0]):
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
        from .lists import toggle_list

        return toggle_list(text, block.start, block.end, kind)
    same = kind == block.type and (kind != "heading" or level is None or level == block.level)
    if same and kind != "paragraph":
        return set_block_type(text, block.id, "paragraph")
    return set_block_type(text, block.id, kind, level=level)


def insert_horizontal_rule(text: str, offset: int) -> list[TextEdit]:
    """Insert a thematic break as its own block (``***`` at the very start, where ``---`` could open front matter)."""
    edit = insert_block(text, offset, "---")
    return [insert_block(text, offset, "***") if edit.start == 0 else edit]
