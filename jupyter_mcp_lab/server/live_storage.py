"""Documents open in a collaborative JupyterLab are edited where the editors see them.

With jupyter-collaboration installed, a file open in JupyterLab lives in a shared document
(jupyter-server-ydoc's room); the file on disk trails it by the room's autosave. Through
the extension's public ``get_document(copy=False)`` an agent's change reaches that shared
document: for a text file as the minimal set of changed regions in one transaction, for a
notebook cell by cell (a changed source as granular text changes in that cell, a changed
cell replaced, a new cell order applied by jupyter-ydoc), so every open editor shows it at
once and the person's cursor stays where it was. The room then saves the file itself (its
own save keeps its out-of-band-change bookkeeping straight); a write waits for that save.
Reads see the shared document, which includes what the person typed and did not save.
Files no editor has open, and servers without jupyter-server-ydoc, go through the contents
manager as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jupyter_core.utils import ensure_async

from ..core.content import NotebookContent
from ..core.errors import DomainError
from ..core.suggestions.diff import regions
from .contents_storage import ContentsStorage

# live_cells needs pycrdt and jupyter-ydoc, which only the optional `rtc` extra installs: it is
# imported where a shared document exists, so the extension loads without them.
if TYPE_CHECKING:
    from .live_cells import CellOutputs

log = logging.getLogger(__name__)

SAVE_GRACE = 3.0  # seconds beyond the room's save delay to wait for its save


class LiveStorage(ContentsStorage):
    def __init__(self, serverapp: Any, hidden_allowed: Sequence[str] = ()) -> None:
        super().__init__(serverapp, hidden_allowed)
        self._settings = serverapp.web_app.settings

    async def _shared(self, path: str) -> Any | None:
        """The shared document of ``path`` while JupyterLab has it open, else None."""
        ext = self._settings.get("jupyter_server_ydoc")
        ids = self._settings.get("file_id_manager")
        if ext is None or ids is None or self._direct(path):
            return None
        if not getattr(ext.ywebsocket_server, "rooms", True):
            return None  # no room open at all: skip the file-id database (most agent reads)
        if ids.get_id(path) is None:  # nobody opened it: no room, and no need to index it
            return None
        notebook = path.endswith(".ipynb")
        return await ext.get_document(
            path=path,
            content_type="notebook" if notebook else "file",
            file_format="json" if notebook else "text",
            copy=False,
        )

    async def read_text(self, path: str) -> str:
        shared = await self._shared(path)
        if shared is None:
            return await super().read_text(path)
        return _text_of(shared, path)

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        shared = await self._shared(path)
        if shared is None:
            return await super().write_text(path, text, base)
        before = await self._modified(path)
        # Compare and apply with no await in between: nobody's keystroke slips through.
        current = _text_of(shared, path)
        if base is not None and current != base:
            raise DomainError(
                "CONFLICT",
                f"{path!r} changed in a JupyterLab editor since it was read; re-read and retry",
                path=path,
            )
        if current == text:
            return
        if path.endswith(".ipynb"):
            _apply_notebook(shared, text)
        else:
            _apply_text(shared, current, text)
        await self._saved(path, before)

    async def cell_outputs(self, path: str, cell_id: str) -> CellOutputs | None:
        """Where a running cell's outputs are shown as they arrive: its shared document while
        the notebook is open in JupyterLab (None otherwise: stored when the run ends)."""
        shared = await self._shared(path) if path.endswith(".ipynb") else None
        if shared is None:
            return None
        from .live_cells import CellOutputs

        return CellOutputs(shared, cell_id)

    async def _modified(self, path: str) -> Any:
        try:
            model = await ensure_async(self.cm.get(path, content=False, type="file"))
        except Exception:
            return None
        return (model.get("last_modified"), model.get("size"))

    async def _saved(self, path: str, before: Any) -> None:
        """Wait for the room's own save after our change (its autosave follows every change;
        with autosave off the person saves from JupyterLab, as for their own typing)."""
        ext = self._settings.get("jupyter_server_ydoc")
        delay = getattr(ext, "document_save_delay", 1.0)
        if delay is None:
            return
        deadline = time.monotonic() + delay + SAVE_GRACE
        seen = before
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            now = await self._modified(path)
            # Saved once it changed and then held still for a poll: Jupyter's save writes the
            # file in place, so a read in the middle of it sees a partial file.
            if now == seen and now != before:
                return
            seen = now
        log.warning("the shared document of %s was not saved within %.1f s; its autosave will", path, delay)


def _text_of(shared: Any, path: str) -> str:
    """The shared document as its file stores it (a notebook as Jupyter writes it)."""
    if path.endswith(".ipynb"):
        return NotebookContent(shared.get()).serialize()
    return str(shared.get())


def _apply_text(shared: Any, current: str, text: str) -> None:
    from pycrdt import Text

    from .live_cells import ORIGIN

    source = shared.ydoc.get("source", type=Text)
    with shared.ydoc.transaction(origin=ORIGIN):
        for a0, a1, b0, b1 in reversed(regions(current, text)):
            start = len(current[:a0].encode("utf-8"))  # pycrdt indexes UTF-8 bytes
            end = start + len(current[a0:a1].encode("utf-8"))
            if end > start:
                del source[start:end]
            if b1 > b0:
                source.insert(start, text[b0:b1])


def _stored(cell: dict[str, Any]) -> dict[str, Any]:
    """A shared cell as the file stores it: without the transient ``trusted`` flag the room
    adds (nbformat strips it on write, so a read never shows it)."""
    metadata = {k: v for k, v in cell.get("metadata", {}).items() if k != "trusted"}
    return {**cell, "metadata": metadata}


def _apply_notebook(shared: Any, text: str) -> None:
    """Turn the shared notebook into ``text``'s cells by id: gone cells deleted, new ones
    inserted, moved ones re-placed, and a changed cell changed in place (its source as text
    changes, so the person's cursor in it stays on its text; its outputs as output changes)."""
    from .live_cells import ORIGIN, update_cell

    new = NotebookContent.parse("notebook", text)
    wanted = {c["id"] for c in new.cells}
    with shared.ydoc.transaction(origin=ORIGIN):
        cells = shared.ycells
        for i in reversed(range(len(cells))):
            if cells[i]["id"] not in wanted:
                del cells[i]
        for i, cell in enumerate(new.cells):
            ids = [c["id"] for c in cells]
            if i < len(ids) and ids[i] == cell["id"]:
                now = _stored(shared.get_cell(i))
                if now != cell:
                    update_cell(shared, i, now, cell)
                continue
            if cell["id"] in ids:
                del cells[ids.index(cell["id"])]  # moved: placed again below
            cells.insert(i, shared.create_ycell(cell))
        if new.nb.get("metadata") != shared.get().get("metadata"):
            shared.set({**shared.get(), "metadata": new.nb.get("metadata", {})})
