"""A real `jupyter lab` per test module for the kernel helpers, and a client of it.

The kernel helpers' synchronous API blocks its caller while the client loop's thread does
the I/O, so the server must not share the test's thread or loop: it runs as a subprocess,
the way a notebook user's server does. It is shared by a module's tests (start-up costs
seconds); each test gets files of its own below the root when it needs them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.labext.conftest import Lab, start_lab

SAMPLE_NOTE = "# Notes\n\nThe first paragraph.\n\nThe second paragraph.\n"


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab with jupyter-mcp-lab, ``approval=suggest``; its runtime dir is ``<tmp>/rt``."""
    tmp = tmp_path_factory.mktemp("kernel-lab")
    with start_lab(tmp, "--MCPLabApp.approval=suggest") as running:
        (running.root / "notes.md").write_text(SAMPLE_NOTE)
        yield running


@pytest.fixture(scope="module")
def runtime_dir(lab_server: Lab) -> str:
    """The server's Jupyter runtime dir (where its ``jpserver-*.json`` is)."""
    return str(lab_server.root.parent / "rt")


@pytest.fixture
def lab(lab_server: Lab) -> Iterator[object]:
    """A connected ``kernel_tools.Lab`` (explicit URL and token), closed after the test."""
    from kernel_tools import connect

    client = connect(url=lab_server.base + "/", token=lab_server.token, quiet=True)
    try:
        yield client
    finally:
        client.close()


def note(lab_server: Lab, name: str, text: str = SAMPLE_NOTE) -> str:
    """Write a fresh note below the root; its root-relative path."""
    path = lab_server.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return name


__all__ = ["SAMPLE_NOTE", "Lab", "Path", "note"]
