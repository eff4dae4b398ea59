"""The one digest of a markdown document (``core/markdown/digest``), mapped by each surface."""

from __future__ import annotations

from jupyter_mcp_lab.core.markdown.digest import document_digest, line_count, section_digests
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.markdown.type_names import type_name
from jupyter_mcp_lab.core.text import word_count

DOC = "---\nt: 1\n---\n\n# Title\n\nSome words here.\n\n## Part\n\n- a\n- b\n\n```py\nx = 1\n```\n\n中文 text\n"


def test_counts() -> None:
    s = structure_of(DOC)
    d = document_digest(s)
    assert (d.title, d.headings, d.paragraphs, d.front_matter) == ("Title", 2, 2, True)
    assert d.block_counts == {"front_matter": 1, "heading": 2, "paragraph": 2, "list": 1, "code": 1}
    assert (d.lines, d.characters, d.words) == (18, len(DOC), word_count(DOC))
    named = document_digest(s, type_name)
    assert named.block_counts == {"frontmatter": 1, "heading": 2, "paragraph": 2, "bulletList": 1, "codeBlock": 1}
    assert (named.headings, named.paragraphs, named.front_matter) == (2, 2, True)


def test_words_lines_and_sections() -> None:
    assert word_count("two words, 3 of them") == 5
    assert line_count(structure_of("a\nb")) == line_count(structure_of("a\nb\n")) == 2
    sections = section_digests(structure_of("intro\n\n# A\n\none two\n\n## B\n\nthree\n"))
    assert [(x.id, x.level, x.title, x.words) for x in sections] == [
        ("preamble", 0, "", 1),
        ("h-0", 1, "A", 5),  # the heading, its body and the subsection
        ("h-1", 2, "B", 2),
    ]
