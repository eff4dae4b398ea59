"""The reference's ways of naming a notebook and a cell, mapped onto ours.

A notebook is named by the name the session gave it in use_notebook (``notebook_name``), or
not at all: then the operations act on the session's focused notebook, the one use_notebook
made current. A cell is named by ``cell_id`` (which wins) or ``cell_index``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.notebook import sessions
from .answers import JUPYTER_CODE

NOTEBOOK_NAME: Any = Field(
    None,
    description="Target this specific connected notebook instead of the currently activated one. Omit to use "
    "the currently activated notebook (each MCP session has its own).",
)
CELL_ID: Any = Field(
    None,
    description="Address the cell by its notebook cell id instead of its index (ids stay valid when cells "
    "move). Given both, the id wins.",
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoParams(Strict):
    pass


async def used(ctx: OpContext) -> dict[str, str]:
    """name -> path of the notebooks this session uses."""
    r = await sessions.list_(ctx, sessions.ListParams(used=True, limit=1000))
    assert isinstance(r, sessions.NotebookList)
    return {e.name or e.path: e.path for e in r.notebooks}


def not_connected_text(name: str, names: list[str]) -> str:
    return f"Notebook '{name}' is not connected. All currently connected notebooks: {names}"


def not_connected(name: str, names: list[str]) -> DomainError:
    text = not_connected_text(name, names)
    return DomainError("NOT_FOUND", text, notebook=name, notebooks=names, **{JUPYTER_CODE: text})


async def notebook_path(ctx: OpContext, name: str | None) -> str | None:
    """The path of the notebook ``name`` names (None: the session's focused one)."""
    if name is None:
        return None
    names = await used(ctx)
    if name not in names:
        raise not_connected(name, list(names))
    return names[name]


def cell_ref(index: int | None, cell_id: str | None, what: str = "cell_index") -> str | int:
    if cell_id is not None:
        return cell_id
    if index is None:
        raise DomainError("INVALID_ARGUMENT", f"give {what} or the cell's id", argument=what)
    return index
