"""What a killed server left beside the workspace's files, put right (or reported) at start.

Two kinds of leftovers:

- ``.~mcp-lab-<pid>-…``: a crash-safe write that never reached its rename (``core.storage``).
  The file beside it still has its previous text, and the write was never acknowledged: the
  temporary file is removed once its writer's process is gone.
- ``.~name`` beside ``name``: Jupyter's own save copies the file there, rewrites the file in
  place and removes the copy when done. A copy still there means that save was cut off, and
  ``name`` may be cut too. When the file was written within ``INTERRUPTED_WINDOW`` of the copy
  being made (the same save), the copy is put back and the file as the crash left it is kept
  in ``keep_dir``; a copy much older than the file (a save cut off long ago, the file edited
  since by other means) is only reported. Identical copies are removed.

Nothing is dropped silently: every action is in the report (and the server's log and status).
The scan skips folders no document lives in (``.git``, ``node_modules``, …) and stops after
``budget`` seconds on a huge tree, saying so.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .storage import TEMP_PREFIX, sync_folder

JUPYTER_BACKUP = ".~"
SKIP_FOLDERS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".ipynb_checkpoints", ".venv", "venv", ".tox",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".cache", "site-packages"}
)  # fmt: skip
# Jupyter's save makes the copy, then opens the file for writing: both within one save.
INTERRUPTED_WINDOW = 120.0
# A file changed this recently may be another process's save in progress: look again.
SETTLE_SECONDS = 1.0

Action = Literal["restored", "removed-temp", "removed-backup", "reported"]


@dataclass(frozen=True)
class Recovered:
    path: str  # root-relative, "/"-separated: the document concerned
    action: Action
    detail: str
    kept: str | None = None  # where the file's content as the crash left it now is


@dataclass
class RecoveryReport:
    items: list[Recovered] = field(default_factory=list)
    complete: bool = True  # False: the scan stopped at its time budget
    seconds: float = 0.0


def recover(root: Path, keep_dir: Path, *, budget: float = 5.0) -> RecoveryReport:
    """Find and settle leftovers of interrupted writes below ``root``."""
    started = time.monotonic()
    report = RecoveryReport()
    candidates: list[Path] = []
    for entry in _walk(root, started + budget, report):
        if entry.name.startswith(JUPYTER_BACKUP):
            candidates.append(Path(entry.path))
    # One folder per start and workspace (data directories are shared between roots).
    stamp = time.strftime("%Y%m%d-%H%M%S-") + hashlib.sha256(str(root).encode()).hexdigest()[:8]
    recent = [c for c in candidates if _recently_changed(c)]
    if recent:
        time.sleep(SETTLE_SECONDS)  # let a save in progress (another server on this root) finish
    for path in candidates:
        if path.exists():
            item = _settle(root, path, keep_dir / stamp)
            if item is not None:
                report.items.append(item)
    report.seconds = time.monotonic() - started
    return report


def _walk(root: Path, deadline: float, report: RecoveryReport) -> Iterator[os.DirEntry[str]]:
    stack = [str(root)]
    while stack:
        if time.monotonic() > deadline:
            report.complete = False
            return
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            if entry.name not in SKIP_FOLDERS:
                                stack.append(entry.path)
                        elif entry.is_file(follow_symlinks=False):
                            yield entry
                    except OSError:
                        continue
        except OSError:
            continue


def _recently_changed(path: Path) -> bool:
    now = time.time()
    for p in (path, _original(path)):
        try:
            if now - p.stat().st_mtime < SETTLE_SECONDS:
                return True
        except (OSError, ValueError):
            pass
    return False


def _original(backup: Path) -> Path:
    """``name`` for Jupyter's ``.~name``; ``name`` for our ``.~mcp-lab-<pid>-<rand>-name``."""
    name = backup.name
    if name.startswith(TEMP_PREFIX):
        return backup.with_name(name[len(TEMP_PREFIX) :].split("-", 2)[-1])
    return backup.with_name(name[len(JUPYTER_BACKUP) :])


def _settle(root: Path, leftover: Path, keep_dir: Path) -> Recovered | None:
    original = _original(leftover)
    rel = original.relative_to(root).as_posix()
    if leftover.name.startswith(TEMP_PREFIX):
        pid = leftover.name[len(TEMP_PREFIX) :].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            return None  # a write in progress in a live process
        leftover.unlink(missing_ok=True)
        return Recovered(rel, "removed-temp", "an unfinished write was never acknowledged; the file kept its text")
    if leftover.name.startswith(".~lock.") or not original.is_file():
        return None  # not Jupyter's (LibreOffice's locks), or nothing it belongs to
    copy, now = leftover.stat(), original.stat()
    if _same_content(leftover, original):
        leftover.unlink()
        return Recovered(rel, "removed-backup", "Jupyter's backup of an interrupted save equals the file")
    if abs(now.st_mtime - copy.st_ctime) > INTERRUPTED_WINDOW:
        return Recovered(
            rel,
            "reported",
            f"{leftover.name} is a backup from a save interrupted long before the file's last change; "
            "both are left as they are: compare them by hand",
        )
    kept = keep_dir / rel
    kept.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(original, kept)
    os.replace(leftover, original)
    sync_folder(original.parent)
    return Recovered(
        rel,
        "restored",
        f"a save was interrupted: the file is back at its last complete version ({copy.st_size} bytes); "
        f"what the crash left ({now.st_size} bytes) is kept",
        kept=str(kept),
    )


def _same_content(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True
