"""Markdown, YAML and text documents are one part."""

from __future__ import annotations

import pytest

from jupyter_mcp_lab.core.content import WHOLE, content_of, locate
from jupyter_mcp_lab.core.errors import DomainError


def test_a_text_document_is_one_part() -> None:
    content = content_of("markdown", "# T\n\nBody.\n")
    assert [(p.id, p.type) for p in content.parts()] == [(WHOLE, "markdown")]
    assert content.with_part(WHOLE, "new").serialize() == "new"
    assert content_of("yaml-workflow", "on: push\n").parts()[0].type == "text"
    with pytest.raises(DomainError):
        content.part("cell-1")


def test_locate_maps_within_the_whole_text() -> None:
    base = content_of("markdown", "alpha beta gamma")
    later = content_of("markdown", "NEW alpha beta gamma")
    assert locate(base, later, WHOLE, 6, 10, "beta") == (10, 14)
