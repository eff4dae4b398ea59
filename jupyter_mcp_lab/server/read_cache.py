"""Texts of files read through Jupyter's contents manager, kept while the file is unchanged.

Every agent read refreshes its document from the file (``Documents.refresh``), and Jupyter's
``get`` is costly for what it does: it reads and decodes the file and emits a contents event
that jupyter_events validates against its schema (a quarter of a 200-cell notebook read).
A file whose identity on disk is what it was when it was read is not read again:

- the identity is the file's ``stat`` (device, inode, size, modification and change times in
  ns), taken *before* the read, so a change during the read leaves an older identity beside
  the newer text: a miss later, never a stale hit;
- a text is kept only when the file's change time was at least ``SETTLED_NS`` before the read
  began. The kernel stamps a change with a coarse clock (a tick of up to 10 ms), so two
  writes of the same size within one tick can leave the same identity; a file that had been
  quiet for a second before the read gets a later change time from any write after it
  (``ctime`` cannot be set by a program, unlike ``mtime``);
- a text whose file has not settled (just read while it changed, or just written by us) is
  checked against the file's bytes instead: reading them costs a few microseconds per
  kilobyte, a tenth of ``get``, and equal bytes are the same text (``get`` decodes them as
  UTF-8 and nothing else). A write through the storage keeps the text it wrote that way, so
  the read that follows an agent's edit (the next call's freshness check) is not a ``get``.

Only Jupyter's own file contents managers are served this way (another one, e.g. jupytext's,
may turn the file into something else in ``get``); reads of a document open in a
collaborative JupyterLab go to its shared document and never here.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

SETTLED_NS = 1_000_000_000
MAX_FILES = 128

Identity = tuple[int, int, int, int, int]


def identity(target: str) -> Identity | None:
    """The file's identity on disk (None: it cannot be stat'ed)."""
    try:
        st = os.stat(target)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class ReadCache:
    def __init__(self, root: Path) -> None:
        self._root = str(root)
        # path -> (identity when settled, else None; the text)
        self._texts: dict[str, tuple[Identity | None, str]] = {}

    def _target(self, path: str) -> str:
        return os.path.join(self._root, path)

    def get(self, path: str) -> str | None:
        """The text last read or written of ``path`` if the file still holds it (else None)."""
        kept = self._texts.get(path)
        if kept is None:
            return None
        target = self._target(path)
        if kept[0] is not None and identity(target) == kept[0]:
            self._set(path, kept)
            return kept[1]
        before = self.before_read(path)
        try:
            with open(target, "rb") as f:
                same = f.read() == kept[1].encode("utf-8")
        except (OSError, ValueError):
            same = False
        if not same:
            del self._texts[path]
            return None
        self._keep(path, before, kept[1])
        return kept[1]

    def before_read(self, path: str) -> tuple[Identity | None, int]:
        """What ``put`` needs, taken before the file is read."""
        now = time.time_ns()
        return identity(self._target(path)), now

    def put(self, path: str, before: tuple[Identity | None, int], text: str) -> None:
        """Keep ``text`` as ``path``'s, read after ``before``."""
        self._make_room(path)
        self._keep(path, before, text)

    def _make_room(self, path: str) -> None:
        """Drop the least recently used text if ``path`` would be one file too many: the files an
        agent keeps coming back to stay while it reads its way through many others."""
        if path not in self._texts and len(self._texts) >= MAX_FILES:
            del self._texts[next(iter(self._texts))]

    def _keep(self, path: str, before: tuple[Identity | None, int], text: str) -> None:
        ident, started = before
        settled = ident is not None and ident[4] <= started - SETTLED_NS and ident[3] <= started
        self._set(path, (ident if settled else None, text))

    def _set(self, path: str, kept: tuple[Identity | None, str]) -> None:
        """Keep ``kept`` as ``path``'s, now the most recently used (dicts keep insertion order)."""
        self._texts.pop(path, None)
        self._texts[path] = kept

    def wrote(self, path: str, text: str) -> None:
        """``text`` was just written to ``path`` by the storage (checked by content when read)."""
        self._make_room(path)
        self._set(path, (None, text))

    def drop(self, path: str) -> None:
        self._texts.pop(path, None)


def serves(cm: Any) -> bool:
    """Whether ``cm`` reads files the way this cache stands in for: Jupyter's own."""
    from jupyter_server.services.contents.filemanager import AsyncFileContentsManager, FileContentsManager

    get = getattr(type(cm), "get", None)
    return get is FileContentsManager.get or get is AsyncFileContentsManager.get
