"""Leftovers of interrupted writes are put right or reported at start, never dropped silently."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from jupyter_mcp_lab.core import recovery
from jupyter_mcp_lab.core.recovery import recover
from jupyter_mcp_lab.core.storage import TEMP_PREFIX, atomic_write


def crash_in_jupyters_save(folder: Path, name: str, old: str, cut: str) -> None:
    """What Jupyter's save leaves when killed: ``.~name`` holds the old text, ``name`` is cut."""
    (folder / name).write_text(old)
    os.replace(folder / name, folder / f".~{name}")
    (folder / name).write_text(cut)


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_cut_file_gets_its_last_complete_text_back_and_the_cut_one_is_kept(tmp_path: Path) -> None:
    root, keep = tmp_path / "root", tmp_path / "keep"
    (root / "sub").mkdir(parents=True)
    crash_in_jupyters_save(root / "sub", "a.md", "the whole old text\n", "the new te")
    report = recover(root, keep)
    assert (root / "sub" / "a.md").read_text() == "the whole old text\n"
    assert not (root / "sub" / ".~a.md").exists()
    [item] = report.items
    assert (item.path, item.action) == ("sub/a.md", "restored")
    assert item.kept is not None and Path(item.kept).read_text() == "the new te"
    assert report.complete
    assert recover(root, keep).items == []  # settled: nothing left to do


def test_a_backup_equal_to_its_file_is_removed(tmp_path: Path) -> None:
    crash_in_jupyters_save(tmp_path, "b.md", "same\n", "same\n")
    [item] = recover(tmp_path, tmp_path / "keep").items
    assert item.action == "removed-backup" and not (tmp_path / ".~b.md").exists()


def test_a_backup_much_older_than_its_file_is_only_reported(tmp_path: Path) -> None:
    crash_in_jupyters_save(tmp_path, "c.md", "ancient\n", "edited many times since\n")
    later = time.time() + 3 * recovery.INTERRUPTED_WINDOW
    os.utime(tmp_path / "c.md", (later, later))  # the file changed long after the copy was made
    [item] = recover(tmp_path, tmp_path / "keep").items
    assert item.action == "reported" and "compare them by hand" in item.detail
    assert (tmp_path / "c.md").read_text() == "edited many times since\n"
    assert (tmp_path / ".~c.md").read_text() == "ancient\n"


def test_temporary_files_of_dead_writers_go_and_live_ones_stay(tmp_path: Path) -> None:
    (tmp_path / "d.md").write_text("kept\n")
    dead = tmp_path / f"{TEMP_PREFIX}{dead_pid()}-0a1b2c3d-d.md"
    dead.write_text("half of a new")
    live = tmp_path / f"{TEMP_PREFIX}{os.getppid()}-0a1b2c3d-d.md"
    live.write_text("being written")
    [item] = recover(tmp_path, tmp_path / "keep").items
    assert (item.path, item.action) == ("d.md", "removed-temp")
    assert not dead.exists() and live.exists()
    assert (tmp_path / "d.md").read_text() == "kept\n"


def test_other_dot_tilde_files_and_skipped_folders_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / ".~lock.report.odt#").write_text("libreoffice")
    (tmp_path / ".~orphan.md").write_text("no file beside it")
    (tmp_path / "node_modules").mkdir()
    crash_in_jupyters_save(tmp_path / "node_modules", "x.md", "old", "")
    assert recover(tmp_path, tmp_path / "keep").items == []
    assert (tmp_path / ".~orphan.md").exists() and (tmp_path / "node_modules" / ".~x.md").exists()


def test_the_scan_stops_at_its_budget_and_says_so(tmp_path: Path) -> None:
    for n in range(30):
        (tmp_path / f"f{n}").mkdir()
    report = recover(tmp_path, tmp_path / "keep", budget=0.0)
    assert not report.complete


def test_atomic_write_keeps_permissions_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "e.md"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    atomic_write(target, "new ✓\r\n")
    with open(target, encoding="utf-8", newline="") as f:
        assert f.read() == "new ✓\r\n"
    assert target.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["e.md"]
    atomic_write(tmp_path / "new" / "f.md", b"bytes")
    assert (tmp_path / "new" / "f.md").read_bytes() == b"bytes"
