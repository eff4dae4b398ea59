"""``core.content.notebook_json.writes`` is byte for byte what nbformat writes.

Notebooks of every shape nbformat's writer treats apart: sources as strings and as lines,
stream / execute_result / display_data / error outputs, text, JSON, SVG, JavaScript and
PNG data, attachments, transient metadata (``trusted``, ``orig_nbformat``, ``signature``),
non-ASCII text, a raw cell, an empty notebook; and the notebooks shipped in ``notebooks/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output, new_raw_cell

from jupyter_mcp_lab.core.content import notebook_json
from jupyter_mcp_lab.core.content.notebook import NotebookContent

ROOT = Path(__file__).resolve().parents[3]
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\n"


def rich() -> Any:
    code = new_code_cell("import math\nprint('π ≈', math.pi)\n", execution_count=3)
    code.metadata.update(trusted=True, tags=["slow"])
    code.outputs = [
        new_output("stream", name="stdout", text="π ≈ 3.14\nsecond line\n"),
        new_output(
            "execute_result",
            data={
                "text/plain": "a\nb",
                "text/html": "<b>a</b>\n<i>b</i>\n",
                "application/json": {"a": [1, 2]},
                "image/svg+xml": "<svg>\n</svg>",
                "application/javascript": "var a = 1;\nvar b = 2;",
                "image/png": PNG,
            },
            execution_count=3,
        ),
        new_output("display_data", data={"text/plain": "shown"}, metadata={"isolated": True}),
        new_output("error", ename="ValueError", evalue="bad", traceback=["line 1", "line 2"]),
    ]
    markdown = new_markdown_cell("# Title\n\nSome *text* ![x](attachment:x.png)")
    markdown.attachments = {"x.png": {"image/png": PNG, "text/plain": "a\nb"}}
    nb = new_notebook(
        cells=[markdown, code, new_raw_cell("raw\ntext"), new_code_cell(["already\n", "lines"])],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    nb.metadata.update(orig_nbformat=3, signature="sha256:x")
    return nb


def shipped() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("*.ipynb"))


NOTEBOOKS = {"rich": rich(), "empty": new_notebook(), **{p.name: nbformat.read(p, as_version=4) for p in shipped()}}


@pytest.mark.parametrize("nb", list(NOTEBOOKS.values()), ids=list(NOTEBOOKS))
def test_the_same_bytes_as_nbformat(nb: Any) -> None:
    expected = nbformat.v4.writes(nb)  # nbformat's writer, as Jupyter's save calls it (no validation)
    plain = json.loads(json.dumps(nb))  # plain dicts, as the project holds notebooks
    assert notebook_json.writes(plain) == expected
    assert json.loads(json.dumps(nb)) == plain  # the notebook given is not changed


def test_a_parsed_notebook_serializes_as_nbformat_writes_it() -> None:
    text = nbformat.writes(rich())
    content = NotebookContent.parse("notebook", text)
    assert content.serialize() == text
