"""Row edits on a markdown outline are splices: add, update, check, move and delete rows, and
the plan of several edits (``MarkdownRows``) that finds rows by the ids it gave them."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from markdown_it import MarkdownIt

from jupyter_mcp_lab.core.content.part_edits import EditOp, PartEdit
from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.markdown.outline_edits import apply_row_edit, row_edit
from jupyter_mcp_lab.core.markdown.outline_rows import parse_outline
from jupyter_mcp_lab.core.markdown.outline_source import MarkdownRows

DOC = """# Plan

Intro.

- [x] Write notes
- [ ] Tag v1.0
  - [x] sub one
  - [ ] sub two
- plain

## Research

1. Interview
2. Résumé — 東京

## Later

Text.
"""
ID = {r.text: r.id for r in parse_outline(DOC).rows}


def run(op: str, part: str = "new", after: str | None = None, text: str = DOC, **fields: Any) -> str:
    return apply_row_edit(
        text, PartEdit(ID.get(part, part), cast(EditOp, op), after=ID.get(after or "", after), fields=fields)
    )


def under(parent: str | None) -> str | None:
    return ID[parent] if parent else None


def test_a_new_row_takes_the_form_of_its_siblings() -> None:
    out = run("insert", after="Tag v1.0", parent=ID["Plan"], topic="New task", note="a note\nline 2")
    assert out == DOC.replace("- plain", "- [ ] New task\n\n  a note\n  line 2\n- plain")
    out = run("insert", parent=ID["Tag v1.0"], topic="first sub")
    assert out == DOC.replace("  - [x] sub one", "  - [ ] first sub\n  - [x] sub one")
    out = run("insert", after="Research", parent=ID["Plan"], topic="New section", note="Body.")
    assert out == DOC.replace("## Later", "## New section\n\nBody.\n\n## Later")
    out = run("insert", after="Interview", parent=ID["Research"], topic="Survey")  # the items after it renumbered
    assert out == DOC.replace("1. Interview\n2. Résumé", "1. Interview\n2. Survey\n3. Résumé")
    # no rows under the heading yet: a new list after its text; nested rows nest
    out = run("insert", parent=ID["Later"], topic="first in later", children=[{"topic": "kid", "id": "k"}])
    assert out == DOC + "\n- first in later\n  - kid\n"
    out = run("insert", parent=ID["plain"], topic="nested 東京")
    assert out == DOC.replace("- plain\n", "- plain\n  - nested 東京\n")
    assert run("insert", parent=None, topic="Top") == "# Top\n\n" + DOC  # first at the top level
    assert run("insert", after="Plan", parent=None, topic="Top") == DOC + "\n# Top\n"


def test_ordered_lists_stay_numbered_as_they_were() -> None:
    def edit(text: str, op: str, k: int, **fields: Any) -> str:
        rows = parse_outline(text).rows
        e = PartEdit("new" if op == "insert" else rows[k].id, cast(EditOp, op), after=rows[k].id, fields=fields)
        return apply_row_edit(text, e)

    seq = "1. a\n2. b\n3. c\n"
    assert edit(seq, "insert", 0, parent=None, topic="n") == "1. a\n2. n\n3. b\n4. c\n"
    assert edit(seq, "delete", 0) == "1. b\n2. c\n"
    assert edit(seq, "delete", 1) == "1. a\n2. c\n"
    lazy = "1) a\n1) b\n1) c\n"
    assert edit(lazy, "insert", 0, parent=None, topic="n") == "1) a\n1) n\n1) b\n1) c\n"
    assert edit(lazy, "delete", 0) == "1) b\n1) c\n"
    assert edit("1. a\n", "insert", 0, parent=None, topic="n") == "1. a\n2. n\n"
    assert edit("5. a\n6. b\n", "delete", 0) == "5. b\n"  # the list keeps its first number
    odd = "3. a\n7. b\n9. c\n"  # numbered otherwise: left as it is
    assert edit(odd, "delete", 0) == "7. b\n9. c\n"
    assert edit(odd, "insert", 0, parent=None, topic="n") == "3. a\n4. n\n7. b\n9. c\n"


def move(text: str, row: str, after: str | None, parent: str | None) -> str:
    """``text`` with the row whose topic is ``row`` moved (rows named by their topics)."""
    ids = {r.text: r.id for r in parse_outline(text).rows}
    edit = PartEdit(ids[row], "move", after=ids.get(after or ""), fields={"parent": ids.get(parent or "")})
    return apply_row_edit(text, edit)


def test_a_move_renumbers_the_list_it_left_and_the_list_it_joined() -> None:
    seq = "1. a\n2. b\n3. c\n4. d\n"
    assert move(seq, "a", "c", None) == "1. b\n2. c\n3. a\n4. d\n"  # within its list
    assert move(seq, "d", None, None) == "1. d\n2. a\n3. b\n4. c\n"
    assert move(seq, "b", "d", None) == "1. a\n2. c\n3. d\n4. b\n"
    assert move("3) a\n4) b\n5) c\n", "a", "c", None) == "3) b\n4) c\n5) a\n"  # its first number, its delimiter
    two = "# A\n\n1. a\n2. b\n3. c\n\n# B\n\n1. x\n2. y\n"
    out = move(two, "a", "x", "B")  # leaves one list, joins another: both in sequence
    assert out == "# A\n\n1. b\n2. c\n\n# B\n\n1. x\n2. a\n3. y\n"
    assert move(two, "y", None, "A") == "# A\n\n1. y\n2. a\n3. b\n4. c\n\n# B\n\n1. x\n"
    assert move(two, "c", "B", None) == "# A\n\n1. a\n2. b\n\n# B\n\n1. x\n2. y\n\n# c\n"  # a heading now
    bullets = "# A\n\n- p\n- q\n\n# B\n\n1. x\n2. y\n"  # an item of a bullet list takes the number
    assert move(bullets, "p", None, "B") == "# A\n\n- q\n\n# B\n\n1. p\n2. x\n3. y\n"
    assert move(bullets, "x", "p", "A") == "# A\n\n- p\n- x\n- q\n\n# B\n\n1. y\n"
    nested = "1. a\n   1. a1\n   2. a2\n2. b\n"  # nested lists are lists of their own
    assert move(nested, "a1", "a", None) == "1. a\n   1. a2\n2. a1\n3. b\n"
    assert move(nested, "b", "a2", "a") == "1. a\n   1. a1\n   2. a2\n   3. b\n"
    lazy = "1. a\n1. b\n1. c\n"  # the same number for every item stays so
    assert move(lazy, "a", "c", None) == "1. b\n1. c\n1. a\n"
    odd = "3. a\n7. b\n9. c\n"  # numbered otherwise: the numbers are left as they are
    assert move(odd, "a", "c", None) == "7. b\n9. c\n10. a\n"
    # an item whose number gets a digit more has its other lines shifted to its text
    long = "".join(f"{n}. i{n}\n" for n in range(1, 10)) + "10. last\n\n    more of last\n"
    out = move(long, "last", None, None)
    assert out.startswith("1. last\n\n   more of last\n2. i1\n") and out.endswith("9. i8\n10. i9\n")
    out = move(long, "i1", "last", None)  # and a digit fewer
    rows = parse_outline(out).rows
    assert [r.text for r in rows] == ["i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9", "last", "i1"]
    assert [r.note for r in rows[-2:]] == ["more of last", None]
    assert out.endswith("8. i9\n9. last\n\n   more of last\n10. i1\n")


def test_new_topics_are_text_not_markup() -> None:
    out = run("insert", after="sub two", parent=ID["Tag v1.0"], topic="[x] looks like a box")
    assert "  - [ ] \\[x] looks like a box\n" in out
    out = run("insert", after="plain", parent=ID["Plan"], topic="1. not a list\nsecond line")
    assert "- 1\\. not a list second line\n" in out
    assert [r.text for r in parse_outline(out).rows if r.parent == ID["Plan"]][-3] == "1. not a list second line"
    out = run("insert", after="Later", parent=ID["Plan"], topic="Sec", note="# would be a heading\nbody")
    assert "## Sec\n\n\\# would be a heading\nbody\n" in out
    assert [r.text for r in parse_outline(out).rows][-1] == "Sec"


def test_update_topic_state_and_note() -> None:
    out = run("set", "Tag v1.0", topic="Tag v2", state="checked", note="why")
    assert out == DOC.replace("- [ ] Tag v1.0\n", "- [x] Tag v2\n\n  why\n\n")
    assert run("set", "plain", state="unchecked") == DOC.replace("- plain", "- [ ] plain")
    assert run("set", "Write notes", state="none") == DOC.replace("- [x] Write notes", "- Write notes")
    assert run("set", "Write notes", state="checked") == DOC  # already: nothing changes
    assert run("set", "Plan", note="") == DOC.replace("Intro.\n\n", "")
    assert run("set", "Plan", note="New intro") == DOC.replace("Intro.", "New intro")
    assert run("set", "Research", note="A note") == DOC.replace("## Research\n", "## Research\n\nA note\n")
    assert run("set", "Research", topic="Recherche — 東京") == DOC.replace("## Research", "## Recherche — 東京")
    setext = "Title\n=====\n\n- a\n"
    assert apply_row_edit(setext, PartEdit(parse_outline(setext).rows[0].id, "set", fields={"topic": "New"})) == (
        "New\n=====\n\n- a\n"
    )
    with pytest.raises(ArgumentError, match="heading has no checkbox"):
        run("set", "Plan", state="checked")
    with pytest.raises(ArgumentError, match="state"):
        run("set", "plain", state="mixed")
    assert run("set", "Plan", state="none") == DOC


def test_delete_takes_its_rows_and_the_blank_lines_it_stood_between() -> None:
    assert run("delete", "Tag v1.0") == DOC.replace("- [ ] Tag v1.0\n  - [x] sub one\n  - [ ] sub two\n", "")
    assert run("delete", "Research") == DOC.replace("## Research\n\n1. Interview\n2. Résumé — 東京\n\n", "")
    assert run("delete", "Later") == DOC.replace("\n\n## Later\n\nText.", "")
    loose = "- a\n\n- b\n\n- c\n\nafter\n"
    o = {r.text: r.id for r in parse_outline(loose).rows}
    assert apply_row_edit(loose, PartEdit(o["b"], "delete")) == "- a\n\n- c\n\nafter\n"
    assert apply_row_edit(loose, PartEdit(o["c"], "delete")) == "- a\n\n- b\n\nafter\n"
    only = "# H\n\n- only\n\ntext\n"
    assert apply_row_edit(only, PartEdit(parse_outline(only).rows[1].id, "delete")) == "# H\n\ntext\n"


def test_move_keeps_the_form_it_can_and_shifts_levels() -> None:
    assert run("move", "plain", parent=ID["Plan"]) == DOC.replace(
        "- [x] Write notes", "- plain\n- [x] Write notes"
    ).replace("  - [ ] sub two\n- plain\n", "  - [ ] sub two\n")
    out = run("move", "sub one", after="Write notes", parent=ID["Plan"])
    assert "- [x] Write notes\n- [x] sub one\n- [ ] Tag v1.0\n  - [ ] sub two\n" in out
    out = run("move", "Later", after="Plan", parent=None)  # a top-level heading now
    assert out.endswith("2. Résumé — 東京\n\n# Later\n\nText.\n")
    out = run("move", "Later", after="plain", parent=ID["Plan"])  # between the items and the subheadings
    assert "- plain\n\n## Later\n\nText.\n\n## Research\n" in out
    # an item after a heading becomes a heading, its items a list under it
    out = run("move", "Tag v1.0", after="Research", parent=ID["Plan"])
    assert "## Tag v1.0\n- [x] sub one\n- [ ] sub two\n\n## Later" in out
    # a heading among items becomes an item, its text its note
    out = run("move", "Later", after="Interview", parent=ID["Research"])
    assert "1. Interview\n2. Later\n\n   Text.\n3. Résumé — 東京\n" in out  # the list renumbered
    deep = "# A\n## B\n### C\n# D\n"
    o = {r.text: r.id for r in parse_outline(deep).rows}
    assert (
        apply_row_edit(deep, PartEdit(o["B"], "move", after=None, fields={"parent": o["D"]}))
        == "# A\n# D\n\n## B\n### C\n"
    )
    assert (
        apply_row_edit(deep, PartEdit(o["B"], "move", after=o["A"], fields={"parent": None}))
        == "# A\n\n# B\n## C\n\n# D\n"
    )
    lazy = "# A\n## B\n- two lines\n  of topic\n"
    a, b, item = (r.id for r in parse_outline(lazy).rows)
    moved = apply_row_edit(lazy, PartEdit(item, "move", after=b, fields={"parent": a}))
    assert moved == "# A\n## B\n\n## two lines of topic\n"  # its whole first paragraph
    nested = "# A\n- x\n# B\n## C\n"
    a, _, b, _ = (r.id for r in parse_outline(nested).rows)
    with pytest.raises(ArgumentError, match="subheadings"):  # before the item x it would be an item
        apply_row_edit(nested, PartEdit(b, "move", after=None, fields={"parent": a}))
    assert apply_row_edit(nested, PartEdit(b, "move", after=None, fields={"parent": None})) == "# B\n## C\n\n# A\n- x\n"
    with pytest.raises(ArgumentError, match="under itself"):
        run("move", "Plan", parent=ID["Research"])
    assert row_edit(parse_outline(DOC), PartEdit(ID["Write notes"], "move", fields={"parent": ID["Plan"]})) == []


def test_bad_edits_are_refused_and_change_nothing() -> None:
    with pytest.raises(DomainError) as missing:
        run("set", "nope", topic="x")
    assert missing.value.code == "NOT_FOUND" and missing.value.details["row"] == "nope"
    with pytest.raises(ArgumentError, match="not a child"):
        run("insert", after="sub one", parent=ID["Plan"], topic="x")
    with pytest.raises(ArgumentError):
        run("insert", parent=ID["Plan"], topic=3)
    with pytest.raises(ArgumentError):
        run("text", "Plan")


def test_a_plan_of_several_edits_finds_rows_by_the_ids_it_gave_them() -> None:
    rows = MarkdownRows.parse(DOC)
    out = rows.apply_edit(
        PartEdit(
            "r-1",
            "insert",
            after=ID["plain"],
            fields={"parent": ID["Plan"], "topic": "One", "children": [{"id": "r-2", "topic": "Two"}]},
        )
    )
    out = out.apply_edit(PartEdit("r-3", "insert", after="r-1", fields={"parent": ID["Plan"], "topic": "Three"}))
    out = out.apply_edit(PartEdit("r-4", "insert", after=None, fields={"parent": "r-2", "topic": "Four"}))
    assert "- plain\n- One\n  - Two\n    - Four\n- Three\n" in out.serialize()
    found = {r.id: r.text for r in out.rows}
    assert {k: found[out.resolve(k) or ""] for k in ("r-1", "r-2", "r-3", "r-4")} == {
        "r-1": "One",
        "r-2": "Two",
        "r-3": "Three",
        "r-4": "Four",
    }
    # a renamed row's children get new ids: the plan still finds them by the old ones
    renamed = MarkdownRows.parse(DOC).apply_edit(
        PartEdit(ID["Tag v1.0"], "set", fields={"topic": "Tag v2", "state": "checked"})
    )
    renamed = renamed.apply_edit(PartEdit(ID["sub two"], "set", fields={"state": "checked"}))
    assert "- [x] Tag v2\n  - [x] sub one\n  - [x] sub two\n" in renamed.serialize()
    assert renamed.resolve(ID["sub two"]) != ID["sub two"]
    # a topic change as a text edit of the topic
    text = MarkdownRows.parse(DOC).apply_edit(PartEdit(ID["plain"], "text", 0, 5, "plain", "simple"))
    assert "- simple\n" in text.serialize()
    moved = MarkdownRows.parse(DOC).apply_edit(
        PartEdit(ID["Tag v1.0"], "move", after=None, fields={"parent": ID["Later"]})
    )
    moved = moved.apply_edit(PartEdit(ID["sub one"], "set", fields={"state": "unchecked"}))
    assert moved.serialize().endswith("Text.\n\n- [ ] Tag v1.0\n  - [ ] sub one\n  - [ ] sub two\n")


SHAPES = [
    DOC,
    DOC.replace("\n", "\r\n"),
    "- a\n- b\n  - c\n\n    c's note\n- d\n",
    "# T\n",
    "",
    "1. x\n2. y\n\n# H\n## I\n- z\n\n### J\n\ntext\n",
    "Intro\n\n- [ ] p\n  - [x] q\n\n# A\n\nbody\n\n- r\n\n# B\n## C\n",
    "# N\n\n1. a\n2. b\n   1) b1\n   2) b2\n\n   b's note\n3. c\n\n# M\n\n7. m\n8. n\n",
]


def _numbers_in_sequence(text: str) -> bool:
    """Whether every ordered list of ``text`` numbers its items one after another."""
    lists: list[list[int]] = []
    open_: list[list[int] | None] = []
    for tok in MarkdownIt("commonmark").parse(text):
        if tok.type in ("ordered_list_open", "bullet_list_open"):
            open_.append([] if tok.type == "ordered_list_open" else None)
        elif tok.type in ("ordered_list_close", "bullet_list_close"):
            done = open_.pop()
            if done is not None:
                lists.append(done)
        elif tok.type == "list_item_open" and open_ and open_[-1] is not None:
            open_[-1].append(int(tok.info))
    return all(ns == list(range(ns[0], ns[0] + len(ns))) for ns in lists)


def test_random_row_edits_land_where_asked_and_leave_other_ids() -> None:
    rng = random.Random(16)
    made = 0
    for _ in range(800):
        text = rng.choice(SHAPES)
        before = parse_outline(text)
        ids = [r.id for r in before.rows]
        op = rng.choice(["insert", "delete", "move", "set"])
        parent = rng.choice([*ids, None])
        after = rng.choice([None, *(r.id for r in before.rows if r.parent == parent)])
        part = rng.choice(ids) if ids else "none"
        fields: dict[str, Any] = {"parent": parent}
        if op == "insert":
            fields |= {"topic": rng.choice(["New row", "東京 row"]), "note": rng.choice([None, "a note", "l1\nl2"])}
        elif op == "set":
            fields = rng.choice(
                [{"topic": "Renamed"}, {"state": "checked"}, {"state": "none"}, {"note": "n"}, {"note": ""}]
            )
        edit = PartEdit("new" if op == "insert" else part, cast(EditOp, op), after=after, fields=fields)
        try:
            out = apply_row_edit(text, edit)
        except (ArgumentError, DomainError):
            continue
        made += 1
        if _numbers_in_sequence(text):  # ordered lists in sequence stay so, whatever the edit
            assert _numbers_in_sequence(out), (text, edit, out)
        now = parse_outline(out)
        topic = {r.id: r.text for r in now.rows}
        if op == "move":  # the same rows, the moved one under its new parent after `after`
            assert sorted(r.text for r in now.rows) == sorted(r.text for r in before.rows), (text, edit, out)
        if op in ("insert", "move"):
            name = fields.get("topic") or next(r.text for r in before.rows if r.id == part)
            old = {r.id: r.text for r in before.rows}
            placed = [
                r
                for r in now.rows
                if r.text == name
                and (topic.get(r.parent or "") if r.parent else None) == (old.get(parent or "") if parent else None)
            ]
            assert placed, (text, edit, out)
        if op == "insert" or (op == "set" and "topic" not in fields):
            # every row keeps its id (a topic change would rename its row and its children)
            assert {r.id for r in now.rows} >= set(ids), (text, edit, out)
        if op == "delete":
            gone = {r.id for r in before.rows} - {r.id for r in now.rows}
            assert part in gone and len(now.rows) < len(before.rows)
    assert made > 300
