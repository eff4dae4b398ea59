"""Run a notebook top to bottom with nbclient, as a person would run all its cells.

Importable (``run_notebook``) and a script, so another environment's Python can run it
(the Binder test runs it with the Binder environment's interpreter, whose kernel is then
that environment's): ``python execute.py NOTEBOOK OUT --cwd DIR [--timeout S]``. The script
writes the executed notebook to OUT and exits 1 with the failing cell and its traceback.
Only nbformat and nbclient are needed (Jupyter's own dependencies).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

# What would tell connect() where the server is without its runtime files: the notebooks must
# find the server the way they do in JupyterLab, so none of these reach the kernel.
NOT_FOR_THE_KERNEL = ("JUPYTER_MCP_LAB_URL", "JUPYTER_MCP_LAB_TOKEN", "JPY_PARENT_PID")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # IPython colours its tracebacks: plain text reads better in a log


class NotebookFailed(AssertionError):
    """A cell raised; the message has the cell's source and its traceback."""


def kernel_env(runtime_dir: str | Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The kernel's environment: the server's runtime dir, no shortcut to the server."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in NOT_FOR_THE_KERNEL}
    env = {k: v for k, v in env.items() if not k.startswith("JUPYTERHUB_")}
    env["JUPYTER_RUNTIME_DIR"] = str(runtime_dir)
    return env


def run_notebook(
    path: Path, cwd: Path, env: Mapping[str, str] | None = None, timeout: int = 180
) -> nbformat.NotebookNode:
    """The executed notebook; ``NotebookFailed`` when a cell raises (the partial run is kept in
    the exception's ``notebook``)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False)
    try:
        client.execute(cwd=str(cwd), env=dict(env) if env is not None else None)
    except CellExecutionError as exc:
        failed = NotebookFailed(f"{path.name} failed:\n{ANSI.sub('', str(exc))}")
        failed.notebook = nb  # type: ignore[attr-defined]
        raise failed from None
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Execute a notebook with nbclient.")
    parser.add_argument("notebook", type=Path)
    parser.add_argument("out", type=Path, help="where the executed notebook is written")
    parser.add_argument("--cwd", type=Path, required=True, help="the kernel's working directory")
    parser.add_argument("--timeout", type=int, default=180, help="seconds per cell")
    args = parser.parse_args(argv)
    try:
        nb = run_notebook(args.notebook, args.cwd, os.environ, args.timeout)
    except NotebookFailed as exc:
        nbformat.write(exc.notebook, args.out)  # type: ignore[attr-defined]
        print(exc, file=sys.stderr)
        return 1
    nbformat.write(nb, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
