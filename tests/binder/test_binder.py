"""Binder, as far as this machine allows: the environment built only from ``binder/`` runs notebook 01.

repo2docker's steps, minus the container: a copy of the repository as a fresh clone has it
(no prebuilt JupyterLab extension), a new virtual environment, ``pip install -r
binder/requirements.txt`` in the repository's root (the wheel build compiles the extension
with jlpm), then ``binder/postBuild``. JupyterLab is started from that environment with the
repository as its root, and notebook 01 runs there with nbclient under that environment's
Python, so its kernel imports only what Binder installed. It takes minutes (most of it
pip and jlpm); pip's cache is reused. Without a package registry it is skipped, saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.labext.conftest import ARTIFACTS, start_lab
from tests.notebooks.execute import kernel_env
from tests.notebooks.test_notebooks import text_of, widgets

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

REPO = Path(__file__).resolve().parents[2]


def _unreachable_registries(scratch: Path) -> str | None:
    """Why the build cannot run here (no Node.js, no npm or PyPI registry), or None."""
    if not (shutil.which("node") and shutil.which("npm")):
        return "needs Node.js and npm to build the JupyterLab extension (Binder's image has them)"
    npm = subprocess.run(["npm", "ping"], capture_output=True, text=True, timeout=60)
    if npm.returncode != 0:
        return f"the npm registry does not answer (npm ping: {npm.stderr.strip()[-200:]})"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir", "-d", str(scratch), "hatchling"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if pip.returncode != 0:
        return f"pip cannot reach a package index (pip download hatchling: {pip.stderr.strip()[-200:]})"
    return None


def fresh_clone(dest: Path) -> Path:
    """The repository's files as a clone has them: tracked and new ones, nothing ignored (no .venv,
    no built extension, no node_modules)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():  # a tracked file deleted in the working tree is not in a clone either
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: int) -> None:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    said = f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    assert done.returncode == 0, f"{' '.join(command)} failed ({done.returncode}):\n{said}"


def test_binder_environment_runs_notebook_01(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reason = _unreachable_registries(tmp_path / "probe")
    if reason:
        pytest.skip(reason)
    clone = fresh_clone(tmp_path / "root")  # start_lab serves <tmp>/root: the clone is the root, as on Binder
    assert not (clone / "jupyter_mcp_lab" / "labextension").exists()  # so the install must build it
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path, dict(os.environ), 120)
    python = str(venv / "bin" / "python")

    # The environment of the build, as in an activated venv; jlpm (yarn) takes the registry
    # from npm's configuration, as scripts/setup.sh does (Binder's default registry needs nothing).
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(venv)}
    registry = subprocess.run(["npm", "config", "get", "registry"], capture_output=True, text=True).stdout.strip()
    env["YARN_NPM_REGISTRY_SERVER"] = registry.rstrip("/")
    run([python, "-m", "pip", "install", "-q", "-r", "binder/requirements.txt"], clone, env, 1200)
    installed = venv / "share" / "jupyter" / "labextensions" / "jupyter-mcp-lab" / "package.json"
    assert installed.is_file() and not installed.is_symlink(), "the wheel should carry the built JupyterLab extension"
    run(["bash", "binder/postBuild"], clone, env, 600)
    assert (clone / "notebooks" / "workspace" / "meeting-notes.md").is_file()  # the demo workspace

    for key in ("PATH", "VIRTUAL_ENV", "YARN_NPM_REGISTRY_SERVER"):
        monkeypatch.setenv(key, env[key])  # start_lab's server runs in the Binder environment
    monkeypatch.delenv("PYTHONPATH", raising=False)
    saved = ARTIFACTS / "binder-01-quick-start.ipynb"
    saved.parent.mkdir(parents=True, exist_ok=True)
    with start_lab(tmp_path, python=python) as lab:
        assert lab.api("GET", "status")["running"]
        notebooks = clone / "notebooks"
        # nbclient under the Binder environment's Python: the kernel is that environment's.
        executor = str(REPO / "tests" / "notebooks" / "execute.py")
        command = [python, executor, "01-quick-start.ipynb", str(saved), "--cwd", str(notebooks)]
        done = subprocess.run(
            command, cwd=notebooks, env=kernel_env(tmp_path / "rt", env), capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-8000:]
    nb = nbformat.read(saved, as_version=4)
    said = text_of(nb)
    assert "found by Jupyter runtime file" in said
    assert "code:    NOT_FOUND" in said
    assert widgets(nb) >= 1
