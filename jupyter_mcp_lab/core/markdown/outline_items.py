"""The items of one top-level list block, nested lists included, for the outline view.

Read from the block tokens that parsed the document's structure (``raw_blocks`` keeps them
per list, ``Block.nested``); for a list without them, parsed with the engine's block parser
on the list's own text and cached by that text.
Items inside a blockquote (or any other container that is not a list item) are not
items of the outline: they are content of the item that holds them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from .block_parser import block_parser


@dataclass(frozen=True)
class ListItemLines:
    """One item's lines, 0-based and relative to the list block's first line."""

    line: int  # its marker's line
    topic_end: int  # exclusive: the end of its first paragraph (line + 1 when it has none)
    body_end: int  # exclusive: where its first nested list starts (else ``end``)
    end: int  # exclusive: the end of the item with its nested items (see ``items_of`` for blank lines)
    parent: int  # index of the enclosing item in this list's items, -1 for a top item


_LISTS = ("bullet_list_open", "ordered_list_open")
_MD = block_parser(front_matter=False)
_LOCK = threading.Lock()
_CACHE: OrderedDict[str, tuple[ListItemLines, ...]] = OrderedDict()
_MAX = 4_000


def list_items(block_text: str) -> tuple[ListItemLines, ...]:
    """The items of a list block (its source lines joined), in document order."""
    with _LOCK:
        hit = _CACHE.get(block_text)
        if hit is not None:
            _CACHE.move_to_end(block_text)
            return hit
        tokens = _MD.parse(block_text, {})
    items = items_of(tokens, block_text.split("\n"))
    with _LOCK:
        _CACHE[block_text] = items
        while len(_CACHE) > _MAX:
            _CACHE.popitem(last=False)
    return items


def items_of(tokens: list[Any], lines: list[str] | None, base: int = 0) -> tuple[ListItemLines, ...]:
    """The list items among ``tokens`` (one list's, or a list block's text's), their lines
    relative to line ``base`` (of what the tokens' maps count). With ``lines`` (the text the
    maps count), an item's end leaves out its trailing blank lines; without, the caller does."""
    found: list[list[int]] = []  # [line, topic_end, body_end, end, parent]
    # Open containers: an item's index, -1 a list, -2 anything else (items inside one are content).
    stack: list[int] = []
    items: list[int] = []  # the open items, innermost last
    other = 0  # open containers that are neither a list nor an item
    for i, tok in enumerate(tokens):
        nesting = tok.nesting
        if nesting == 0:
            continue
        if nesting < 0:
            if stack:
                top = stack.pop()
                if top >= 0:
                    items.pop()
                elif top == -2:
                    other -= 1
            continue
        kind = tok.type
        if kind == "list_item_open" and not other and tok.map is not None:
            a, z = tok.map
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            topic_end = nxt.map[1] if nxt is not None and nxt.type == "paragraph_open" and nxt.map[0] == a else a + 1
            while lines is not None and z > a + 1 and not lines[z - 1].strip():
                z -= 1
            found.append([a, min(topic_end, z), -1, z, items[-1] if items else -1])
            stack.append(len(found) - 1)
            items.append(len(found) - 1)
        elif kind in _LISTS:
            owner = stack[-1] if stack else -1
            if owner >= 0 and found[owner][2] < 0 and tok.map is not None:
                found[owner][2] = tok.map[0]
            stack.append(-1)
        else:
            stack.append(-2)
            other += 1
    return tuple(ListItemLines(a - base, t - base, (b if b >= 0 else z) - base, z - base, p) for a, t, b, z, p in found)
