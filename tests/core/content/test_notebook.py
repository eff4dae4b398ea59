"""Notebooks as documents: cells are parts addressed by id, written back as Jupyter writes."""

from __future__ import annotations

import json

import nbformat
import pytest

from jupyter_mcp_lab.core.content import NotebookContent, content_of, locate
from jupyter_mcp_lab.core.errors import DomainError


def notebook(*cells: tuple[str, str], minor: int = 5) -> str:
    nb = nbformat.v4.new_notebook()
    make = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell}
    nb.cells = [make[kind](src) for kind, src in cells]
    text = str(nbformat.writes(nb))
    if minor < 5:
        data = json.loads(text)
        data["nbformat_minor"] = minor
        for cell in data["cells"]:
            del cell["id"]
        text = json.dumps(data, indent=1)
    return text


def test_cells_are_parts_by_id_and_jupyter_formatting_round_trips() -> None:
    text = notebook(("markdown", "# Title\n\nIntro."), ("code", "x = 1\nprint(x)"))
    content = content_of("notebook", text)
    parts = content.parts()
    assert [(p.type, p.text) for p in parts] == [("markdown", "# Title\n\nIntro."), ("code", "x = 1\nprint(x)")]
    assert content.serialize() == text  # a notebook Jupyter saved is byte-identical
    assert content.part(parts[1].id).text == "x = 1\nprint(x)"


def test_changing_one_cell_leaves_every_other_byte() -> None:
    text = notebook(("markdown", "# A"), ("code", "a = 1"), ("code", "b = 2"))
    content = content_of("notebook", text)
    middle = content.parts()[1]
    changed = content.with_part(middle.id, "a = 10")
    assert changed.part(middle.id).text == "a = 10"
    before, after = text.splitlines(), changed.serialize().splitlines()
    assert len(before) == len(after)
    assert [i for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y] == [
        next(i for i, line in enumerate(before) if '"a = 1"' in line)
    ]


def test_old_notebooks_get_stable_ids_stored_on_first_write() -> None:
    text = notebook(("code", "a"), ("code", "b"), minor=4)
    first = content_of("notebook", text)
    assert [p.id for p in first.parts()] == ["cell-0", "cell-1"]
    assert [p.id for p in content_of("notebook", text).parts()] == ["cell-0", "cell-1"]  # same on every read
    written = json.loads(first.with_part("cell-1", "c").serialize())
    assert written["nbformat_minor"] == 5
    assert [c["id"] for c in written["cells"]] == ["cell-0", "cell-1"]


def test_insert_move_delete_and_outputs() -> None:
    content = NotebookContent.parse("notebook", notebook(("code", "a"), ("code", "b")))
    a, b = (p.id for p in content.parts())
    content = content.insert_cell(1, "markdown", "between", cell_id="m1")
    assert [p.id for p in content.parts()] == [a, "m1", b]
    content = content.move_cell(b, 0)
    assert [p.id for p in content.parts()] == [b, a, "m1"]
    content = content.set_outputs(a, [{"output_type": "stream", "name": "stdout", "text": "hi\n"}], 3)
    listing = content.listing()
    assert (listing[1].id, listing[1].execution_count, listing[1].outputs) == (a, 3, 1)
    content = content.delete_cell("m1")
    assert [p.id for p in content.parts()] == [b, a]
    nbformat.validate(nbformat.reads(content.serialize(), as_version=4))  # still a valid notebook
    with pytest.raises(DomainError) as no_cell:
        content.part("m1")
    assert no_cell.value.code == "NOT_FOUND"
    with pytest.raises(DomainError):
        content.set_outputs(content.insert_cell(0, "markdown", "x", cell_id="md").parts()[0].id, [], None)


@pytest.mark.parametrize("bad", ["{", "[]", '{"nbformat": 3, "worksheets": []}', '{"nbformat": 4, "cells": [1]}'])
def test_what_is_not_a_notebook_is_refused(bad: str) -> None:
    with pytest.raises(DomainError) as refused:
        content_of("notebook", bad)
    assert refused.value.code == "INVALID_PATH"


def test_a_change_on_a_cell_follows_it_through_changes_elsewhere() -> None:
    base = NotebookContent.parse("notebook", notebook(("code", "alpha beta"), ("code", "gamma")))
    first, second = (p.id for p in base.parts())
    start = "alpha beta".index("beta")
    # Cells inserted above and the other cell edited: the range is where it was in its cell.
    later = base.insert_cell(0, "markdown", "# New").with_part(second, "gamma delta")
    assert locate(base, later, first, start, start + 4, "beta") == (start, start + 4)
    # Text typed before it in the same cell moves it.
    typed = later.with_part(first, "very alpha beta")
    assert locate(base, typed, first, start, start + 4, "beta") == (start + 5, start + 9)
    # The person changed the range itself, or deleted the cell: a conflict.
    assert locate(base, later.with_part(first, "alpha BETA"), first, start, start + 4, "beta") is None
    assert locate(base, later.delete_cell(first), first, start, start + 4, "beta") is None
