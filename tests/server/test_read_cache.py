"""Reads through Jupyter's contents manager are not repeated for an unchanged file, and a
changed file is never answered from what was kept (``server/read_cache.py``).

A real ``AsyncLargeFileManager`` (Jupyter's default) on a real folder, through
``ContentsStorage``: the kept text is the very string read (or written) before; a rewrite of
the same size with its modification time put back and a deletion are each seen, also right
after a read or a write, when the file's identity cannot vouch for it and its bytes are compared.
"""

from __future__ import annotations

import os
import time
import types
from pathlib import Path
from typing import Any

import pytest
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.server.contents_storage import ContentsStorage
from jupyter_mcp_lab.server.read_cache import MAX_FILES, SETTLED_NS, ReadCache


def storage(root: Path) -> ContentsStorage:
    cm = AsyncLargeFileManager(root_dir=str(root))
    return ContentsStorage(types.SimpleNamespace(contents_manager=cm, web_app=types.SimpleNamespace(settings={})))


def settle() -> None:
    time.sleep(SETTLED_NS / 1e9 + 0.1)


async def test_an_unchanged_file_is_read_once_and_a_changed_one_again(tmp_path: Path) -> None:
    target = tmp_path / "n.ipynb"
    target.write_text('{"a": 1}', encoding="utf-8")
    settle()
    s = storage(tmp_path)
    first = await s.read_text("n.ipynb")
    assert first == '{"a": 1}'
    assert await s.read_text("n.ipynb") is first  # kept: Jupyter's get makes a new string

    # The same size, the modification time put back (as tar or rsync -t do): still seen.
    st = target.stat()
    target.write_text('{"a": 2}', encoding="utf-8")
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert target.stat().st_size == st.st_size and target.stat().st_mtime_ns == st.st_mtime_ns
    assert await s.read_text("n.ipynb") == '{"a": 2}'

    # Changed less than a second before the read: the identity cannot vouch for the text (a
    # same-size change within the kernel's clock tick could leave the same identity), so the
    # next read compares the file's bytes, and sees a same-size change with the times put back.
    again = await s.read_text("n.ipynb")
    assert again == '{"a": 2}' and await s.read_text("n.ipynb") is again
    st = target.stat()
    target.write_text('{"a": 5}', encoding="utf-8")
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert await s.read_text("n.ipynb") == '{"a": 5}'

    # A write through the storage, then a deletion.
    settle()
    kept = await s.read_text("n.ipynb")
    assert await s.read_text("n.ipynb") is kept
    # What the storage wrote is what the next read answers, checked by content (not a get):
    # the very string; a same-size change made right after the write is still seen.
    written = "".join(['{"a": ', "3}"])
    await s.write_text("n.ipynb", written)
    assert await s.read_text("n.ipynb") is written
    st = target.stat()
    target.write_text('{"a": 4}', encoding="utf-8")
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert await s.read_text("n.ipynb") == '{"a": 4}'
    await s.write_text("n.ipynb", '{"a": 3}')
    settle()
    assert await s.read_text("n.ipynb") == '{"a": 3}'
    target.unlink()
    with pytest.raises(DomainError) as err:
        await s.read_text("n.ipynb")
    assert err.value.code == "NOT_FOUND"


async def test_a_file_replaced_by_a_rename_is_read_anew(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text("one", encoding="utf-8")
    (tmp_path / "other.md").write_text("two", encoding="utf-8")
    settle()
    s = storage(tmp_path)
    assert await s.read_text("n.md") == "one"
    os.replace(tmp_path / "other.md", tmp_path / "n.md")  # same size, an older file's times
    assert await s.read_text("n.md") == "two"


async def test_save_hooks_run_around_an_agent_write(tmp_path: Path) -> None:
    # The crash-safe write does what Jupyter's save does around it: a pre-save hook may change
    # the text written, a post-save hook gets the saved file's model (asked for only when a
    # hook is there), and the next read answers what is on disk.
    s = storage(tmp_path)
    seen: list[tuple[str, str, str]] = []

    def pre(model: dict[str, Any], path: str, contents_manager: Any, **kw: Any) -> None:
        model["content"] = model["content"].replace("draft", "final")

    def post(model: dict[str, Any], os_path: str, contents_manager: Any) -> None:
        seen.append((model["path"], model["type"], os_path))

    await s.write_text("h.md", "no hooks yet")
    s.cm.register_pre_save_hook(pre)
    s.cm.register_post_save_hook(post)
    await s.write_text("h.md", "a draft")
    assert (tmp_path / "h.md").read_text() == "a final"
    assert await s.read_text("h.md") == "a final"
    assert seen == [("h.md", "file", str((tmp_path / "h.md").resolve()))]


def test_at_most_max_files_texts_are_kept_the_least_recently_used_dropped_first(tmp_path: Path) -> None:
    # A read (put) and a write (wrote) each drop the least recently used text when a new file
    # would be one too many; a file already kept takes no room; a hit, a read and a write each
    # make a file the most recently used.
    cache = ReadCache(tmp_path)
    names = [f"f{i}.md" for i in range(MAX_FILES + 3)]
    for name in names:
        (tmp_path / name).write_text(name, encoding="utf-8")
    settle()
    for name in names[:MAX_FILES]:
        cache.put(name, cache.before_read(name), name)
    assert [cache.get(n) for n in names[:MAX_FILES]] == names[:MAX_FILES]  # f0 is now the oldest use

    assert cache.get(names[0]) == names[0]  # a hit: f0 is the newest, f1 the oldest
    cache.put(names[MAX_FILES], cache.before_read(names[MAX_FILES]), names[MAX_FILES])
    assert cache.get(names[1]) is None and cache.get(names[0]) == names[0]

    cache.wrote(names[2], names[2])  # a write: f2 is the newest, f3 the oldest
    cache.wrote(names[MAX_FILES + 1], names[MAX_FILES + 1])
    assert cache.get(names[3]) is None and cache.get(names[2]) == names[2]

    cache.put(names[4], cache.before_read(names[4]), names[4])  # a read again: f5 the oldest
    cache.put(names[MAX_FILES + 2], cache.before_read(names[MAX_FILES + 2]), names[MAX_FILES + 2])
    assert cache.get(names[5]) is None and cache.get(names[4]) == names[4]
    assert [cache.get(n) for n in names[6:]] == names[6:]
