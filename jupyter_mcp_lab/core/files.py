"""The files of a workspace as a listing: paths below the root, with their kind, size and time.

Hidden entries (a name starting with ".", such as ``.git`` or ``.ipynb_checkpoints``) are
left out, as Jupyter's file browser leaves them out; symlinked folders are listed but not
entered, so a listing never leaves the root nor loops.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .errors import DomainError
from .paths import resolve_in_root, to_api_path

EntryType = Literal["file", "notebook", "directory"]
MAX_DEPTH = 32  # folders entered below the listed one at most


@dataclass(frozen=True)
class FileEntry:
    path: str  # root-relative, forward slashes
    type: EntryType
    size: int | None  # bytes; None for a folder
    modified: float  # seconds since the epoch


_GLOB = re.compile(r"\*\*/|\*\*|[*?]|\[[^\]]*\]")


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob as a regex over root-relative paths: ``*`` and ``?`` stay within a folder name,
    ``**/`` matches any number of folders, ``[abc]`` a character class."""
    out, at = [], 0
    for m in _GLOB.finditer(pattern):
        out.append(re.escape(pattern[at : m.start()]))
        token = m.group(0)
        if token == "**/":
            out.append("(?:.*/)?")
        elif token == "**":
            out.append(".*")
        elif token == "*":
            out.append("[^/]*")
        elif token == "?":
            out.append("[^/]")
        else:
            body = token[1:-1]
            out.append("[" + ("^" + re.escape(body[1:]) if body.startswith("!") else re.escape(body)) + "]")
        at = m.end()
    out.append(re.escape(pattern[at:]))
    return re.compile("".join(out) + r"\Z")


def _type(entry: os.DirEntry[str]) -> EntryType:
    if entry.is_dir():
        return "directory"
    return "notebook" if entry.name.endswith(".ipynb") else "file"


def walk(root: Path, folder: str = "", depth: int = 0, pattern: str | None = None) -> list[FileEntry]:
    """Every entry below ``folder`` (root-relative), entering ``depth`` levels of sub-folders
    (0: the folder's own entries), sorted by path; with ``pattern``, the paths it matches."""
    api = to_api_path(root, folder) if folder.strip("/") else ""
    start = resolve_in_root(root, api) if api else root.resolve()
    if not start.is_dir():
        raise DomainError("NOT_FOUND", f"no folder {folder!r} in the workspace", path=folder)
    match = glob_regex(pattern).match if pattern else None
    found: list[FileEntry] = []

    def visit(path: Path, prefix: str, level: int) -> None:
        try:
            entries = list(os.scandir(path))
        except OSError:  # unreadable: listed as nothing rather than failing the listing
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel = f"{prefix}{entry.name}"
            try:
                kind = _type(entry)
                stat = entry.stat()
            except OSError:  # a dangling symlink
                continue
            if match is None or match(rel):
                found.append(FileEntry(rel, kind, None if kind == "directory" else stat.st_size, stat.st_mtime))
            if kind == "directory" and level < min(depth, MAX_DEPTH) and not entry.is_symlink():
                visit(Path(entry.path), rel + "/", level + 1)

    visit(start, f"{api}/" if api else "", 0)
    found.sort(key=lambda e: e.path)
    return found
