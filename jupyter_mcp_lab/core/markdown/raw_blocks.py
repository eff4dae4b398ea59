"""Top-level blocks of one chunk, as markdown-it's block tokens give them (``RawBlock``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

from .outline_items import ListItemLines, items_of

_TOKEN_TYPES = {
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
    "footnote_reference_open": "footnote",  # a definition [^label]: …, where it stands
}


@dataclass(frozen=True)
class RawBlock:
    """A top-level block as found in one chunk, lines relative to the chunk (0-based, end exclusive)."""

    type: str
    line0: int
    line1: int
    level: int | None = None
    title: str | None = None
    info: str | None = None
    ordered: bool | None = None
    items: tuple[tuple[int, int], ...] = ()  # list items' (line0, line1)
    nested: tuple[ListItemLines, ...] = ()  # a list's items, nested ones too, lines relative to line0


def _raw_blocks(tokens: list[Any]) -> list[RawBlock]:
    out: list[RawBlock] = []
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.nesting == -1:
            continue
        kind = _TOKEN_TYPES.get(tok.type)
        if kind is None or tok.map is None:
            continue
        line0, line1 = tok.map
        if kind == "heading":
            inline = tokens[i + 1]
            out.append(RawBlock(kind, line0, line1, level=int(tok.tag[1]), title=inline.content.strip()))
        elif kind == "footnote":
            out.append(RawBlock(kind, line0, line1, title=str((tok.meta or {}).get("label", ""))))
        elif kind == "code":
            out.append(RawBlock(kind, line0, line1, info=tok.info.strip() or None))
        elif kind == "list":
            # Items of this list only: stop at the list's own closing token.
            items = _items_until_close(tokens, i)
            nested = items_of(tokens[i : _close_of(tokens, i) + 1], None, line0)
            out.append(
                RawBlock(kind, line0, line1, ordered=tok.type == "ordered_list_open", items=items, nested=nested)
            )
        else:
            out.append(RawBlock(kind, line0, line1))
    return out


def _close_of(tokens: list[Any], open_index: int) -> int:
    """The index of the token that closes the top-level block opened at ``open_index``."""
    for k in range(open_index + 1, len(tokens)):
        if tokens[k].level == 0 and tokens[k].nesting == -1:
            return k
    return len(tokens) - 1


def _items_until_close(tokens: list[Any], open_index: int) -> tuple[tuple[int, int], ...]:
    items = []
    for t in tokens[open_index + 1 :]:
        if t.level == 0 and t.nesting == -1:
            break
        if t.type == "list_item_open" and t.level == 1 and t.map is not None:
            items.append((t.map[0], t.map[1]))
    return tuple(items)


def parse_chunk(md: MarkdownIt, chunk: str) -> tuple[list[RawBlock], bool]:
    """The chunk's blocks (lines relative to the chunk), and whether a ``$$`` was left open.

    ``md`` reads front matter only if ``chunk`` starts the document.
    """
    env: dict[str, Any] = {}
    raw = _raw_blocks(md.parse(chunk, env))
    return raw, bool(env.get("open_math"))
