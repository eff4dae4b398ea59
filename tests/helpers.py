"""Small builders shared by the in-process tests (no Jupyter involved)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_mcp_lab.ops.context import Endpoint, Services, Settings


def make_services(tmp_path: Path, **settings: Any) -> Services:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    # Most tests exercise applying edits; review tests pass approval="suggest" (the default).
    settings.setdefault("approval", "auto")
    services = Services(settings=Settings(root_dir=root, data_dir=tmp_path / "data", **settings))
    services.endpoints = [Endpoint("lab", "/mcp", "http://127.0.0.1:1/mcp")]
    return services
