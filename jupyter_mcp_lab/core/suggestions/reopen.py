"""Reopening a rejected suggestion: the store's side of a person's Undo.

Compare-and-set like every decision: only a suggestion that is still ``rejected``, and was
rejected at or after ``since``, goes back (to ``pending``, or to ``conflict`` when it was a
conflict the person dismissed, which keeps its reason); its decision is cleared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Suggestion
from .schema import ROOT, from_row

if TYPE_CHECKING:
    from .store import SuggestionStore


def reopen_rejected(store: SuggestionStore, id: str, since: float) -> Suggestion | None:
    """The reopened suggestion, or None when it is not rejected (any more) or was rejected
    before ``since``."""
    with store.transaction() as conn:
        cur = conn.execute(
            f"""UPDATE suggestions
                SET status = CASE WHEN reason IS NULL THEN 'pending' ELSE 'conflict' END,
                    decided = CASE WHEN reason IS NULL THEN NULL ELSE decided END,
                    decided_by = CASE WHEN reason IS NULL THEN NULL ELSE decided_by END,
                    result_revision = NULL
                WHERE id = ? AND {ROOT} = ? AND status = 'rejected' AND decided >= ?""",
            (id, store.root, since),
        )
        if cur.rowcount != 1:
            return None
        row = conn.execute(f"SELECT * FROM suggestions WHERE id = ? AND {ROOT} = ?", (id, store.root)).fetchone()
        return from_row(Suggestion, row)
