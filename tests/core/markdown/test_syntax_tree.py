"""The syntax tree of a markdown document (core/markdown/syntax_tree.py): node types, the
structure's node ids and ranges on top-level nodes, line-based ranges inside."""

from __future__ import annotations

from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.markdown.syntax_tree import ast_of


def test_ast_nodes_carry_structure_ids_and_ranges() -> None:
    text = "# T\n\n> quoted\n> more\n\n1. one\n2. two\n\n[^n]: note\n\n<div>x</div>\n\n$$\nx\n$$\n\n---\n"
    s = structure_of(text)
    nodes = ast_of(s)
    assert [(n.type, n.nodeId) for n in nodes] == [
        ("heading", "h-0"),
        ("blockquote", "bq-0"),
        ("orderedList", "list-0"),
        ("footnoteDefinition", "fn-0"),
        ("htmlBlock", "html-0"),
        ("mathBlock", "math-0"),
        ("horizontalRule", "hr-0"),
    ]
    assert [(n.from_, n.to) for n in nodes] == [(b.start, b.end) for b in s.blocks]
    quote = nodes[1].children[0]
    assert (quote.type, text[quote.from_ : quote.to], quote.content) == ("paragraph", "quoted\n> more", "quoted\nmore")
    assert nodes[2].attrs is None  # starts at 1
    assert [text[i.children[0].from_ : i.children[0].to] for i in nodes[2].children] == ["one", "two"]
    assert nodes[3].attrs == {"label": "n"} and nodes[3].children[0].content == "note"
    assert nodes[4].content == "<div>x</div>\n" and nodes[5].content == "\nx\n"
