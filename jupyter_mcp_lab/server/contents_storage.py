"""Document storage through Jupyter's contents manager, so agent saves are ordinary Jupyter
saves: the same root, hidden-file and permission rules, atomic writes, file ids, events.

One exception: Jupyter hides dot-folders by default, and ``.github/workflows`` is where
workflow YAML lives. Folders named in ``hidden_allowed`` are read and written directly
(confined to the root, atomically) while the contents manager hides them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async
from tornado.web import HTTPError

from ..core.errors import DomainError
from ..core.storage import FileStorage


class ContentsStorage:
    def __init__(self, serverapp: Any, hidden_allowed: Sequence[str] = ()) -> None:
        """The storage of a Jupyter server; every storage the extension can be configured
        with (``MCPLabApp.document_storage_class``) is built with these two arguments."""
        self.cm = serverapp.contents_manager
        self.hidden_allowed = tuple(p.strip("/") + "/" for p in hidden_allowed if p.strip("/"))
        self._files = FileStorage(Path(self.cm.root_dir))

    def _direct(self, path: str) -> bool:
        """Whether ``path`` is in an allowed hidden folder that Jupyter would refuse."""
        if getattr(self.cm, "allow_hidden", False) or not any(p.startswith(".") for p in path.split("/")):
            return False
        return path.startswith(self.hidden_allowed)

    async def read_text(self, path: str) -> str:
        if self._direct(path):
            return await self._files.read_text(path)
        try:
            model = await ensure_async(self.cm.get(path, content=True, type="file", format="text"))
        except HTTPError as exc:
            raise _domain(exc, path) from None
        return str(model["content"])

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        if self._direct(path):
            return await self._files.write_text(path, text)
        try:
            # Missing folders are made first, as a file storage would (save as drafts/new.md).
            parts = path.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                folder = "/".join(parts[:depth])
                if not await ensure_async(self.cm.dir_exists(folder)):
                    await ensure_async(self.cm.save({"type": "directory"}, folder))
            await ensure_async(self.cm.save({"type": "file", "format": "text", "content": text}, path))
        except HTTPError as exc:
            raise _domain(exc, path) from None

    async def exists(self, path: str) -> bool:
        if self._direct(path):
            return await self._files.exists(path)
        return bool(await ensure_async(self.cm.file_exists(path)))


def _domain(exc: HTTPError, path: str) -> DomainError:
    message = exc.log_message or exc.reason or str(exc)
    if exc.status_code == 404:
        return DomainError("NOT_FOUND", f"no file {path!r} in the workspace", path=path)
    if exc.status_code in (400, 403):
        return DomainError("INVALID_PATH", f"{path!r}: {message}", path=path)
    return DomainError("INTERNAL", f"saving or reading {path!r} failed: {message}", path=path)
