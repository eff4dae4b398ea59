"""Review: staging agent changes as suggestions, a person's decisions, checkpoints, grants.

Builds on ``core.suggestions`` (records, mapping, the SQLite store) and ``core.documents``
(buffers, locks, saves). Pure Python: operations and the REST API call it.
"""

from __future__ import annotations

from .events import Events
from .hunks import hunks, kind_of
from .policy import Author, effective_mode
from .service import AcceptAllResult, Review

__all__ = ["AcceptAllResult", "Author", "Events", "Review", "effective_mode", "hunks", "kind_of"]
