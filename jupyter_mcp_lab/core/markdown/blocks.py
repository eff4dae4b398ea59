"""Whole top-level blocks: resolve one, insert, update, delete or move it.

The one implementation every surface uses (the lab ``edit`` ops, VMark's ``batch_edit``,
table and list tools). Each function returns ``TextEdit``s against the original text.

- Inserts land on their own lines with a blank line on both sides where the text has none
  (a block inserted right above a paragraph or a ``---`` would otherwise merge into it).
  An offset strictly inside a block inserts after that block; an offset at a block's first
  character inserts before it (never before front matter); an offset between blocks
  inserts there. Line breaks in the new block become the document's.
- Deleting a block takes the blank lines that separated it along. The last block of the
  file takes the blank lines before it instead, so the file ends as it ended before (with
  or without a final line break): deleting what was inserted at the end gives the text back.
"""

from __future__ import annotations

import re

from ..errors import ArgumentError, DomainError
from ..text import TextEdit, newline_of
from .headings import ATX_OPEN
from .structure import Block, Structure, structure_of

_BREAK = re.compile(r"\r\n|\r|\n")


def _structure(doc: Structure | str) -> Structure:
    return doc if isinstance(doc, Structure) else structure_of(doc)


def resolve_block(
    doc: Structure | str, target: str | int, argument: str | None = "target", types: tuple[str, ...] = ()
) -> Block:
    """The top-level block named by a node id, or holding a code point offset.

    A missing node id is NOT_FOUND naming the argument, or (``argument`` None, as the lab
    ``edit`` ops report it) the ``node_id``.
    """
    st = _structure(doc)
    name = argument or "target"
    if isinstance(target, str):
        block = st.by_id.get(target)
        if block is None:
            details = {"node_id": target} if argument is None else {"argument": argument}
            raise DomainError(
                "NOT_FOUND",
                f"no block {target!r} at revision {st.revision}; read the document's structure for current ids",
                **details,
            )
    elif isinstance(target, int) and not isinstance(target, bool):
        if not 0 <= target <= len(st.text):
            raise ArgumentError(f"{name} {target} is outside the document (0..{len(st.text)})", name)
        found = st.block_at(target)
        if found is None:
            raise DomainError("NOT_FOUND", f"no block at offset {target}", argument=name)
        block = found
    else:
        raise ArgumentError(f"{name} must be a node id or an offset", name)
    if types and block.type not in types:
        raise ArgumentError(f"{block.id} is a {block.type}, not a {' or '.join(types)}", name)
    return block


def block_lines(text: str, block: Block) -> list[str]:
    idx = structure_of(text).lines
    return [text[idx.start_of(k) : idx.end_of(k)] for k in range(block.line_start, block.line_end + 1)]


def insert_block(text: str, offset: int, block: str) -> TextEdit:
    """Insert ``block`` as its own block at or after ``offset`` (see module doc)."""
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= len(text):
        raise ArgumentError(f"offset must be an offset in the document (0..{len(text)})", "offset")
    st = structure_of(text)
    idx, nl = st.lines, newline_of(text)
    body = nl.join(_BREAK.split(block.strip("\r\n")))

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


def insert_after(text: str, after: Block | None, content: str) -> TextEdit:
    """``content`` as a new block after block ``after`` (None: at the top, below any front matter)."""
    return insert_block(text, 0 if after is None else after.end, content)


def update_block(text: str, block: Block, content: str, *, keep_heading: bool = False) -> TextEdit:
    """Replace a block's source. With ``keep_heading``, a heading keeps its ``#`` marks when
    the new text has none of its own (VMark's ``batch_edit`` update)."""
    new = content.strip("\r\n")
    if keep_heading and block.type == "heading" and not ATX_OPEN.match(new.lstrip()):
        line = text[block.start : structure_of(text).lines.end_of(block.line_start)]
        m = ATX_OPEN.match(line)
        new = (m.group(0) if m and m.group(0).strip() else "#" * (block.level or 1) + " ") + new.strip()
    return TextEdit(block.start, block.end, new)


def delete_block(text: str, block: Block) -> TextEdit:
    """Remove a block and the blank lines that separated it (see module doc for the last block)."""
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


def move_block(text: str, block: Block, after: Block | None) -> list[TextEdit]:
    """Cut a block and insert it after block ``after`` (None: at the top); [] when it is there."""
    st = structure_of(text)
    blocks = st.blocks
    k = blocks.index(block)
    if after is not None and after.id == block.id:
        raise ArgumentError("cannot move a node after itself", "after")
    first = 1 if blocks[0].type == "front_matter" else 0
    if (after is None and k == first) or (after is not None and k > 0 and blocks[k - 1].id == after.id):
        return []  # already there
    if len(blocks) == 1:
        return []
    return [delete_block(text, block), insert_after(text, after, text[block.start : block.end])]
