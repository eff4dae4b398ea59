"""Lists: toggle, indent/outdent, task state, list_modify; numbering and style are kept."""

from __future__ import annotations

from typing import Any

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.markdown import lists as L
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.text import apply_edits


def run(fn: Any, text: str, *args: Any) -> str:
    return apply_edits(text, fn(text, *args))


def at(text: str, part: str) -> int:
    return text.index(part)


NESTED = "Intro\n\n- a\n- b\n  - b1\n  - b2\n- [ ] c\n\n1. one\n2. two\n3. three\n"


def test_parse_list() -> None:
    items = L.parse_list(NESTED, "list-0")
    assert [(i.text, i.depth, i.parent, i.checked) for i in items] == [
        ("a", 0, None, None),
        ("b", 0, None, None),
        ("b1", 1, 1, None),
        ("b2", 1, 1, None),
        ("c", 0, None, False),
    ]
    fenced = "- a\n  ```\n  - not an item\n  ```\n- b\n"
    assert [i.text for i in L.parse_list(fenced, "list-0")] == ["a", "b"]


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        ([{"op": "add_item", "index": 1, "text": "new"}], "1. one\n2. new\n3. two\n4. three\n"),
        ([{"op": "add_item", "index": 3, "text": "four"}], "1. one\n2. two\n3. three\n4. four\n"),
        ([{"op": "delete_item", "index": 0}], "1. two\n2. three\n"),
        ([{"op": "move_item", "from": 0, "to": 2}], "1. two\n2. three\n3. one\n"),
        ([{"op": "move_item", "from": 2, "to": 0}], "1. three\n2. one\n3. two\n"),
        ([{"op": "indent", "index": 1}], "1. one\n   1. two\n2. three\n"),
        ([{"op": "set_text", "index": 2, "text": "THREE"}], "1. one\n2. two\n3. THREE\n"),
        ([{"op": "setItemContent", "index": 0, "text": "x\ny"}], "1. x\n   y\n2. two\n3. three\n"),
        ([{"op": "check", "index": 0}], "1. [x] one\n2. two\n3. three\n"),
        ([{"op": "indent", "index": 1}, {"op": "indent", "index": 2}], "1. one\n   1. two\n   2. three\n"),
    ],
)
def test_ordered_batch(ops: list[dict[str, Any]], expected: str) -> None:
    out = run(L.batch, NESTED, "list-1", ops)
    assert out == NESTED.replace("1. one\n2. two\n3. three\n", expected)


def test_lazy_numbering_stays_lazy() -> None:
    text = "1. a\n1. b\n1. c\n"
    assert run(L.batch, text, "list-0", [{"op": "add_item", "index": 1, "text": "x"}]) == "1. a\n1. x\n1. b\n1. c\n"
    assert run(L.batch, text, "list-0", [{"op": "delete_item", "index": 0}]) == "1. b\n1. c\n"
    start = "3) a\n4) b\n"
    assert run(L.batch, start, "list-0", [{"op": "delete_item", "index": 0}]) == "3) b\n"
    irregular = "1. a\n5. b\n9. c\n"
    assert run(L.batch, irregular, "list-0", [{"op": "delete_item", "index": 0}]) == "5. b\n9. c\n"


def test_renumbering_shifts_continuation_lines() -> None:
    text = "".join(f"{n}. i{n}\n" for n in range(1, 10)) + "9. last\n   more\n"
    text = text.replace("9. last", "10. last").replace("   more", "    more")
    out = run(L.batch, text, "list-0", [{"op": "delete_item", "index": 0}])
    assert out.endswith("8. i9\n9. last\n   more\n")


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        ([{"op": "indent", "index": 1}], "- a\n  - b\n    - b1\n    - b2\n- [ ] c\n"),
        ([{"op": "outdent", "index": 3}], "- a\n- b\n  - b1\n- b2\n- [ ] c\n"),
        ([{"op": "outdent", "index": 2}], "- a\n- b\n- b1\n  - b2\n- [ ] c\n"),
        ([{"op": "indent", "index": 4}], "- a\n- b\n  - b1\n  - b2\n  - [ ] c\n"),
        ([{"op": "delete_item", "index": 1}], "- a\n- [ ] c\n"),
        ([{"op": "move_item", "from": 1, "to": 2}], "- a\n- [ ] c\n- b\n  - b1\n  - b2\n"),
        ([{"op": "set_checked", "index": 4, "checked": True}], "- a\n- b\n  - b1\n  - b2\n- [x] c\n"),
        ([{"op": "uncheck", "index": 4}], "- a\n- b\n  - b1\n  - b2\n- [ ] c\n"),
        ([{"op": "add_item", "index": 5, "text": "d"}], "- a\n- b\n  - b1\n  - b2\n- [ ] c\n- [ ] d\n"),
        ([{"op": "add_item", "index": 3, "text": "n"}], "- a\n- b\n  - b1\n  - n\n  - b2\n- [ ] c\n"),
    ],
)
def test_bullet_batch(ops: list[dict[str, Any]], expected: str) -> None:
    out = run(L.batch, NESTED, "list-0", ops)
    assert out == NESTED.replace("- a\n- b\n  - b1\n  - b2\n- [ ] c\n", expected)
    assert out.startswith("Intro\n\n") and out.endswith("1. one\n2. two\n3. three\n")


def test_indent_into_an_ordered_parent_follows_its_content_column() -> None:
    text = "10. ten\n11. eleven\n    text\n"
    assert run(L.indent_items, text, at(text, "eleven"), at(text, "eleven")) == "10. ten\n    1. eleven\n       text\n"


def test_tabs_stay_tabs() -> None:
    text = "- a\n\t- a1\n- b\n"
    assert run(L.indent_items, text, at(text, "b"), at(text, "b")) == "- a\n\t- a1\n\t- b\n"


def test_loose_lists_keep_their_blank_lines() -> None:
    text = "- a\n\n- b\n\n- c\n"
    assert run(L.batch, text, "list-0", [{"op": "add_item", "index": 1, "text": "n"}]) == "- a\n\n- n\n\n- b\n\n- c\n"
    assert run(L.batch, text, "list-0", [{"op": "add_item", "index": 3, "text": "d"}]) == "- a\n\n- b\n\n- c\n\n- d\n"
    assert run(L.batch, text, "list-0", [{"op": "delete_item", "index": 2}]) == "- a\n\n- b\n"
    assert run(L.batch, text, "list-0", [{"op": "move_item", "from": 2, "to": 0}]) == "- c\n\n- a\n\n- b\n"


@pytest.mark.parametrize("text", [NESTED, "- a\n\n- b\n\n- c\n", "1. a\n1. b\n", "* x\r\n* y\r\n", "- [ ] t\n"])
def test_add_then_delete_round_trips(text: str) -> None:
    for lst in [b.id for b in structure_of(text).blocks if b.type == "list"]:
        n = len(L.parse_list(text, lst))
        for index in range(n + 1):
            added = run(L.batch, text, lst, [{"op": "add_item", "index": index, "text": "zz"}])
            assert run(L.batch, added, lst, [{"op": "delete_item", "index": index}]) == text
        for index in range(n):
            for to in range(n):
                try:
                    moved = run(L.batch, text, lst, [{"op": "move_item", "from": index, "to": to}])
                except ArgumentError:  # "to" counts the items left once the moved subtree is out
                    continue
                assert len(L.parse_list(moved, lst)) == n


def test_toggle_list() -> None:
    text = "one\n\ntwo\nlines\n\n- x\n- y\n"
    out = run(L.toggle_list, text, 0, at(text, "lines"), "bullet")
    assert out == "* one\n\n* two\n  lines\n\n- x\n- y\n"  # one new list, kept apart from the one below
    out = run(L.toggle_list, text, 0, 2, "ordered")
    assert out == "1. one\n\ntwo\nlines\n\n- x\n- y\n"
    out = run(L.toggle_list, text, at(text, "two"), at(text, "two"), "bullet")
    assert out == "one\n\n* two\n  lines\n\n- x\n- y\n"  # "*": a "-" item would join the list below
    assert run(L.toggle_list, text, at(text, "x"), at(text, "y"), "bullet") == "one\n\ntwo\nlines\n\nx\n\ny\n"
    assert run(L.toggle_list, text, at(text, "x"), at(text, "x"), "ordered") == "one\n\ntwo\nlines\n\n1. x\n2. y\n"
    assert run(L.toggle_list, text, at(text, "y"), at(text, "y"), "task") == "one\n\ntwo\nlines\n\n- [ ] x\n- [ ] y\n"
    nested = "- a\n  - b\n"
    assert run(L.toggle_list, nested, at(nested, "b"), at(nested, "b"), "bullet") == "- a\n- b\n"  # off: outdent
    task = "- [x] done\n- [ ] todo\n"
    assert run(L.toggle_list, task, 0, len(task), "task") == "done\n\ntodo\n"
    assert run(L.toggle_list, task, 0, len(task), "bullet") == "- done\n- todo\n"


def test_set_task() -> None:
    assert run(L.set_task, NESTED, "list-0", 4, True) == NESTED.replace("- [ ] c", "- [x] c")
    assert run(L.set_task, NESTED, "list-0", 0, False) == NESTED.replace("- a", "- [ ] a")
    assert L.set_task("- [X] t\n", "list-0", 0, True) == []


def test_outdent_items_range() -> None:
    out = run(L.outdent_items, NESTED, at(NESTED, "b1"), at(NESTED, "b2"))
    assert out == NESTED.replace("  - b1\n  - b2\n", "- b1\n- b2\n")


@pytest.mark.parametrize(
    ("call", "code", "argument"),
    [
        (lambda: L.batch(NESTED, "list-0", [{"op": "delete_item", "index": 9}]), "NOT_FOUND", "operations[0].index"),
        (lambda: L.batch(NESTED, "list-0", [{"op": "fly"}]), "INVALID_ARGUMENT", "operations[0].op"),
        (lambda: L.batch(NESTED, "list-0", [{"op": "indent", "index": 0}]), "INVALID_ARGUMENT", "operations[0].index"),
        (lambda: L.batch(NESTED, "list-0", [{"op": "outdent", "index": 0}]), "INVALID_ARGUMENT", "operations[0].index"),
        (lambda: L.batch(NESTED, "list-0", [{"op": "add_item", "index": 0, "text": 3}]), "INVALID_ARGUMENT", "text"),
        (lambda: L.batch(NESTED, "list-0", [{"op": "move_item", "from": 0, "to": 9}]), "INVALID_ARGUMENT", "to"),
        (lambda: L.batch(NESTED, "list-7", []), "NOT_FOUND", "list_id"),
        (lambda: L.batch(NESTED, "p-0", []), "INVALID_ARGUMENT", "list_id"),
        (lambda: L.toggle_list(NESTED, 0, 3, "numbered"), "INVALID_ARGUMENT", "kind"),
        (lambda: L.indent_items(NESTED, 0, 3), "INVALID_ARGUMENT", "start"),
    ],
)
def test_errors(call: Any, code: str, argument: str) -> None:
    with pytest.raises(DomainError) as err:
        call()
    assert err.value.code == code
    assert err.value.details.get("argument") == argument


def test_deleting_every_item_deletes_the_block() -> None:
    text = "para\n\n- a\n\nafter\n"
    assert run(L.batch, text, "list-0", [{"op": "delete_item", "index": 0}]) == "para\n\nafter\n"
    with pytest.raises(ArgumentError):
        L.batch(text, "list-0", "nope")  # type: ignore[arg-type]


def test_a_list_would_swallow_indented_code() -> None:
    text = "para\n\n    code\n"
    with pytest.raises(ArgumentError) as err:
        L.toggle_list(text, 0, 0, "bullet")
    assert "indented code" in err.value.message


STEPS = "1. Step one\n   - detail a\n   - detail b\n\n   More about step one.\n2. Step two\n"


def test_a_parent_paragraph_after_nested_items_stays_with_the_parent() -> None:
    assert [i.text for i in L.parse_list(STEPS, "list-0")] == ["Step one", "detail a", "detail b", "Step two"]
    out = run(L.batch, STEPS, "list-0", [{"op": "delete_item", "index": 2}])
    assert out == "1. Step one\n   - detail a\n\n   More about step one.\n2. Step two\n"
    out = run(L.batch, STEPS, "list-0", [{"op": "move_item", "from": 0, "to": 1}])
    assert out == "1. Step two\n2. Step one\n   - detail a\n   - detail b\n\n   More about step one.\n"
    out = run(L.batch, STEPS, "list-0", [{"op": "indent", "index": 3}])
    assert out == "1. Step one\n   - detail a\n   - detail b\n\n   More about step one.\n   - Step two\n"
