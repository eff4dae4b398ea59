"""Document storage through Jupyter's contents manager, so agent saves are ordinary Jupyter
saves: the same root, hidden-file and permission rules, atomic writes, file ids, events."""

from __future__ import annotations

from typing import Any

from jupyter_core.utils import ensure_async
from tornado.web import HTTPError

from ..core.errors import DomainError


class ContentsStorage:
    def __init__(self, contents_manager: Any) -> None:
        self.cm = contents_manager

    async def read_text(self, path: str) -> str:
        try:
            model = await ensure_async(self.cm.get(path, content=True, type="file", format="text"))
        except HTTPError as exc:
            raise _domain(exc, path) from None
        return str(model["content"])

    async def write_text(self, path: str, text: str) -> None:
        try:
            await ensure_async(self.cm.save({"type": "file", "format": "text", "content": text}, path))
        except HTTPError as exc:
            raise _domain(exc, path) from None

    async def exists(self, path: str) -> bool:
        return bool(await ensure_async(self.cm.file_exists(path)))


def _domain(exc: HTTPError, path: str) -> DomainError:
    message = exc.log_message or exc.reason or str(exc)
    if exc.status_code == 404:
        return DomainError("NOT_FOUND", f"no file {path!r} in the workspace", path=path)
    if exc.status_code in (400, 403):
        return DomainError("INVALID_PATH", f"{path!r}: {message}", path=path)
    return DomainError("INTERNAL", f"saving or reading {path!r} failed: {message}", path=path)
