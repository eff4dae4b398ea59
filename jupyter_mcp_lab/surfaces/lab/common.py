"""What the lab profile's tools share."""

from __future__ import annotations

# Lab tools address a document by path or tabId; VMark's windowId (the tab a window shows)
# would only add context an agent pays for.
BY_PATH_OR_TAB = frozenset({"windowId"})
