"""New cells and outputs as plain dicts, with the fields nbformat's ``new_*_cell`` and
``output_from_msg`` give them but without their schema validation (a jsonschema pass per
cell or output: about a millisecond each, the largest part of storing a trivial run's
output). What goes in is ours (a cell's type and source) or a kernel message's content in
the messaging protocol's shape; ``tests/core/content/test_cells.py`` holds both to
nbformat's constructors."""

from __future__ import annotations

from typing import Any

from nbformat.corpus.words import generate_corpus_id

OUTPUT_TYPES = frozenset({"stream", "display_data", "execute_result", "error"})


def new_cell(cell_type: str, source: str = "") -> dict[str, Any]:
    """A new cell (``code``, ``markdown``, anything else raw) with a fresh id."""
    if cell_type == "code":
        return {
            "id": generate_corpus_id(),
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "source": source,
            "outputs": [],
        }
    kind = "markdown" if cell_type == "markdown" else "raw"
    return {"id": generate_corpus_id(), "cell_type": kind, "source": source, "metadata": {}}


def output_from_msg(msg_type: str, content: dict[str, Any]) -> dict[str, Any]:
    """The notebook output of a kernel's IOPub ``stream``, ``display_data``,
    ``execute_result`` or ``error`` message."""
    if msg_type == "stream":
        return {"output_type": "stream", "name": content["name"], "text": content["text"]}
    if msg_type in ("display_data", "execute_result"):
        out = {"output_type": msg_type, "metadata": content["metadata"], "data": content["data"]}
        if msg_type == "execute_result":
            out["execution_count"] = content["execution_count"]
        return out
    if msg_type == "error":
        return {
            "output_type": "error",
            "ename": content["ename"],
            "evalue": content["evalue"],
            "traceback": content["traceback"],
        }
    raise ValueError(f"Unrecognized output msg type: {msg_type!r}")
