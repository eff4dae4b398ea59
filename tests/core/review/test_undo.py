"""Undo of a rejection (``core.review.undo``): back to pending within the window, once.

A real store and review service; the texts are a person's note and an agent's edits.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.review.policy import Author
from jupyter_mcp_lab.core.review.undo import UNDO_SECONDS, undo_reject
from tests.helpers import make_services

BASE = "The quick brown fox jumps.\n"


async def staged(tmp_path: Path) -> tuple:
    services = make_services(tmp_path)
    (services.settings.root_dir / "a.md").write_text(BASE)
    doc = await services.docs.open("a.md")
    review = services.reviews
    [a] = review.stage(doc, BASE, BASE.replace("quick", "slow"), Author("agent", "u"), operation="edit")
    [b] = review.stage(doc, BASE, BASE.replace("jumps", "sleeps"), Author("agent", "u"), operation="edit")
    return services, review, a, b


async def test_undo_puts_a_rejected_suggestion_back_pending(tmp_path: Path) -> None:
    services, review, a, b = await staged(tmp_path)
    heard = services.reviews.events.subscribe()
    rejected = await review.reject(a.id, by="person")
    assert rejected.status == "rejected" and rejected.decided_by == "person"

    reopened = await undo_reject(review, a.id)
    assert (reopened.status, reopened.decided, reopened.decided_by) == ("pending", None, None)
    assert review.store.get(a.id) == reopened
    assert [s.id for s in review.pending("a.md")] == [a.id, b.id]
    events = [heard.get_nowait() for _ in range(heard.qsize())]
    assert [(e["type"], e["action"], e["suggestion"]["id"]) for e in events] == [
        ("suggestion", "rejected", a.id),
        ("suggestion", "reopened", a.id),
    ]
    # Pending again, it is accepted as if never rejected.
    accepted = await review.accept(a.id, by="person")
    assert accepted.status == "accepted"
    assert (services.settings.root_dir / "a.md").read_text() == BASE.replace("quick", "slow")


async def test_only_a_rejection_is_undone_and_only_once(tmp_path: Path) -> None:
    _, review, a, b = await staged(tmp_path)
    with pytest.raises(DomainError) as pending:
        await undo_reject(review, a.id)
    assert pending.value.code == "CONFLICT" and "pending, not rejected" in pending.value.message
    await review.reject(a.id, by="person")
    await undo_reject(review, a.id)
    with pytest.raises(DomainError) as twice:
        await undo_reject(review, a.id)
    assert twice.value.code == "CONFLICT"
    await review.accept(b.id, by="person")
    with pytest.raises(DomainError) as accepted:
        await undo_reject(review, b.id)
    assert accepted.value.code == "CONFLICT" and "accepted" in accepted.value.message
    with pytest.raises(DomainError) as unknown:
        await undo_reject(review, "sug-nope")
    assert unknown.value.code == "NOT_FOUND"


async def test_the_window_closes(tmp_path: Path) -> None:
    _, review, a, _ = await staged(tmp_path)
    await review.reject(a.id, by="person")
    # Just inside the window it can be undone; past it, nothing changes.
    later = time.time() + UNDO_SECONDS + 1
    with pytest.raises(DomainError) as late:
        await undo_reject(review, a.id, now=later)
    assert late.value.code == "CONFLICT" and "can no longer be undone" in late.value.message
    assert review.store.get(a.id).status == "rejected"
    assert (await undo_reject(review, a.id, now=time.time() + UNDO_SECONDS - 5)).status == "pending"
