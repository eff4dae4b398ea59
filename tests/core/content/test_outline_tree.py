"""OPML rows as a tree: ids that last, notes, checkbox states, byte-for-byte writes, hostile input."""

from __future__ import annotations

import re
import time

import pytest

from jupyter_mcp_lab.core.content import OutlineContent, content_of
from jupyter_mcp_lab.core.content.outline_tree import OutlineTree
from jupyter_mcp_lab.core.errors import DomainError
from tests.surfaces.outliner.opml import OMNI, WITH_IDS


def tree(text: str) -> OutlineTree:
    content = content_of("outline", text)
    assert isinstance(content, OutlineContent)
    return OutlineTree(content)


def test_rows_topics_notes_levels_and_children() -> None:
    t = tree(OMNI)
    assert len(t.rows) == 11 and t.top == ("row-0", "row-3", "row-8")
    launch = t.row("row-0")
    assert launch.text == "Launch" and launch.note == "Ship the first version\nto the pilot users."
    assert launch.children == ("row-1", "row-2") and launch.level == 0 and launch.parent is None
    assert t.row("row-5").text == "Résumé des entretiens — 東京" and t.row("row-6").level == 2
    assert [r.id for r in t.walk("row-3")] == ["row-3", "row-4", "row-5", "row-6", "row-7"]
    assert [r.id for r in t.walk("row-3", max_depth=1)] == ["row-3", "row-4", "row-5"]


def test_checkbox_states_mixed_from_children() -> None:
    t = tree(OMNI)
    assert [t.state(f"row-{i}") for i in range(11)] == [
        "checked",  # both children checked
        "checked",
        "checked",
        "mixed",  # Research: one checked, one mixed
        "checked",
        "mixed",  # Draft checked, Review unchecked
        "checked",
        "unchecked",
        "none",
        "none",
        "none",
    ]
    assert tree('<opml><body><outline text="a" _status="indeterminate"/></body></opml>').state("row-0") == "mixed"


def test_ids_are_stored_without_touching_anything_else() -> None:
    content = content_of("outline", OMNI)
    assert isinstance(content, OutlineContent)
    stored = content.with_ids()
    text = stored.serialize()
    # Every byte of the file is still there; only ' id="row-N"' was added after each tag name.
    assert re.sub(r' id="row-\d+"', "", text) == OMNI
    assert [r.id for r in stored.rows] == [r.id for r in content.rows]
    assert all(r.stored_id for r in stored.rows)
    # Stored ids survive a reload and an insertion above them.
    reloaded = content_of("outline", text)
    assert [p.id for p in reloaded.parts()] == [p.id for p in stored.parts()]
    above = text.replace("<body>", '<body>\n    <outline text="New first"/>', 1)
    moved = content_of("outline", above)
    assert moved.part("row-0").text == "Launch" and moved.part("row-7").text == "Review"
    assert moved.parts()[0].id == "row-0-2"  # the new row's positional id is not a stored one
    duplicate = content_of("outline", '<opml><body><outline id="x" text="1"/><outline id="x" text="2"/></body></opml>')
    assert [p.id for p in duplicate.parts()] == ["x", "x-2"]
    assert stored.with_ids() is stored  # nothing missing: unchanged


def test_a_topic_change_keeps_every_other_byte_and_line_breaks_survive() -> None:
    content = content_of("outline", WITH_IDS)
    changed = content.with_part("a1", "Two\nlines & <tags>").serialize()
    assert changed == WITH_IDS.replace('text="Alpha one"', 'text="Two&#10;lines &amp; &lt;tags&gt;"')
    again = content_of("outline", changed)
    assert again.part("a1").text == "Two\nlines & <tags>"
    assert content_of("outline", WITH_IDS).serialize() == WITH_IDS  # a round trip changes nothing


def test_an_unknown_row_is_not_found() -> None:
    with pytest.raises(DomainError) as missing:
        tree(OMNI).row("nope")
    assert missing.value.code == "NOT_FOUND" and missing.value.details == {"row": "nope"}


@pytest.mark.parametrize(
    "hostile",
    [
        '<!DOCTYPE opml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><opml><body><outline text="&c;"/></body></opml>',
        '<!DOCTYPE opml [<!ENTITY ext SYSTEM "http://127.0.0.1:9/x">]>'
        '<opml><body><outline text="&ext;"/></body></opml>',
    ],
)
def test_entity_bombs_and_external_entities_are_refused(hostile: str) -> None:
    with pytest.raises(DomainError) as refused:
        content_of("outline", hostile)
    assert refused.value.code == "INVALID_PATH"


def test_a_very_deep_outline_reads_or_is_refused_quickly() -> None:
    depth = 100_000
    text = "<opml><body>" + '<outline text="x">' * depth + "</outline>" * depth + "</body></opml>"
    began = time.perf_counter()
    try:
        t = tree(text)
    except DomainError as exc:
        assert exc.code == "INVALID_PATH"
    else:
        assert len(t.rows) == depth and t.rows[-1].level == depth - 1
        assert t.state("row-0") == "none" and len(list(t.walk("row-99990"))) == 10
    assert time.perf_counter() - began < 10
