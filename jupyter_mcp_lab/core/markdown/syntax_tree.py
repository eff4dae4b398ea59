"""The syntax tree of a markdown document (the nodes of VMark's ``get_document_ast``).

Built from markdown-it's block tokens (the structure parser's rules: CommonMark, GFM
tables, front matter, ``$$`` math, footnotes); inline markup stays as its markdown source
in ``content``. Top-level nodes carry the structure's node ids (h-0, p-3, …) and its exact
ranges; nested nodes have line-based ranges (from the first non-blank character of their
first line to the end of their last line).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from ..text import LineIndex
from .block_parser import block_parser
from .structure import Structure
from .table_model import split_row
from .type_names import type_name

_PARSER = block_parser(guards=False)  # markdown-it's own tokens (the structure parser's rules)
_PARSER_LOCK = threading.Lock()  # a MarkdownIt instance is not thread-safe
_TASK = re.compile(r"^\[([ xX])\](?:\s|$)")

_CONTAINERS = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "blockquote_open": "blockquote",
    "bullet_list_open": "bulletList",
    "ordered_list_open": "orderedList",
    "list_item_open": "listItem",
    "table_open": "table",
    "tr_open": "tableRow",
    "th_open": "tableHeader",
    "td_open": "tableCell",
    "footnote_reference_open": "footnoteDefinition",
}
_TRANSPARENT = {"thead_open", "tbody_open", "thead_close", "tbody_close"}
_LEAVES = {
    "fence": "codeBlock",
    "code_block": "codeBlock",
    "hr": "horizontalRule",
    "math_block": "mathBlock",
    "math_block_label": "mathBlock",
    "html_block": "htmlBlock",
    "front_matter": "frontmatter",
}


class AstNode(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    type: str
    nodeId: str | None = Field(None, description="Top-level blocks: the node id the edit tools take.")
    from_: int = Field(alias="from", description="Start (code point offset).")
    to: int = Field(description="End (code point offset).")
    lineStart: int
    lineEnd: int
    content: str | None = Field(None, description="Text of a leaf: inline markdown, code, math, HTML.")
    attrs: dict[str, Any] | None = Field(None, description="level, language, checked, start, label.")
    childCount: int | None = Field(None, description="Set when children were left out to fit the response.")
    children: list[AstNode] | None = None

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}


class _Builder:
    def __init__(self, s: Structure) -> None:
        self.s = s
        self.text = s.text
        self.lines: LineIndex = s.lines
        self.by_line = {b.line_start: b for b in s.blocks}

    def span(self, line_map: list[int] | None, parent: AstNode | None) -> tuple[int, int, int, int]:
        if line_map is None:  # cells and the like: their parent's lines
            if parent is None:
                return 0, 0, 1, 1
            return parent.from_, parent.to, parent.lineStart, parent.lineEnd
        first, last = line_map[0] + 1, max(line_map[1], line_map[0] + 1)
        while last > first and not self.text[self.lines.start_of(last) : self.lines.end_of(last)].strip():
            last -= 1
        start = self.lines.start_of(first)
        line = self.text[start : self.lines.end_of(first)]
        start += len(line) - len(line.lstrip())
        return start, self.lines.end_of(last), first, last

    def node(self, tok: Any, kind: str, parent: AstNode | None) -> AstNode:
        a, z, ls, le = self.span(tok.map, parent)
        node = AstNode(type=kind, from_=a, to=z, lineStart=ls, lineEnd=le)
        if parent is None and tok.map is not None:
            block = self.by_line.get(tok.map[0] + 1)
            if block is not None:
                node.nodeId, node.from_, node.to = block.id, block.start, block.end
                node.lineStart, node.lineEnd = block.line_start, block.line_end
                if kind in ("bulletList", "orderedList"):
                    node.type = type_name(block)
        attrs: dict[str, Any] = {}
        if kind == "heading":
            attrs["level"] = int(tok.tag[1])
        elif kind == "codeBlock":
            node.content = tok.content
            if tok.info.strip():
                attrs["language"] = tok.info.strip().split()[0]
        elif kind == "orderedList" and tok.attrGet("start") is not None:
            attrs["start"] = int(tok.attrGet("start"))
        elif kind == "footnoteDefinition":
            attrs["label"] = str((tok.meta or {}).get("label", ""))
        elif kind in ("mathBlock", "htmlBlock", "frontmatter"):
            node.content = tok.content
        node.attrs = attrs or None
        return node

    def tree(self, tokens: list[Any]) -> list[AstNode]:
        root: list[AstNode] = []
        stack: list[AstNode] = []
        cells: list[int] = []  # per open row: the next cell's index

        def add(node: AstNode) -> None:
            if stack:
                parent = stack[-1]
                parent.children = [*(parent.children or []), node]
            else:
                root.append(node)

        for tok in tokens:
            if tok.type in _TRANSPARENT:
                continue
            if tok.nesting == -1:
                if stack and stack.pop().type == "tableRow":
                    cells.pop()
                continue
            parent = stack[-1] if stack else None
            if tok.type == "inline":
                if parent is not None:
                    self.inline(parent, tok, cells)
                continue
            kind = _CONTAINERS.get(tok.type) if tok.nesting == 1 else _LEAVES.get(tok.type)
            if kind is None:
                kind = tok.type.removesuffix("_open") or "block"
            node = self.node(tok, kind, parent)
            add(node)
            if tok.nesting == 1:
                stack.append(node)
                if kind == "tableRow":
                    cells.append(0)
        return root

    def inline(self, parent: AstNode, tok: Any, cells: list[int]) -> None:
        """A leaf's text; a table cell also gets its own range within the row's line."""
        if parent.type in ("tableHeader", "tableCell") and cells:
            index = cells[-1]
            cells[-1] += 1
            row_start = self.lines.start_of(parent.lineStart)
            line = self.text[row_start : self.lines.end_of(parent.lineStart)]
            spans = split_row(line)[0]
            if index < len(spans):
                a, z = spans[index]
                raw = line[a:z]
                lead = len(raw) - len(raw.lstrip())
                parent.from_, parent.to = row_start + a + lead, row_start + a + len(raw.rstrip())
        elif parent.nodeId is None and parent.type == "paragraph" and tok.content:
            # Inside a list item, quote or footnote: start at the text, after the markers.
            line_start = self.lines.start_of(parent.lineStart)
            line = self.text[line_start : self.lines.end_of(parent.lineStart)]
            at = line.find(tok.content.split("\n", 1)[0], parent.from_ - line_start)
            if at >= 0:
                parent.from_ = line_start + at
        parent.content = tok.content

    @staticmethod
    def tasks(nodes: list[AstNode]) -> None:
        """List items whose first paragraph starts with [ ] or [x] are task items."""
        for n in nodes:
            if n.type == "listItem" and n.children and n.children[0].type == "paragraph":
                m = _TASK.match(n.children[0].content or "")
                if m:
                    n.type = "taskItem"
                    n.attrs = {**(n.attrs or {}), "checked": m.group(1) in "xX"}
            if n.children:
                _Builder.tasks(n.children)
                if n.type == "bulletList" and any(c.type == "taskItem" for c in n.children):
                    n.type = "taskList"


def ast_of(s: Structure) -> list[AstNode]:
    with _PARSER_LOCK:
        tokens = _PARSER.parse(s.text, {})
    builder = _Builder(s)
    nodes = builder.tree(tokens)
    _Builder.tasks(nodes)
    return nodes
