"""Workspace paths: every path an agent names is confined to the root.

Paths are root-relative with forward slashes (Jupyter's API form). ``..`` that climbs out,
absolute paths outside the root and symlinks that lead outside are refused with INVALID_PATH.

A leading "/" has two documented meanings, and this module is the one place that knows both
(``to_api_path``'s ``leading_slash``):

- ``"filesystem"``: the paths agents give operations (VMark's ``filePath`` is an editor's
  file path): ``/home/me/notes/a.md`` is a filesystem path, accepted only inside the root,
  so ``/etc/passwd`` is INVALID_PATH.
- ``"root"``: the REST API, which spells paths as Jupyter's contents API does (openapi.yaml:
  "a leading / is ignored"): ``/notes/a.md`` is ``notes/a.md``. Store keys (suggestions,
  grants) use this form too (``root_relative``).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Literal

from .errors import DomainError


def _invalid(path: str, why: str) -> DomainError:
    return DomainError("INVALID_PATH", f"{path!r}: {why}", path=path)


LeadingSlash = Literal["filesystem", "root"]


def root_relative(path: str) -> str:
    """A path as Jupyter's contents API spells it: a leading "/" means the root."""
    return path.lstrip("/")


def to_api_path(root: Path, path: str, *, leading_slash: LeadingSlash = "filesystem") -> str:
    """Normalize ``path`` to a root-relative API path, or raise INVALID_PATH.

    ``leading_slash`` says what a leading "/" means (see the module doc): ``"filesystem"``
    for operations, ``"root"`` for the REST API.
    """
    if leading_slash == "root" and isinstance(path, str):
        path = root_relative(path) or path  # only slashes: refused below as not in the root
    if not isinstance(path, str) or not path.strip():
        raise _invalid(str(path), "a file path is required")
    if "\0" in path:
        raise _invalid(path, "contains a NUL character")
    raw = path.replace("\\", "/")
    root_abs = root.resolve()
    if os.path.isabs(raw):
        try:
            rel = _resolve(Path(raw), path).relative_to(root_abs)
        except ValueError:
            # Maybe the lexical form is inside the root even if it resolves elsewhere.
            try:
                rel = Path(os.path.normpath(raw)).relative_to(root_abs)
            except ValueError:
                raise _invalid(path, f"is outside the workspace root {str(root_abs)!r}") from None
        parts = list(PurePosixPath(rel.as_posix()).parts)
    else:
        parts = []
        for part in PurePosixPath(raw).parts:
            if part in ("", "."):
                continue
            if part == "..":
                if not parts:
                    raise _invalid(path, "climbs out of the workspace root")
                parts.pop()
            else:
                parts.append(part)
    api = "/".join(parts)
    if not api:
        raise _invalid(path, "names the workspace root, not a file")
    resolve_in_root(root, api)  # refuse symlink escapes
    return api


def resolve_in_root(root: Path, api_path: str) -> Path:
    """The filesystem path of an API path, refusing anything that resolves outside."""
    root_abs = root.resolve()
    target = _resolve(root_abs / api_path, api_path)
    if target != root_abs and root_abs not in target.parents:
        raise _invalid(api_path, "resolves outside the workspace root (symlink)")
    return target


def _resolve(p: Path, path: str) -> Path:
    try:
        return p.resolve(strict=False)
    except (RuntimeError, OSError) as exc:  # a symlink loop (RuntimeError before Python 3.13)
        raise _invalid(path, f"cannot be resolved: {exc}") from None
    except ValueError:  # a NUL character (the REST filters reach here without to_api_path's check)
        raise _invalid(path, "contains a NUL character") from None


def default_data_dir() -> Path:
    """Where a workspace's stores live unless configured: Jupyter's data directory
    (``MCPLabApp.data_dir``, the standalone commands and ``keys`` must agree on it)."""
    from jupyter_core.paths import jupyter_data_dir

    return Path(jupyter_data_dir()) / "jupyter_mcp_lab"
