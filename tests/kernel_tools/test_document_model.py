"""The document view's pure model: located suggestions marked in rendered markdown, the
HTML well formed whatever the marks span, every mark visible (marked source as a fallback)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from kernel_tools.render import markdown_html
from kernel_tools.widgets.document_model import OVERLAP_REASON, place, view

TEXT = "# Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n\n## Old heading\n\n- one\n- two\n\n```py\nx = 1\n```\n"
VOID = {"br", "hr", "img", "input"}


def at(text: str, original: str, new: str, id: str = "s1", where: int | None = None) -> dict[str, Any]:
    start = text.index(original) if where is None else where
    return {
        "id": id,
        "currentStart": start,
        "currentEnd": start + len(original),
        "original": original,
        "new": new,
        "author": "agent-a",
        "rationale": "why not",
        "created": 1.0,
        "lineStart": 1,
        "lineEnd": 1,
        "status": "pending",
        "path": "notes.md",
    }


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ok = True

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.ok = False


def well_formed(html: str) -> bool:
    parser = _Balance()
    parser.feed(html)
    return parser.ok and not parser.stack


def marked(html: str, kind: str, id: str) -> list[str]:
    """The texts of the ``<kind>`` marks of suggestion ``id``."""
    import re

    return re.findall(rf'<{kind} class="mcpw-{kind}" data-id="{id}">(.*?)</{kind}>', html, re.S)


def test_without_suggestions_it_is_the_rendered_markdown() -> None:
    assert view(TEXT, "markdown", [])["html"] == markdown_html(TEXT)


def test_a_word_change_is_marked_inside_its_paragraph() -> None:
    shown = view(TEXT, "markdown", [at(TEXT, "brown", "red")])
    html = shown["html"]
    assert "<p>The quick <del" in html
    assert marked(html, "del", "s1") == ["brown"] and marked(html, "ins", "s1") == ["red"]
    assert "<h1>Notes</h1>" in html and "<h2>Old heading</h2>" in html  # untouched blocks as rendered
    assert shown["marks"] == [
        {"id": "s1", "author": "agent-a", "rationale": "why not", "lines": "line 1", "created": 1.0}
    ]
    assert well_formed(html)


def test_a_change_across_paragraphs_keeps_the_html_well_formed() -> None:
    change = at(TEXT, ".\n\nA lazy dog sleeps", " jumps.\n\nA dog.\n\nNew para")
    html = view(TEXT, "markdown", [change])["html"]
    assert well_formed(html)
    assert marked(html, "del", "s1") == [".", "A lazy dog sleeps"]  # one mark per text node
    assert marked(html, "ins", "s1") == [" jumps.", "A dog.", "New para"]


def test_headings_and_list_items_keep_their_structure() -> None:
    heading = at(TEXT, "## Old heading\n", "## New heading\n", "h")
    item = at(TEXT, "two", "three", "i")
    inserted = at(TEXT, "", "## Inserted\n\n", "n", where=TEXT.index("```"))
    html = view(TEXT, "markdown", [heading, item, inserted])["html"]
    assert well_formed(html)
    assert '<h2><del class="mcpw-del" data-id="h">Old heading</del></h2>' in html
    assert '<h2><ins class="mcpw-ins" data-id="h">New heading</ins></h2>' in html
    assert '<li><del class="mcpw-del" data-id="i">two</del><ins class="mcpw-ins" data-id="i">three</ins></li>' in html
    assert '<h2><ins class="mcpw-ins" data-id="n">Inserted</ins></h2>' in html
    assert '<code class="language-py">x = 1' in html  # the fence after the insertion is still a fence


def test_a_mark_the_rendering_would_hide_shows_as_marked_source() -> None:
    text = "See [the docs](http://example.org/old) here.\n\nNext.\n"
    html = view(text, "markdown", [at(text, "old", "new")])["html"]
    assert '<pre class="mcpw-source">' in html  # a link target can't carry a mark: the source can
    assert marked(html, "del", "s1") == ["old"] and marked(html, "ins", "s1") == ["new"]
    assert "<p>Next.</p>" in html and well_formed(html)


def test_other_kinds_show_as_marked_source() -> None:
    text = "on:\n  push:\n    branches: [main]\n"
    html = view(text, "yaml-workflow", [at(text, "main", "develop")])["html"]
    assert html.startswith('<pre class="mcpw-source">on:')
    assert marked(html, "ins", "s1") == ["develop"]


def test_crlf_offsets_index_the_text_as_is() -> None:
    text = "a\r\nb brown\r\n\r\nc\r\n"
    html = view(text, "markdown", [at(text, "brown", "red")])["html"]
    assert marked(html, "del", "s1") == ["brown"] and "<p>c</p>" in html


def test_html_in_the_document_or_the_suggestion_stays_text() -> None:
    text = "Hello <b>world</b>.\n"
    html = view(text, "markdown", [at(text, "world", "<script>alert(1)</script>")])["html"]
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>" not in html


def test_unplaceable_and_overlapping_suggestions_are_listed_not_marked() -> None:
    first = at(TEXT, "quick brown", "slow red", "a")
    overlapping = at(TEXT, "brown fox", "grey wolf", "b")
    gone = {**at(TEXT, "lazy", "busy", "c"), "currentStart": None, "currentEnd": None}
    placed, unplaced = place([overlapping, gone, first])
    assert [s["id"] for s in placed] == ["a"]
    assert {s["id"]: s["why"] == OVERLAP_REASON for s in unplaced} == {"b": True, "c": False}
    shown = view(TEXT, "markdown", [overlapping, gone, first])
    assert [m["id"] for m in shown["marks"]] == ["a"]
    assert {c["id"] for c in shown["unplaced"]} == {"b", "c"}
    assert all(c["why"] and c["diff"] for c in shown["unplaced"])


def test_an_insertion_at_the_end_after_a_changed_last_block_is_drawn_once() -> None:
    # An insertion where one changed chunk ends (here: the end of the file) belongs to the
    # ranges of two chunks; it was drawn in both (notebook 02's "Action items" twice).
    text = "# T\n\n- a\n- b\n"
    end = len(text)
    added = {**at(text, "", "\n## Action items\n\n- x\n", id="s1", where=end)}
    changed = at(text, "b", "B", id="s2")
    html = view(text, "markdown", [added, changed])["html"]
    assert html.count("Action items") == 1, html
    assert marked(html, "ins", "s2") == ["B"]
    assert well_formed(html)
    assert '<div class="mcpw-changed"></div>' not in html
