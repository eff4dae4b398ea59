"""Whole blocks (``core/markdown/blocks``): the one implementation behind every surface."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.markdown.blocks import (
    delete_block,
    insert_after,
    move_block,
    resolve_block,
    update_block,
)
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.text import apply_edits
from tests.core.test_structure_props import markdown_docs


def test_resolve_reports_the_id_or_the_argument() -> None:
    text = "# T\n\nA.\n"
    with pytest.raises(DomainError) as info:
        resolve_block(text, "p-9", None)
    assert (info.value.code, info.value.details) == ("NOT_FOUND", {"node_id": "p-9"})
    assert structure_of(text).revision in info.value.message
    with pytest.raises(DomainError) as info:
        resolve_block(structure_of(text), "p-9", "table_id")
    assert info.value.details == {"argument": "table_id"}
    assert resolve_block(text, 6).id == "p-0"


def test_update_keeps_heading_marks_only_when_asked() -> None:
    text = "## Old ##\n\nBody.\n"
    h = structure_of(text).by_id["h-0"]
    assert apply_edits(text, [update_block(text, h, "New\n")]) == "New\n\nBody.\n"
    assert apply_edits(text, [update_block(text, h, "New", keep_heading=True)]) == "## New\n\nBody.\n"
    assert apply_edits(text, [update_block(text, h, "# Own", keep_heading=True)]) == "# Own\n\nBody.\n"


@pytest.mark.parametrize(
    ("text", "node", "after", "expected"),
    [
        ("A.\n\nB.\n\nC.\n", "p-2", None, "C.\n\nA.\n\nB.\n"),
        ("A.\n\nB.\n\nC.\n", "p-0", "p-2", "B.\n\nC.\n\nA.\n"),
        ("A.\n\nB.\n\nC.", "p-2", "p-0", "A.\n\nC.\n\nB."),  # the file still ends without a break
        ("# T\nA.\n\nB.\n", "p-1", "h-0", "# T\n\nB.\n\nA.\n"),  # stays its own block before A.
        ("---\nt: 1\n---\n\nA.\n\nB.\n", "p-1", None, "---\nt: 1\n---\n\nB.\n\nA.\n"),
        ("A.\n\nB.\n", "p-1", "p-0", "A.\n\nB.\n"),  # already there
        ("A.\n\nB.\n", "p-0", None, "A.\n\nB.\n"),
    ],
)
def test_move(text: str, node: str, after: str | None, expected: str) -> None:
    s = structure_of(text)
    target = None if after is None else s.by_id[after]
    assert apply_edits(text, move_block(text, s.by_id[node], target)) == expected


def test_move_after_itself_is_refused() -> None:
    b = structure_of("A.\n\nB.\n").by_id["p-0"]
    with pytest.raises(ArgumentError):
        move_block("A.\n\nB.\n", b, b)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown_docs())
@example("")  # the generator can draw a document without blocks (its only block empty)
def test_deleting_what_was_inserted_at_the_end_gives_the_text_back(text: str) -> None:
    s = structure_of(text)
    assume(s.blocks)  # nothing to insert after
    last = s.blocks[-1]
    inserted = apply_edits(text, [insert_after(text, last, "Inserted paragraph.")])
    new = structure_of(inserted).blocks[-1]
    assume(inserted[new.start : new.end] == "Inserted paragraph.")  # not swallowed by an unclosed fence
    assert apply_edits(inserted, [delete_block(inserted, new)]) == text
