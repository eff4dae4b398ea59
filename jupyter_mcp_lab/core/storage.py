"""Where document text lives. The Jupyter server plugs in its contents manager; standalone
servers and tests use the filesystem directly.

Writes are crash-safe: the new text goes to a temporary file beside the target, is flushed
to disk, and is renamed over the target (then the folder is flushed too), so at any moment,
even after ``kill -9`` or a power cut, the file holds its old or its new complete text. A
temporary file left by a killed writer names that writer's process; ``core.recovery``
removes it at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .errors import DomainError
from .paths import resolve_in_root

# Temporary files of unfinished writes: ``.~mcp-lab-<pid>-<random>-<name>``. The dot keeps
# them out of file browsers; the pid tells a later start whether their writer is gone.
TEMP_PREFIX = ".~mcp-lab-"


class Storage(Protocol):
    async def read_text(self, path: str) -> str: ...

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        """Replace the file's text. ``base`` is the text the caller last read: a storage
        that can compare and write at once (a live shared document) refuses to write
        over a change made since (CONFLICT); a plain file cannot, and ignores it."""
        ...

    async def exists(self, path: str) -> bool: ...


class OutputSink(Protocol):
    """Where a running cell's outputs are shown while it runs (its open shared document)."""

    def open(self) -> None:
        """The run starts: the cell's outputs are cleared and it shows as running."""

    def show(self, outputs: list[dict[str, Any]]) -> None:
        """The cell's outputs so far (nbformat 4 dicts)."""

    def close(self) -> None:
        """The run ended (its outputs are then stored as any change is)."""


@runtime_checkable
class LiveCells(Protocol):
    """A storage where a person may have a notebook open and see its cells change."""

    async def cell_outputs(self, path: str, cell_id: str) -> OutputSink | None:
        """The sink for ``cell_id``'s outputs while ``path`` is open; None when it is not."""
        ...


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


def temp_name(target: Path) -> str:
    """A fresh temporary name beside ``target`` (within the usual 255-byte name limit)."""
    return f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}-{target.name[:120]}"


def atomic_write(target: Path, text: str | bytes) -> None:
    """Replace ``target`` with ``text`` (UTF-8) so that it holds the old or the new complete
    content at every instant: write beside, flush to disk, rename over, flush the folder.
    ``target`` is a resolved path (a symlink's target, not the link); its permissions stay."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = target.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = None
    tmp = target.parent / temp_name(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)  # the umask may have narrowed it
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    sync_folder(target.parent)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename in it) to disk; a no-op where folders cannot be
    opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
