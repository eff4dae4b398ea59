"""Revision tokens: derived from the content, so they survive restarts and change whenever
the content changes, by whatever path (agent, JupyterLab editor, kernel, disk)."""

from __future__ import annotations

import hashlib


def revision_of(text: str) -> str:
    return "rev-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
