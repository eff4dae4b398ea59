"""``core.content.cells`` makes the cells and outputs nbformat's constructors make (without
their schema validation), so notebooks written from them are the same."""

from __future__ import annotations

from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_raw_cell, output_from_msg

from jupyter_mcp_lab.core.content import cells

MESSAGES: list[tuple[str, dict[str, Any]]] = [
    ("stream", {"name": "stderr", "text": "warn\nmore\n"}),
    ("display_data", {"data": {"image/png": "iVBOR", "text/plain": "<img>"}, "metadata": {"isolated": True}}),
    (
        "execute_result",
        {"data": {"text/plain": "42"}, "metadata": {}, "execution_count": 7, "transient": {"display_id": "x"}},
    ),
    ("error", {"ename": "ValueError", "evalue": "bad", "traceback": ["a", "b"]}),
]


@pytest.mark.parametrize(("kind", "content"), MESSAGES, ids=[k for k, _ in MESSAGES])
def test_an_output_is_nbformats(kind: str, content: dict[str, Any]) -> None:
    ours = cells.output_from_msg(kind, content)
    assert ours == output_from_msg({"header": {"msg_type": kind}, "content": content})
    nbformat.validate(ours, ref=kind, version=4)  # valid as the schema says


def test_other_messages_are_not_outputs() -> None:
    with pytest.raises(ValueError, match="status"):
        cells.output_from_msg("status", {"execution_state": "idle"})


@pytest.mark.parametrize(
    ("kind", "make"), [("code", new_code_cell), ("markdown", new_markdown_cell), ("raw", new_raw_cell)]
)
def test_a_new_cell_is_nbformats_with_a_fresh_id(kind: str, make: Any) -> None:
    ours, theirs = cells.new_cell(kind, "x = 1\ny = 2"), dict(make("x = 1\ny = 2"))
    assert ours.pop("id") != theirs.pop("id") and ours == theirs
    assert cells.new_cell("code")["id"] != cells.new_cell("code")["id"]
    assert cells.new_cell("anything else")["cell_type"] == "raw"
