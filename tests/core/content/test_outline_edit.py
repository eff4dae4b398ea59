"""Row edits on OPML as part edits: only the touched rows' bytes change, ids stay, a person's
change to the same row is a conflict, and accepting follows rows by id."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from jupyter_mcp_lab.core.content import OutlineContent, content_of
from jupyter_mcp_lab.core.content.outline_tree import OutlineTree
from jupyter_mcp_lab.core.content.part_edits import PartEdit, apply_edits
from jupyter_mcp_lab.core.errors import DomainError
from tests.surfaces.outliner.opml import OMNI, WITH_IDS


def outline(text: str) -> OutlineContent:
    content = content_of("outline", text)
    assert isinstance(content, OutlineContent)
    return content


def apply(content: OutlineContent, edit: PartEdit, base: OutlineContent | None = None) -> OutlineContent:
    out = content.apply_edit(edit, base or content)
    assert out is not None
    # Made without reading the file again: the same as reading its text afresh.
    assert out == OutlineContent.parse("outline", out.serialize())
    return out


def topics(content: OutlineContent) -> list[tuple[int, str]]:
    return [(r.level, r.text) for r in content.rows]


def test_insert_after_a_sibling_with_children_in_the_files_indentation() -> None:
    base = outline(OMNI)
    new: dict[str, Any] = {"parent": None, "topic": 'Fresh & "new"', "note": "two\nlines", "state": "unchecked"}
    new["children"] = [{"id": "k1", "topic": "Kid — 東京", "children": [{"id": "k2", "topic": "Grandkid"}]}]
    out = apply(base, PartEdit("n1", "insert", after="row-0", index=1, fields=new))
    text = out.serialize()
    assert (
        '    </outline>\n    <outline id="n1" text="Fresh &amp; &quot;new&quot;" _note="two&#10;lines" '
        '_status="unchecked">\n      <outline id="k1" text="Kid — 東京">\n        <outline id="k2" text="Grandkid"/>\n'
        "      </outline>\n    </outline>\n    <!-- the research" in text
    )
    # Apart from the new rows and the ids every row now stores, the file is the same bytes.
    without = re.sub(r' id="row-\d+"', "", text)
    assert without.replace(text[text.index('\n    <outline id="n1"') : text.index("\n    <!--")], "") == OMNI
    tree = OutlineTree(out)
    assert tree.row("n1").note == "two\nlines" and tree.state("n1") == "unchecked"
    assert [r.id for r in tree.walk("n1")] == ["n1", "k1", "k2"] and tree.row("k2").level == 2
    assert [r.id for r in out.rows if r.id.startswith("row-")] == [r.id for r in base.rows]


def test_insert_first_under_a_row_without_children_opens_it() -> None:
    base = outline(WITH_IDS)
    out = apply(base, PartEdit("x", "insert", fields={"parent": "b", "topic": "under b"}))
    assert out.serialize() == WITH_IDS.replace(
        '<outline id="b" text="Beta"/>', '<outline id="b" text="Beta">\n  <outline id="x" text="under b"/>\n</outline>'
    )
    first = apply(base, PartEdit("y", "insert", fields={"parent": None, "topic": "top"}))
    assert [r.id for r in first.rows] == ["y", "a", "a1", "b"]
    empty = apply(outline(""), PartEdit("z", "insert", fields={"parent": None, "topic": "first"}))
    assert [(r.id, r.text) for r in empty.rows] == [("z", "first")] and "<body>" in empty.serialize()


def test_delete_takes_the_subtree_and_its_line() -> None:
    base = outline(OMNI)
    out = apply(base, PartEdit("row-3", "delete"))
    assert [t for _, t in topics(out)] == [
        "Launch",
        "Write release notes",
        "Tag v1.0",
        "Ideas & notes",
        "Dark mode",
        "Offline sync",
    ]
    expected = re.sub(r"\n    <outline text=\"Research\".*?\n    </outline>", "", OMNI, count=1, flags=re.S)
    assert re.sub(r' id="row-\d+"', "", out.serialize()) == expected
    inline = apply(outline(WITH_IDS), PartEdit("a1", "delete")).serialize()
    assert inline == WITH_IDS.replace('<outline id="a1" text="Alpha one" x-custom="1"/>', "")


def test_move_with_its_subtree_reindented_and_never_into_itself() -> None:
    base = outline(OMNI)
    out = apply(base, PartEdit("row-5", "move", after=None, fields={"parent": "row-0"}))
    text = out.serialize()
    assert (
        '<outline id="row-5" text="Résumé des entretiens — 東京" _status="unchecked">\n'
        '        <outline id="row-6" text="Draft" _status="checked"/>\n' in text
    )
    tree = OutlineTree(out)
    assert tree.row("row-0").children == ("row-5", "row-1", "row-2") and tree.row("row-6").parent == "row-5"
    assert tree.row("row-3").children == ("row-4",)
    last = apply(base, PartEdit("row-1", "move", after="row-9", index=1, fields={"parent": "row-8"}))
    assert OutlineTree(last).row("row-8").children == ("row-9", "row-1", "row-10")
    assert base.apply_edit(PartEdit("row-3", "move", fields={"parent": "row-6"}), base) is None
    assert base.apply_edit(PartEdit("row-3", "move", fields={"parent": "row-3"}), base) is None


def test_set_fields_rewrites_only_their_attributes() -> None:
    base = outline(WITH_IDS)
    out = apply(base, PartEdit("a", "set", fields={"topic": "Alpha 2", "note": "a note", "state": "checked"}))
    assert out.serialize() == WITH_IDS.replace(
        "text='Alpha' color=\"red\"", 'text=\'Alpha 2\' color="red" _note="a note" _status="checked"'
    )
    back = apply(out, PartEdit("a", "set", fields={"note": "", "state": "none"}))
    assert back.serialize() == WITH_IDS.replace("text='Alpha'", "text='Alpha 2'")
    with pytest.raises(DomainError) as bad:
        base.apply_edit(PartEdit("a", "set", fields={"topic": "bell \x07"}), base)
    assert bad.value.code == "INVALID_ARGUMENT"


def test_a_round_trip_that_changes_nothing_is_byte_identical() -> None:
    for text in (OMNI, WITH_IDS):
        content = outline(text)
        assert content.serialize() == text
        same = content.apply_edit(PartEdit(content.rows[0].id, "set", fields={}), content)
        assert same is not None and re.sub(r' id="row-\d+"', "", same.serialize()) == text


def test_changes_follow_rows_by_id_and_a_persons_change_to_the_row_conflicts() -> None:
    base = outline(WITH_IDS)
    edits = [
        PartEdit("n", "insert", after="a", index=1, fields={"parent": None, "topic": "New"}),
        PartEdit("b", "set", fields={"state": "checked"}),
        PartEdit("a1", "text", 0, 5, "Alpha", "First"),
    ]
    # Meanwhile a person added a row at the top and changed a1's topic after its first word.
    person = apply(base, PartEdit("p", "insert", fields={"parent": None, "topic": "Person's"}))
    person = apply(person, PartEdit("a1", "text", 6, 9, "one", "uno"))
    result, applied, conflicts = apply_edits({"r0": base}, person, [("r0", e) for e in edits])
    assert applied == [0, 1, 2] and conflicts == []
    assert isinstance(result, OutlineContent)
    assert [(r.id, r.text) for r in result.rows] == [
        ("p", "Person's"),
        ("a", "Alpha"),
        ("a1", "First uno"),
        ("n", "New"),
        ("b", "Beta"),
    ]
    changed = apply(base, PartEdit("b", "set", fields={"topic": "Beta by a person"}))
    for e in (PartEdit("b", "delete"), PartEdit("b", "set", fields={"topic": "Beta 2", "state": "checked"})):
        assert changed.apply_edit(e, base) is None  # what it changes, a person changed
    checked = changed.apply_edit(PartEdit("b", "set", fields={"state": "checked"}), base)
    assert checked is not None and [(r.text, r.status) for r in checked.rows][-1] == ("Beta by a person", "checked")
    into_a = changed.apply_edit(PartEdit("b", "move", fields={"parent": "a"}), base)  # a renamed row moves
    assert into_a is not None and [r.parent for r in into_a.rows][-1] == "a"
    moved = apply(base, PartEdit("b", "move", fields={"parent": "a"}))
    assert moved.apply_edit(PartEdit("b", "move", fields={"parent": "a1"}), base) is None  # a person moved it
    gone = apply(base, PartEdit("a", "delete"))
    assert gone.apply_edit(PartEdit("a1", "set", fields={"note": "x"}), base) is None
    assert gone.apply_edit(PartEdit("m", "insert", fields={"parent": "a", "topic": "x"}), base) is None


def test_positional_ids_are_stored_before_a_change() -> None:
    base = outline(OMNI)  # no ids in the file
    out = apply(base, PartEdit("n", "insert", fields={"parent": None, "topic": "First"}))
    assert [r.id for r in out.rows] == ["n"] + [r.id for r in base.rows]
    assert all(r.stored_id for r in out.rows)
    again = outline(out.serialize())
    assert again.rows[1].id == "row-0" and again.rows[1].text == "Launch"


@pytest.mark.parametrize("text", [OMNI, WITH_IDS, OMNI.replace("\n", "\r\n"), ""], ids=["omni", "ids", "crlf", "empty"])
def test_many_random_edits_read_as_their_text_does(text: str) -> None:
    """Each edit's content is made without reading the file again; every one equals the
    content its text reads as, through 150 random inserts, moves, sets and deletes."""
    rng = random.Random(16)
    content = outline(text)
    made = 0
    for n in range(150):
        ids = [r.id for r in content.rows]
        op = rng.choice(["insert", "insert", "move", "set", "delete"] if ids else ["insert"])
        pick = rng.choice(ids) if ids else None
        parent = rng.choice([None, *ids])
        kids = [r.id for r in content.rows if r.parent == parent]
        after = rng.choice([None, *kids])
        if op == "insert":
            kid = {"id": f"k{n}", "topic": f"kid {n} <&>", "state": "checked"}
            fields = {"parent": parent, "topic": f"new {n} — 東京", "note": rng.choice(["", "a\nb"]), "children": [kid]}
            edit = PartEdit(f"n{n}", "insert", after=after, index=len(kids), fields=fields)
        elif op == "move":
            edit = PartEdit(str(pick), "move", after=after, index=0, fields={"parent": parent})
        elif op == "set":
            fields = {"topic": f"t{n}", "note": rng.choice(["", "note"]), "state": rng.choice(["checked", "none"])}
            edit = PartEdit(str(pick), "set", fields=fields)
        else:
            edit = PartEdit(str(pick), "delete")
        out = content.apply_edit(edit, content)
        if out is None:  # a move into its own subtree
            assert op == "move"
            continue
        assert out == OutlineContent.parse("outline", out.serialize()), (n, edit)
        content = out
        made += 1
    assert made > 100


def test_a_change_by_positional_id_never_lands_on_another_row() -> None:
    base = outline(OMNI)  # no stored ids: row-1 is "Write release notes" by its position
    person = outline(OMNI.replace("  <body>\n", '  <body>\n    <outline text="Added by a person"/>\n', 1))
    assert person.rows[1].id == "row-1" and person.rows[1].text == "Launch"
    for edit in (
        PartEdit("row-1", "set", fields={"state": "unchecked"}),
        PartEdit("row-1", "delete"),
        PartEdit("row-1", "move", fields={"parent": None}),
    ):
        assert person.apply_edit(edit, base) is None
    same_place = outline(OMNI.replace("Tag v1.0", "Tag v1.1"))  # nothing above moved: it applies
    done = apply(same_place, PartEdit("row-1", "set", fields={"state": "unchecked"}), base)
    assert done.rows[1].status == "unchecked"
