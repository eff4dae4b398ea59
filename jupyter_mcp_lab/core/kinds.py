"""The kinds of documents (``DocumentKind``) and which kind a path holds.

Imports nothing of this package: documents, the workspace and operations all use it.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Literal

DocumentKind = Literal["markdown", "outline", "notebook", "yaml-workflow", "text"]

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown", ".mkd", ".mkdn"}
YAML_SUFFIXES = {".yml", ".yaml"}
# Top-level `on:` (or quoted) and `jobs:` keys mark a GitHub Actions workflow.
_ON = re.compile(r"^(?:on|\"on\"|'on'|true)\s*:", re.MULTILINE)
_JOBS = re.compile(r"^jobs\s*:", re.MULTILINE)


def kind_for(path: str, text: str | None = None) -> DocumentKind:
    p = PurePosixPath(path)
    suffix = p.suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix == ".opml":
        return "outline"
    if suffix == ".ipynb":
        return "notebook"
    in_workflows = ".github/workflows/" in f"/{p.as_posix()}"
    looks_like_workflow = text is not None and bool(_ON.search(text) and _JOBS.search(text))
    if suffix in YAML_SUFFIXES and (in_workflows or looks_like_workflow):
        return "yaml-workflow"
    return "text"
