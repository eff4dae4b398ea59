"""Real nbformat notebooks written for the tests: markdown, code, stream/error/display outputs,
an image, an old notebook without cell ids, a long one."""

from __future__ import annotations

import base64
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output, new_raw_cell

PNG = base64.b64encode(bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001")).decode() + "\n"


def rich() -> nbformat.NotebookNode:
    cells = [
        new_markdown_cell("# Analysis\n\nSome text.\n\n## Data", id="intro"),
        new_code_cell(
            "import math\nprint('hi')",
            id="load",
            execution_count=1,
            outputs=[new_output("stream", name="stdout", text="hi\n")],
        ),
        new_code_cell(
            "plot()",
            id="plot",
            execution_count=2,
            outputs=[
                new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"}),
                new_output("execute_result", data={"text/plain": "42", "text/html": "<b>42</b>"}, execution_count=2),
            ],
        ),
        new_code_cell(
            "1/0",
            id="boom",
            execution_count=3,
            outputs=[
                new_output(
                    "error",
                    ename="ZeroDivisionError",
                    evalue="division by zero",
                    traceback=["\x1b[31mZeroDivisionError\x1b[0m"],
                )
            ],
        ),
        new_markdown_cell("```\n# not a heading\n```\n### Results", id="results"),
        new_raw_cell("raw text", id="raw"),
    ]
    nb = new_notebook(
        cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    )
    return nb


def write(root: Path, name: str, nb: nbformat.NotebookNode) -> str:
    (root / name).write_text(nbformat.writes(nb), encoding="utf-8")
    return name


def old_without_ids() -> str:
    """An nbformat 4.4 notebook as older Jupyter wrote it: no cell ids."""
    nb = new_notebook(cells=[new_markdown_cell("# Old"), new_code_cell("x = 1")])
    nb.nbformat_minor = 4
    text = nbformat.writes(nb)
    import json

    data = json.loads(text)
    for cell in data["cells"]:
        cell.pop("id", None)
    return json.dumps(data, indent=1) + "\n"


def long(n: int) -> nbformat.NotebookNode:
    return new_notebook(cells=[new_code_cell(f"x{i} = {i}\n" + "# filler\n" * 20, id=f"c{i}") for i in range(n)])
