"""Documents open in a collaborative JupyterLab are edited where the editors see them.

With jupyter-collaboration installed, a file open in a JupyterLab editor lives in a shared
document (jupyter-server-ydoc's room, a pycrdt ``Text``); the file on disk trails it by the
room's autosave. An agent's change to such a file is applied to the shared text as the
minimal set of changed regions in one transaction, so every open editor shows it at once
and the person's cursor stays where it was; then the room saves to disk itself (its own
save keeps its out-of-band-change bookkeeping straight). Reads see the shared text, which
includes what the person typed but was not saved yet. Files no editor has open, and
servers without jupyter-server-ydoc, go through the contents manager as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from ..core.errors import DomainError
from ..core.suggestions.diff import regions
from .contents_storage import ContentsStorage

log = logging.getLogger(__name__)

ORIGIN = "jupyter-mcp-lab"  # the transaction origin: who changed the shared text
SAVE_ATTEMPTS = 40  # x 50 ms: the room refuses to save while it is loading or reloading


class LiveStorage(ContentsStorage):
    def __init__(self, serverapp: Any, hidden_allowed: Sequence[str] = ()) -> None:
        super().__init__(serverapp, hidden_allowed)
        self._settings = serverapp.web_app.settings

    async def _room(self, path: str) -> Any | None:
        """The open room of a text file, if jupyter-server-ydoc runs and an editor has it."""
        ext = self._settings.get("jupyter_server_ydoc")
        ids = self._settings.get("file_id_manager")
        if ext is None or ids is None or self._direct(path):
            return None
        file_id = ids.get_id(path)  # get_id, not index: a file nobody opened has no room
        if file_id is None:
            return None
        from jupyter_server_ydoc.utils import encode_file_path, room_id_from_encoded_path
        from jupyter_server_ydoc.websocketserver import RoomNotFound

        room_id = room_id_from_encoded_path(encode_file_path("text", "file", file_id))
        try:
            room = await ext.ywebsocket_server.get_room(room_id)
        except RoomNotFound:
            return None
        document = getattr(room, "_document", None)
        return room if document is not None and hasattr(document, "ydoc") else None

    async def read_text(self, path: str) -> str:
        room = await self._room(path)
        if room is None:
            return await super().read_text(path)
        return str(room._document.ydoc.get("source", type=_text_type()))

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        room = await self._room(path)
        if room is None:
            return await super().write_text(path, text, base)
        source = room._document.ydoc.get("source", type=_text_type())
        # Compare and apply with no await in between: nobody's keystroke slips through.
        current = str(source)
        if base is not None and current != base:
            raise DomainError(
                "CONFLICT",
                f"{path!r} changed in a JupyterLab editor since it was read; re-read and retry",
                path=path,
            )
        with room._document.ydoc.transaction(origin=ORIGIN):
            for a0, a1, b0, b1 in reversed(regions(current, text)):
                start = len(current[:a0].encode("utf-8"))  # pycrdt indexes UTF-8 bytes
                end = start + len(current[a0:a1].encode("utf-8"))
                if end > start:
                    del source[start:end]
                if b1 > b0:
                    source.insert(start, text[b0:b1])
        await self._save(room, path)

    async def _save(self, room: Any, path: str) -> None:
        # Saved now rather than after the autosave delay: callers expect a saved file.
        for _ in range(SAVE_ATTEMPTS):
            task = room._save_to_disc()
            if task is not None:
                await task
                return
            await asyncio.sleep(0.05)
        log.warning("the shared document of %s did not save; its autosave will", path)


def _text_type() -> Any:
    from pycrdt import Text

    return Text
