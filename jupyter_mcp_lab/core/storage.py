"""Where document text lives. The Jupyter server plugs in its contents manager; standalone
servers and tests use the filesystem directly. Writes are atomic (write, fsync, rename)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path
from typing import Protocol

from .errors import DomainError
from .paths import resolve_in_root


class Storage(Protocol):
    async def read_text(self, path: str) -> str: ...

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        """Replace the file's text. ``base`` is the text the caller last read: a storage
        that can compare and write at once (a live shared document) refuses to write
        over a change made since (CONFLICT); a plain file cannot, and ignores it."""
        ...

    async def exists(self, path: str) -> bool: ...


class FileStorage:
    """UTF-8 text files below ``root``; line endings are kept as they are."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    async def read_text(self, path: str) -> str:
        return await asyncio.to_thread(self._read, path)

    def _read(self, path: str) -> str:
        target = resolve_in_root(self.root, path)
        if target.is_dir():
            raise DomainError("INVALID_PATH", f"{path!r} is a directory, not a file", path=path)
        try:
            with open(target, encoding="utf-8", newline="") as f:
                return f.read()
        except FileNotFoundError:
            raise DomainError("NOT_FOUND", f"no file {path!r} in the workspace", path=path) from None
        except UnicodeDecodeError:
            raise DomainError("INVALID_PATH", f"{path!r} is not a UTF-8 text file", path=path) from None

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        await asyncio.to_thread(atomic_write, resolve_in_root(self.root, path), text)

    async def exists(self, path: str) -> bool:
        return await asyncio.to_thread(resolve_in_root(self.root, path).exists)


def atomic_write(target: Path, text: str) -> None:
    """Replace ``target`` with ``text`` so a reader sees the old or the new file, never half."""
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
