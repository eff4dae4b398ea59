"""What the lab profile's tools share."""

from __future__ import annotations

from typing import Any

from ...ops import documents, targets

# Lab tools address a document by path or tabId; VMark's windowId (the tab a window shows)
# would only add context an agent pays for.
BY_PATH_OR_TAB = frozenset({"windowId"})


def _said(shared_field: Any) -> str:
    """What a shared field (a pydantic ``FieldInfo``) says of its argument."""
    return str(shared_field.description)


# The operations' shared arguments in fewer words (Surface.wording): an agent reads each once
# per tool that takes it. What apply does under the 'suggest' policy the review tool says, and
# the server instructions what a revision and dryRun are for.
WORDING: dict[str, str] = {
    _said(targets.MODE): "dryRun: show the diff only.",
    _said(targets.RATIONALE): "Shown to the reviewer.",
    _said(targets.EXPECTED): "From your last read; else STALE.",
    _said(targets.SAVE): "Default: yes by path, no for a tab.",
    _said(documents.TAB): "Default: your focused tab.",
    _said(documents.PATH): "Root-relative (opened if needed).",
}
