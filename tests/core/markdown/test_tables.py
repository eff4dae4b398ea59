"""GFM tables: the model, every edit, padding styles, round trips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.markdown import tables as T
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.text import apply_edits


def run(fn: Any, text: str, *args: Any, **kwargs: Any) -> str:
    return apply_edits(text, fn(text, *args, **kwargs))


ALIGNED = "Intro\n\n| Name | Qty |\n|:-----|----:|\n| a    |   1 |\n| bb   |  22 |\n\nafter\n"
SPACED = "| a | b |\n| --- | :-: |\n| 1 | 2 |\n"
COMPACT = "|a|b|\n|-|-|\n|1|2|\n"
BARE = "a | b\n--- | ---\n1 | 2\n"


def test_parse_table() -> None:
    text = "| a | b \\| c | `x` |\n|:--|--:|:-:|\n| 1 | 2 |\n"
    table = T.parse_table(text, structure_of(text).by_id["table-0"])
    assert table.header == ["a", "b \\| c", "`x`"]
    assert table.alignments == ["left", "right", "center"]
    assert table.rows == [["1", "2"]]
    assert [text[a:b] for a, b in table.spans[0]] == [" a ", " b \\| c ", " `x` "]
    assert [text[a:b] for a, b in table.spans[2]] == [" 1 ", " 2 "]
    assert table.style == "spaced"
    bare = T.parse_table(BARE, structure_of(BARE).by_id["table-0"])
    assert bare.header == ["a", "b"] and bare.rows == [["1", "2"]] and bare.alignments == [None, None]
    for text, style in ((ALIGNED, "aligned"), (SPACED, "spaced"), (COMPACT, "compact")):
        assert T.parse_table(text, structure_of(text).by_id["table-0"]).style == style


@pytest.mark.parametrize(
    ("fn", "args", "expected"),
    [
        (T.add_row, (1, ["x", "9"]), "|:-----|----:|\n| x    |   9 |\n| a    |   1 |\n"),
        (T.add_row, (None, ["c"]), "| bb   |  22 |\n| c    |     |\n\nafter"),
        (T.delete_row, (1,), "|:-----|----:|\n| bb   |  22 |\n\nafter"),
        (T.delete_row, (0,), "Intro\n\n| a    |   1 |\n|:-----|----:|\n| bb   |  22 |\n\nafter"),
        (T.set_cell, (2, 0, "a|b"), "| a\\|b |  22 |"),
        (T.set_cell, (1, 1, "333"), "| a    | 333 |"),
        (T.add_column, (1, "New", ["p", "q"]), "| Name | New | Qty |\n|:-----|-----|----:|\n| a    | p   |   1 |"),
        (T.delete_column, (0,), "| Qty |\n|----:|\n|   1 |\n|  22 |"),
        (T.toggle_header_row, (), "|      |     |\n|:-----|----:|\n| Name | Qty |\n| a    |   1 |"),
    ],
)
def test_aligned_edits(fn: Any, args: tuple[Any, ...], expected: str) -> None:
    out = run(fn, ALIGNED, "table-0", *args)
    assert expected in out
    assert out.startswith("Intro\n\n") and out.endswith("\n\nafter\n")


def test_a_wider_cell_repads_its_column_only() -> None:
    out = run(T.set_cell, ALIGNED, "table-0", 1, 0, "a longer name")
    assert out == (
        "Intro\n\n| Name          | Qty |\n|:--------------|----:|\n"
        "| a longer name |   1 |\n| bb            |  22 |\n\nafter\n"
    )


def test_set_cell_touches_only_that_row() -> None:
    edits = T.set_cell(ALIGNED, "table-0", 1, 0, "z")
    row = structure_of(ALIGNED).lines
    assert all(row.line_of(e.start) == 5 and row.line_of(e.end) == 5 for e in edits)
    assert T.set_cell(ALIGNED, "table-0", 1, 1, "1") == []  # same value: nothing to do


@pytest.mark.parametrize(
    ("text", "fn", "args", "expected"),
    [
        (SPACED, T.add_row, (2, ["x", "yy"]), "| a | b |\n| --- | :-: |\n| 1 | 2 |\n| x | yy |\n"),
        (SPACED, T.add_column, (0, "c", ["3"]), "| c | a | b |\n| --- | --- | :-: |\n| 3 | 1 | 2 |\n"),
        (SPACED, T.set_cell, (0, 1, "B"), "| a | B |\n| --- | :-: |\n| 1 | 2 |\n"),
        (COMPACT, T.add_column, (2, "c", ["3"]), "|a|b|c|\n|-|-|---|\n|1|2|3|\n"),
        (COMPACT, T.add_row, (1, ["x"]), "|a|b|\n|-|-|\n|x||\n|1|2|\n"),
        (BARE, T.add_row, (None, ["3", "4"]), "a | b\n--- | ---\n1 | 2\n3 | 4\n"),
        (BARE, T.delete_column, (1,), "| a |\n| --- |\n| 1 |\n"),  # one column needs pipes
    ],
)
def test_styles_are_kept(text: str, fn: Any, args: tuple[Any, ...], expected: str) -> None:
    assert run(fn, text, "table-0", *args) == expected


def test_ragged_rows_and_crlf() -> None:
    text = "| a | b | c |\r\n|---|---|---|\r\n| 1 |\r\n"
    assert run(T.set_cell, text, "table-0", 1, 2, "z") == "| a | b | c |\r\n|---|---|---|\r\n| 1 |  | z |\r\n"
    assert run(T.add_row, text, "table-0", None, ["x", "y", "w"]).endswith("| 1 |\r\n| x | y | w |\r\n")


def test_insert_and_delete_table() -> None:
    text = "para\n\nnext\n"
    assert (
        run(T.insert_table, text, 0, 3, 2)
        == "|     |     |\n| --- | --- |\n|     |     |\n|     |     |\n\npara\n\nnext\n"
    )
    out = run(T.insert_table, text, 2, 2, 2, ["Name", "a|b"])
    assert out == "para\n\n| Name | a\\|b |\n| ---- | ---- |\n|      |      |\n\nnext\n"
    assert len(structure_of(out).blocks) == 3
    assert run(T.delete_table, out, "table-0") == text
    with pytest.raises(ArgumentError) as err:
        T.insert_table(text, 0, 0, 2)
    assert err.value.argument == "rows"
    with pytest.raises(ArgumentError) as err:
        T.insert_table(text, 0, 1, 2, ["only one"])
    assert err.value.argument == "header"


def test_batch_applies_in_order_and_is_atomic() -> None:
    ops = [
        {"op": "addRow", "index": 1, "cells": ["n", "5"]},
        {"op": "setCellContent", "row": 1, "col": 1, "value": "6"},
        {"op": "delete_row", "row": 3},
        {"op": "set_alignment", "col": 0, "align": "center"},
    ]
    out = run(T.batch, ALIGNED, "table-0", ops)
    assert out == "Intro\n\n| Name | Qty |\n|:----:|----:|\n|  n   |   6 |\n| a    |   1 |\n\nafter\n"
    with pytest.raises(DomainError) as err:
        T.batch(ALIGNED, "table-0", [ops[0], {"op": "set_cell", "row": 9, "col": 0, "value": "x"}])
    assert err.value.code == "NOT_FOUND"
    with pytest.raises(ArgumentError) as aerr:
        T.batch(ALIGNED, "table-0", [{"op": "explode"}])
    assert aerr.value.argument == "operations[0].op"


@pytest.mark.parametrize(
    ("call", "kind", "argument"),
    [
        (lambda: T.set_cell(ALIGNED, "table-0", 1, 0, "a\nb"), "INVALID_ARGUMENT", "value"),
        (lambda: T.set_cell(ALIGNED, "table-0", 5, 0, "x"), "NOT_FOUND", "row"),
        (lambda: T.set_cell(ALIGNED, "table-0", 1, 5, "x"), "NOT_FOUND", "col"),
        (lambda: T.delete_column(ALIGNED, "table-0", 2), "NOT_FOUND", "operations[0].col"),
        (lambda: T.add_row(ALIGNED, "table-0", 0), "INVALID_ARGUMENT", "operations[0].index"),
        (lambda: T.add_row(ALIGNED, "table-0", 1, ["a", "b", "c"]), "INVALID_ARGUMENT", "cells"),
        (lambda: T.delete_row("| a |\n| - |\n", "table-0", 0), "INVALID_ARGUMENT", "operations[0].row"),
        (lambda: T.delete_column("| a |\n| - |\n", "table-0", 0), "INVALID_ARGUMENT", "operations[0].col"),
        (lambda: T.add_row(ALIGNED, "table-9"), "NOT_FOUND", "table_id"),
        (lambda: T.add_row(ALIGNED, "p-0"), "INVALID_ARGUMENT", "table_id"),
    ],
)
def test_errors(call: Any, kind: str, argument: str) -> None:
    with pytest.raises(DomainError) as err:
        call()
    assert err.value.code == kind
    assert err.value.details.get("argument") == argument


@pytest.mark.parametrize("text", [ALIGNED, SPACED, COMPACT, BARE, "| a |\n|---|\n"])
def test_round_trips(text: str) -> None:
    t = T.parse_table(text, structure_of(text).by_id["table-0"])
    for index in range(1, len(t.rows) + 2):
        added = run(T.add_row, text, "table-0", index, ["x"])
        assert run(T.delete_row, added, "table-0", index) == text
    for index in range(len(t.header) + 1):
        added = run(T.add_column, text, "table-0", index, "h", ["v"] * len(t.rows))
        assert run(T.delete_column, added, "table-0", index) == text
    twice = run(T.toggle_header_row, run(T.toggle_header_row, text, "table-0"), "table-0")
    assert twice == text


cell = st.text(alphabet="abc xyz中文|", max_size=6)


@st.composite
def tables(draw: Any) -> str:
    cols = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(cell, min_size=cols, max_size=cols), min_size=1, max_size=4))
    style = draw(st.sampled_from(["compact", "spaced", "aligned"]))
    esc = [[v.replace("|", "\\|").strip() or "x" for v in r] for r in rows]
    width = [max(3, *(T._width(r[c]) for r in esc)) for c in range(cols)]

    def line(r: list[str]) -> str:
        if style == "compact":
            return "|" + "|".join(r) + "|"
        if style == "spaced":
            return "| " + " | ".join(r) + " |"
        return "| " + " | ".join(v + " " * (w - T._width(v)) for v, w in zip(r, width, strict=True)) + " |"

    delim = ["-" * (w if style == "aligned" else 3) for w in width]
    return "\n".join(["before", "", line(esc[0]), line(delim), *(line(r) for r in esc[1:]), "", "after", ""])


@settings(max_examples=150, deadline=None)
@given(tables(), st.data())
def test_generated_tables(text: str, data: Any) -> None:
    block = structure_of(text).by_id["table-0"]
    t = T.parse_table(text, block)
    nrows, ncols = len(t.rows) + 1, len(t.header)
    op = data.draw(st.sampled_from(["add_row", "delete_row", "add_column", "delete_column", "set_cell"]))
    value = data.draw(cell)
    if op == "add_row":
        out = run(T.add_row, text, "table-0", data.draw(st.integers(1, nrows)), [value])
    elif op == "delete_row" and nrows > 1:
        out = run(T.delete_row, text, "table-0", data.draw(st.integers(0, nrows - 1)))
    elif op == "add_column":
        out = run(T.add_column, text, "table-0", data.draw(st.integers(0, ncols)), value)
    elif op == "delete_column" and ncols > 1:
        out = run(T.delete_column, text, "table-0", data.draw(st.integers(0, ncols - 1)))
    else:
        out = run(T.set_cell, text, "table-0", data.draw(st.integers(0, nrows - 1)), 0, value)
    assert out.startswith(text[: block.start]) and out.endswith(text[block.end :])
    after = structure_of(out)
    assert [b.type for b in after.blocks] == ["paragraph", "table", "paragraph"]
    if op == "set_cell":
        assert value.replace("|", "\\|").strip() in out


def test_a_final_backslash_does_not_escape_the_pipe() -> None:
    assert run(T.set_cell, COMPACT, "table-0", 1, 0, "a\\") == "|a|b|\n|-|-|\n|a\\\\|2|\n"
