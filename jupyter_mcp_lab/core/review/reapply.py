"""Re-apply a suggestion to the current text: the same change, staged again where it was meant to go.

When a person typed over the text a suggestion replaces, accepting it conflicts and nothing
changes. Re-applying finds the stretch of the current text that stands where the
suggestion's original stood (its range widened to take in the person's overlapping edits),
and stages a new suggestion there, from the current revision:

- where the agent's change and the person's edits touch different characters of that
  stretch, a three-way merge keeps both (``clean``);
- where they overlap, the agent's version of the stretch replaces the person's (``clean``
  false): the new suggestion's diff shows the person exactly what that would undo.

The old suggestion is then decided ``rejected`` with a reason naming the new one, so it
leaves the conflicts and its base text can be pruned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import DomainError
from ..suggestions import Region, Suggestion, regions
from ..suggestions.model import line_span
from .base import ReviewBase
from .hunks import kind_of

REAPPLY_STATUSES = ("pending", "conflict")


@dataclass(frozen=True)
class Rebased:
    """Where a change goes in the current text: ``current[start:end]`` becomes ``new``."""

    start: int
    end: int
    current: str
    new: str
    clean: bool


def _overlaps(a0: int, a1: int, ws: int, we: int) -> bool:
    """Whether a changed region ``[a0, a1)`` of the base touches the window's own text.

    An insertion exactly at an edge of a non-empty window is outside it (typed next to the
    text, not over it); one strictly inside, or a change around an empty window, is in it."""
    if a0 == a1:
        return ws < a0 < we
    if ws == we:
        return a0 < ws < a1
    return a0 < we and a1 > ws


def _window(found: list[Region], start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened until it holds every changed region it overlaps."""
    ws, we = start, end
    changed = True
    while changed:
        changed = False
        for a0, a1, _, _ in found:
            if _overlaps(a0, a1, ws, we) and (a0 < ws or a1 > we):
                ws, we = min(ws, a0), max(we, a1)
                changed = True
    return ws, we


def _to_current(found: list[Region], ws: int, we: int) -> tuple[int, int]:
    """The window ``[ws, we)`` of the base as a range of the current text."""
    before = inside = 0
    for a0, a1, b0, b1 in found:
        delta = (b1 - b0) - (a1 - a0)
        if a1 <= ws and not (a0 == a1 == ws == we):
            before += delta  # wholly before (an insertion at the start edge too)
        elif ws <= a0 and a1 <= we and not (a0 == a1 and a0 in (ws, we)):
            inside += delta
    cs = ws + before
    return cs, max(cs, we + before + inside)


def _merge(base: str, ours: str, theirs: str) -> str | None:
    """Three-way merge by characters: both sets of changes to ``base``; None if they touch."""
    mine, yours = regions(base, ours), regions(base, theirs)
    for a0, a1, _, _ in mine:
        for c0, c1, _, _ in yours:
            if a0 < c1 and c0 < a1:
                return None  # the same characters changed by both
            touching = a1 == c0 or c1 == a0 or a0 == c0
            if touching and (a0 == a1 or c0 == c1):
                return None  # an insertion at the other's edge: which comes first is a guess
    edits = sorted(
        [(a0, a1, ours[b0:b1]) for a0, a1, b0, b1 in mine] + [(a0, a1, theirs[b0:b1]) for a0, a1, b0, b1 in yours]
    )
    out, pos = [], 0
    for a0, a1, text in edits:
        out.append(base[pos:a0])
        out.append(text)
        pos = a1
    out.append(base[pos:])
    return "".join(out)


def rebase(base: str, current: str, start: int, end: int, new: str, found: list[Region] | None = None) -> Rebased:
    """Where the change ``base[start:end]`` → ``new`` goes in ``current``, and what it puts there."""
    if found is None:
        found = regions(base, current)
    ws, we = _window(found, start, end)
    cs, ce = _to_current(found, ws, we)
    window, theirs = base[ws:we], current[cs:ce]
    ours = base[ws:start] + new + base[end:we]
    merged = _merge(window, ours, theirs)
    if merged is None:
        return Rebased(cs, ce, theirs, ours, clean=False)
    return Rebased(cs, ce, theirs, merged, clean=True)


@dataclass(frozen=True)
class ReapplyPlan:
    """A re-application as it would be staged now, against ``revision`` of the document."""

    suggestion: Suggestion
    revision: str
    rebased: Rebased
    line_start: int
    line_end: int
    text: str  # the current text (not on the wire)


class ReapplyMixin(ReviewBase):
    async def reapply_plan(self, id: str) -> ReapplyPlan:
        """How re-applying suggestion ``id`` to its document's current text would go (nothing staged)."""
        s = self.get(id)
        if s.status not in REAPPLY_STATUSES:
            raise DomainError(
                "CONFLICT",
                f"suggestion {s.id} is {s.status}: only a pending or conflicted one can be re-applied",
                suggestionId=s.id,
                status=s.status,
            )
        if s.part is not None:
            raise DomainError(
                "CONFLICT",
                f"suggestion {s.id} changes one cell or row: ask the agent to make it again",
                suggestionId=s.id,
            )
        base = self.store.get_text(s.base_revision)
        if base is None or base[s.start : s.end] != s.original:
            raise DomainError(
                "NOT_FOUND", f"the text suggestion {s.id} was made on is no longer stored", suggestionId=s.id
            )
        now = await self.current_text(s.path)
        if now is None:
            raise DomainError("NOT_FOUND", f"{s.path} cannot be read as text now", suggestionId=s.id, path=s.path)
        text, revision = now
        rebased = rebase(base, text, s.start, s.end, s.new)
        first, last = line_span(text, rebased.start, rebased.end)
        return ReapplyPlan(s, revision, rebased, first, last, text)

    async def reapply(self, id: str, by: str, expected_revision: str | None = None) -> tuple[Suggestion, Suggestion]:
        """Stage suggestion ``id``'s change again on the current text; (the old one now rejected, the new one).

        ``expected_revision`` (the revision a preview was made against): STALE when the
        document changed since. Refused (CONFLICT) when the text there already reads as
        the change would make it."""
        async with self._decide:
            plan = await self.reapply_plan(id)
            if expected_revision is not None and expected_revision != plan.revision:
                raise DomainError(
                    "STALE",
                    f"{plan.suggestion.path} changed since the preview; look at the re-application again",
                    current_revision=plan.revision,
                )
            s, r = plan.suggestion, plan.rebased
            if r.new == r.current:
                raise DomainError(
                    "CONFLICT", f"the text there already reads as suggestion {s.id} would make it", suggestionId=s.id
                )
            fresh = Suggestion(
                path=s.path,
                kind=kind_of(r.current, r.new),
                start=r.start,
                end=r.end,
                original=r.current,
                new=r.new,
                base_revision=plan.revision,
                author=s.author,
                user=s.user,
                session=s.session,
                rationale=s.rationale,
                operation=s.operation,
                line_start=plan.line_start,
                line_end=plan.line_end,
            )
            # The old one first (compare-and-set: another process may have decided it), then the new.
            reason = f"re-applied to the current text as {fresh.id} by {by}"
            old = self.store.decide(
                s.id, "rejected", expected=REAPPLY_STATUSES, decided_by=by, reason=reason, now=time.time()
            )
            if old is None:
                raise DomainError("CONFLICT", f"suggestion {s.id} was decided meanwhile", suggestionId=s.id)
            self.store.add_many([fresh], texts={plan.revision: plan.text})
            self.events.publish("suggestion", action="created", suggestion=fresh.to_json())
            self.events.publish("suggestion", action="rejected", suggestion=old.to_json())
            return old, fresh

    if TYPE_CHECKING:  # the review service's own (service.py)

        def get(self, id: str) -> Suggestion: ...

        async def current_text(self, key: str) -> tuple[str, str] | None: ...
