"""The outline view of markdown: headings and list items as rows, notes, states, and ids that
stay the same for rows an edit does not touch."""

from __future__ import annotations

import re

from jupyter_mcp_lab.core.content.outline_tree import OutlineTree
from jupyter_mcp_lab.core.content.part_edits import PartEdit
from jupyter_mcp_lab.core.markdown.outline_edits import apply_row_edit
from jupyter_mcp_lab.core.markdown.outline_rows import markdown_outline, parse_outline

DOC = """---
title: plan
---
Intro before any heading.

- inbox item

# Project Plan

Ship the first version
to the pilot users.

```py
# not a heading
```

- [x] Write release notes
- [ ] Tag v1.0
  - [x] sub one

    continuation of sub one
  - [ ] sub two
- plain item
  lazy line

## Research

1. Interview users
2. Résumé des entretiens — 東京

> - a quoted item is content

Setext Title
------------

# Other
### Deep
- Notes
"""


def rows(text: str) -> list[tuple[str, int, str | None]]:
    o = parse_outline(text)
    topic = {r.id: r.text for r in o.rows}
    return [(r.text, r.level, topic.get(r.parent) if r.parent else None) for r in o.rows]


def ids(text: str) -> dict[str, str]:
    return {r.text: r.id for r in parse_outline(text).rows}


def test_headings_and_items_are_rows_nested_as_the_document_reads() -> None:
    assert rows(DOC) == [
        ("inbox item", 0, None),
        ("Project Plan", 0, None),
        ("Write release notes", 1, "Project Plan"),
        ("Tag v1.0", 1, "Project Plan"),
        ("sub one", 2, "Tag v1.0"),
        ("sub two", 2, "Tag v1.0"),
        ("plain item lazy line", 1, "Project Plan"),
        ("Research", 1, "Project Plan"),
        ("Interview users", 2, "Research"),
        ("Résumé des entretiens — 東京", 2, "Research"),
        ("Setext Title", 1, "Project Plan"),
        ("Other", 0, None),
        ("Deep", 1, "Other"),  # a skipped level nests under the nearest heading above
        ("Notes", 2, "Deep"),
    ]
    o = parse_outline(DOC)
    plan = o.rows[1]
    assert plan.children == tuple(
        r.id
        for r in o.rows
        if r.text in ("Write release notes", "Tag v1.0", "plain item lazy line", "Research", "Setext Title")
    )
    assert all(re.fullmatch(r"md-[0-9a-f]{8}(-\d+)?", r.id) for r in o.rows)


def test_states_notes_and_topic_spans() -> None:
    o = parse_outline(DOC)
    tree = OutlineTree(o)
    by = {r.text: r for r in o.rows}
    assert by["Write release notes"].status == "checked" and by["Tag v1.0"].status == "unchecked"
    assert tree.state(by["Tag v1.0"].id) == "mixed"  # its items: one checked, one not
    assert by["Project Plan"].status == "none" and by["plain item lazy line"].status == "none"
    assert by["Project Plan"].note == "Ship the first version\nto the pilot users.\n\n```py\n# not a heading\n```"
    assert by["sub one"].note == "continuation of sub one"
    assert by["Tag v1.0"].note is None and by["Research"].note is None and by["Notes"].note is None
    for r in o.rows:  # value_span is where the topic is in the source
        a, b = r.value_span or (0, 0)
        assert " ".join(DOC[a:b].split()) == r.text
    hits = tree.search("pilot", "notes", False)
    assert [m.row.text for m in hits] == ["Project Plan"]
    assert [m.row.text for m in tree.search("東京", "all", False)] == ["Résumé des entretiens — 東京"]


def test_a_document_without_headings_or_lists_has_no_rows_and_crlf_reads_the_same() -> None:
    assert parse_outline("").rows == () and parse_outline("Just text.\n\n> - quoted\n").rows == ()
    crlf = DOC.replace("\n", "\r\n")
    assert rows(crlf) == rows(DOC) and ids(crlf) == ids(DOC)
    o = parse_outline(crlf)
    assert {r.text: r.note for r in o.rows}["sub one"] == "continuation of sub one"


def test_ids_are_stable_under_edits_elsewhere() -> None:
    before = ids(DOC)
    # text above: a paragraph, a changed intro, front matter
    for edited in (
        DOC.replace("Intro before any heading.", "A longer intro.\n\nWith a second paragraph."),
        DOC.replace("title: plan", "title: the plan\nauthor: Ana"),
        DOC.replace("```py\n# not a heading\n```", "A table:\n\n| a | b |\n|---|---|\n| 1 | 2 |"),
    ):
        assert ids(edited) == before
    o = parse_outline(DOC)
    by = {r.text: r.id for r in o.rows}
    edits = [
        PartEdit(
            "new", "insert", after=by["Write release notes"], fields={"parent": by["Project Plan"], "topic": "Added"}
        ),
        PartEdit("new", "insert", after=None, fields={"parent": None, "topic": "Top first"}),
        PartEdit(by["Tag v1.0"], "delete"),
        PartEdit(by["Research"], "delete"),
        PartEdit(by["plain item lazy line"], "move", after=None, fields={"parent": by["Deep"]}),
        PartEdit(by["Deep"], "move", after=None, fields={"parent": by["Project Plan"]}),
        PartEdit(by["Write release notes"], "set", fields={"state": "unchecked", "note": "a new note"}),
        PartEdit(by["Project Plan"], "set", fields={"note": "Another intro."}),
    ]
    for edit in edits:
        after = ids(apply_row_edit(DOC, edit))
        touched = {edit.part} if edit.op == "move" else set()
        removed = {r.id for r in OutlineTree(o).walk(edit.part)} if edit.op == "delete" else set()
        for topic, row_id in before.items():
            if row_id in removed or row_id in touched:
                continue
            assert after[topic] == row_id, (edit, topic)
    # the moved row keeps its own rows' ids (their parent's topic is the same)
    moved = ids(apply_row_edit(DOC, PartEdit(by["Tag v1.0"], "move", after=None, fields={"parent": by["Other"]})))
    assert moved["sub one"] == before["sub one"] and moved["sub two"] == before["sub two"]


def test_what_changes_an_id() -> None:
    base = "# A\n- Notes\n- x\n# B\n- Notes\n- Notes\n"
    first = parse_outline(base)
    a_notes, b_notes, b_notes2 = (r.id for r in first.rows if r.text == "Notes")
    assert len({a_notes, b_notes, b_notes2}) == 3 and b_notes2 == b_notes + "-2"
    renamed = parse_outline(base.replace("# A", "# Alpha"))
    assert renamed.rows[0].id != first.rows[0].id  # its own topic changed
    assert renamed.rows[1].id != a_notes and renamed.rows[2].id != first.rows[2].id  # its parent's did
    assert [r.id for r in renamed.rows[3:]] == [r.id for r in first.rows[3:]]
    # a row with the same topic under a parent with the same topic, added before: numbered after it
    again = parse_outline("# B\n- Notes\n" + base)
    assert [r.id for r in again.rows if r.text == "Notes"][-2:] == [b_notes + "-2", b_notes + "-3"]


def test_parsed_once_per_text() -> None:
    assert markdown_outline(DOC) is markdown_outline(DOC)
    assert markdown_outline(DOC + "\n") is not markdown_outline(DOC)
