"""Document storage through Jupyter's contents manager, so agent saves are ordinary Jupyter
saves: the same root, hidden-file and permission rules, save hooks, file ids, events.

Jupyter's own "atomic" save copies the file to ``.~name`` and rewrites the file in place,
so a server killed during a save leaves a cut file. For a contents manager on the local
filesystem (Jupyter's default) the text is therefore written the crash-safe way instead
(``core.storage.atomic_write``: beside, flushed, renamed over), wrapped in what the
contents manager does around a save: the hidden-file check, the pre- and post-save hooks,
the ``save`` event (the file id service, the vault index and other listeners follow it),
and the file's Jupyter id, which an inode-based id manager would otherwise lose with the
rename (a collaborative room is named by that id). Other contents managers (S3, databases)
save their own way.

One exception: Jupyter hides dot-folders by default, and ``.github/workflows`` is where
workflow YAML lives. Folders named in ``hidden_allowed`` are read and written directly
(confined to the root, crash-safe) while the contents manager hides them."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async
from jupyter_server.services.contents.fileio import FileManagerMixin
from tornado.web import HTTPError

from ..core.errors import DomainError
from ..core.paths import resolve_in_root
from ..core.storage import FileStorage, atomic_write
from .read_cache import ReadCache, serves

log = logging.getLogger(__name__)


class ContentsStorage:
    def __init__(self, serverapp: Any, hidden_allowed: Sequence[str] = ()) -> None:
        """The storage of a Jupyter server; every storage the extension can be configured
        with (``MCPLabApp.document_storage_class``) is built with these two arguments."""
        self.cm = serverapp.contents_manager
        self.hidden_allowed = tuple(p.strip("/") + "/" for p in hidden_allowed if p.strip("/"))
        self.root = Path(self.cm.root_dir).resolve()
        self._files = FileStorage(self.root)
        self._settings: dict[str, Any] = serverapp.web_app.settings
        # Files unchanged since they were read are not read again (see read_cache).
        self._cache = ReadCache(self.root) if serves(self.cm) else None

    def _direct(self, path: str) -> bool:
        """Whether ``path`` is in an allowed hidden folder that Jupyter would refuse."""
        if getattr(self.cm, "allow_hidden", False) or not any(p.startswith(".") for p in path.split("/")):
            return False
        return path.startswith(self.hidden_allowed)

    async def read_text(self, path: str) -> str:
        if self._direct(path):
            return await self._files.read_text(path)
        cache = self._cache
        if cache is not None:
            if (kept := cache.get(path)) is not None:
                return kept
            before = cache.before_read(path)
        try:
            model = await ensure_async(self.cm.get(path, content=True, type="file", format="text"))
        except HTTPError as exc:
            raise _domain(exc, path) from None
        text = str(model["content"])
        if cache is not None:
            cache.put(path, before, text)
        return text

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        if self._direct(path):
            return await self._files.write_text(path, text)
        if self._cache is not None:
            self._cache.drop(path)
        try:
            if await self._hidden(path):
                # Refused before anything is written (Jupyter's save would write, then fail to read it).
                raise HTTPError(400, f"{path} is hidden; Jupyter does not serve hidden files")
            # Missing folders are made first, as a file storage would (save as drafts/new.md).
            parts = path.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                folder = "/".join(parts[:depth])
                if not await ensure_async(self.cm.dir_exists(folder)):
                    await ensure_async(self.cm.save({"type": "directory"}, folder))
            model = {"type": "file", "format": "text", "content": text}
            target = self._crash_safe_target(path)
            if target is not None:
                await self._save_beside(path, model, target)
            else:
                await ensure_async(self.cm.save(model, path))
        except HTTPError as exc:
            raise _domain(exc, path) from None

    async def exists(self, path: str) -> bool:
        if self._direct(path):
            return await self._files.exists(path)
        if await self._hidden(path):
            # Not a workspace file, as reading it answers: a save_as onto it is refused as
            # hidden, never as "already exists", whether or not the file is there.
            return False
        return bool(await ensure_async(self.cm.file_exists(path)))

    async def _hidden(self, path: str) -> bool:
        """Whether Jupyter hides ``path`` (ContentsManager.allow_hidden off)."""
        return not self.cm.allow_hidden and bool(await ensure_async(self.cm.is_hidden(path)))

    def _crash_safe_target(self, path: str) -> Path | None:
        """Where a crash-safe save of ``path`` writes (a symlink's target: the link stays a
        link), or None for Jupyter's own save: a filesystem contents manager with atomic
        writing on (an operator may turn it off, e.g. for a filesystem without renames) and a
        folder we may create files in (else Jupyter writes in place)."""
        if not isinstance(self.cm, FileManagerMixin) or not getattr(self.cm, "use_atomic_writing", True):
            return None
        target = resolve_in_root(self.root, path)
        return target if os.access(target.parent, os.W_OK) or not target.exists() else None

    async def _save_beside(self, path: str, model: dict[str, Any], target: Path) -> None:
        """What the contents manager's save does, with the bytes written crash-safe to
        ``target`` (``path`` resolved in the root)."""
        cm = self.cm
        cm.run_pre_save_hooks(model=model, path=path)
        ids = self._inode_ids()
        file_id = ids.get_id(path) if ids is not None else None
        content = model["content"]

        def write() -> None:
            with cm.perm_to_403(str(target)):
                atomic_write(target, content)

        await asyncio.to_thread(write)
        if self._cache is not None and isinstance(content, str):
            self._cache.wrote(path, content)  # the next read compares bytes, not a get
        if file_id is not None:
            _keep_file_id(ids, path, file_id)
        if cm.post_save_hook is not None or getattr(cm, "_post_save_hooks", True):
            # The saved file's model is for the hooks only: without hooks, no get (each emits
            # a contents event that jupyter_events validates against its schema).
            saved = await ensure_async(cm.get(path, content=False))
            cm.run_post_save_hooks(model=saved, os_path=str(target))
        cm.emit(data={"action": "save", "path": path})

    def _inode_ids(self) -> Any | None:
        """Jupyter's file id manager when it follows files by inode (it updates its record on
        every save), which a rename would give a new id; None for one that goes by path
        (jupyter_server_fileid's default keeps the id through a rename: no lookup needed)."""
        ids = self._settings.get("file_id_manager")
        if ids is None or ids.get_handlers_by_action().get("save") is None:
            return None
        return ids


def _keep_file_id(ids: Any, path: str, file_id: str) -> None:
    """Give the renamed file the id it had: an inode-based id manager (LocalFileIdManager)
    would take the new inode for a new file, and JupyterLab would open a new room for it."""
    if ids.get_id(path) == file_id:
        return
    update, stat, normalize = (getattr(ids, n, None) for n in ("_update", "_stat", "_normalize_path"))
    if update is not None and stat is not None and normalize is not None and getattr(ids, "con", None) is not None:
        with ids.con:
            update(file_id, stat_info=stat(normalize(path)))
    if ids.get_id(path) != file_id:
        log.warning("%s got a new Jupyter file id after a crash-safe save (%s)", path, type(ids).__name__)


def _domain(exc: HTTPError, path: str) -> DomainError:
    message = exc.log_message or exc.reason or str(exc)
    if exc.status_code == 404:
        return DomainError("NOT_FOUND", f"no file {path!r} in the workspace", path=path)
    if exc.status_code in (400, 403):
        return DomainError("INVALID_PATH", f"{path!r}: {message}", path=path)
    return DomainError("INTERNAL", f"saving or reading {path!r} failed: {message}", path=path)
