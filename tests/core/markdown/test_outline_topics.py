"""A markdown row's topic reads as the plain text it renders as, and a topic written reads
back as it was written (``outline_topics``)."""

from __future__ import annotations

import random

import pytest

from jupyter_mcp_lab.core.content.part_edits import PartEdit
from jupyter_mcp_lab.core.markdown.outline_edits import apply_row_edit, row_edit
from jupyter_mcp_lab.core.markdown.outline_rows import parse_outline
from jupyter_mcp_lab.core.markdown.outline_topics import plain_topic

DOC = "# Plan\n\n- first\n\n## Part\n"
TOPICS = [
    "a*b",
    "[x]",
    "[x] not a checkbox",
    "[ ]",
    "snake_case_name and _under_",
    "**not bold**",
    "# not a heading",
    "1. not a list",
    "2) nor this",
    "- nor this",
    "> nor a quote",
    "back\\slash \\* \\\\",
    "<b>tag</b> & <https://x.org>",
    "`code` and ``two``",
    "[link](https://x.org) ![img](i.png)",
    "&amp; &#42; &copy;",
    "~~struck~~ $x$ and $y$",
    "C #",
    "ends with \\",
    "Ideas & notes — 東京",
]


def _added(topic: str, parent: str | None, after: str | None) -> tuple[str, str]:
    out = apply_row_edit(DOC, PartEdit("new", "insert", after=after, fields={"parent": parent, "topic": topic}))
    rows = parse_outline(out).rows
    return out, next(r.text for r in rows if r.text not in ("Plan", "first", "Part"))


@pytest.mark.parametrize("topic", TOPICS)
def test_a_topic_reads_back_as_written(topic: str) -> None:
    plan, first, part = (r.id for r in parse_outline(DOC).rows)
    for parent, after in ((plan, first), (plan, part), (first, None)):  # an item, a heading, a nested item
        out, read = _added(topic, parent, after)
        assert read == topic, out
        row = next(r for r in parse_outline(out).rows if r.text == topic)
        assert row_edit(parse_outline(out), PartEdit(row.id, "set", fields={"topic": read})) == []


def test_plain_topics_are_written_as_they_are() -> None:
    plan, first, _ = (r.id for r in parse_outline(DOC).rows)
    for topic in ("Ideas & notes — 東京", "snake_case_name", "a*b", "Tag v1.0", "$5 or $6"):
        out, _ = _added(topic, plan, first)
        assert f"- {topic}\n" in out
    assert "- \\[x] done\n" in _added("[x] done", plan, first)[0]
    assert "- \\*\\*not bold\\*\\*\n" in _added("**not bold**", plan, first)[0]
    assert "## C \\#\n" in _added("C #", plan, next(r.id for r in parse_outline(DOC).rows if r.text == "Part"))[0]


def test_random_topics_read_back_as_written() -> None:
    rng = random.Random(16)
    plan, first, part = (r.id for r in parse_outline(DOC).rows)
    alphabet = [*"ab *_[]#\\<>`&!~$()-.:1x;", "&amp;", "http://", "  "]
    for _ in range(300):
        topic = " ".join("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))).split())
        if not topic:
            continue
        for after in (first, part):
            out, read = _added(topic, plan, after)
            assert read == topic, (topic, out)


def test_markup_in_a_written_file_reads_as_rendered() -> None:
    doc = (
        "# The **plan** for `v2` &amp; more\n\n"
        "- [ ] Read [the spec](https://x.org/spec) and ![a chart](c.png)\n"
        "- a\\*b and \\[x] and <span>inline</span> html\n"
        "- ~~dropped~~ *kept*\n  on two lines\n"
        "- snake_case and 2 * 3\n"
    )
    rows = parse_outline(doc).rows
    assert [r.text for r in rows] == [
        "The plan for v2 & more",
        "Read the spec and a chart",
        "a*b and [x] and inline html",
        "dropped kept on two lines",
        "snake_case and 2 * 3",
    ]
    # the topic just read, written back: nothing changes (the markup stays)
    outline = parse_outline(doc)
    for r in rows:
        assert row_edit(outline, PartEdit(r.id, "set", fields={"topic": r.text})) == []
    assert row_edit(outline, PartEdit(rows[0].id, "set", fields={"topic": " The  plan\nfor v2 & more"})) == []
    # another topic replaces the topic's markup by the text given
    out = apply_row_edit(doc, PartEdit(rows[1].id, "set", fields={"topic": "Read the spec"}))
    assert "- [ ] Read the spec\n" in out
    assert plain_topic("no markup at all") == "no markup at all"
