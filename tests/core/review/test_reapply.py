"""Re-applying a suggestion to the current text: where it goes (``rebase``) and the service's step.

The texts are those a person makes: typing over the suggested words, next to them,
elsewhere, deleting the line. Each case checks where the change lands in the current text
and what that text becomes, and whether both people's changes were kept (``clean``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.review.policy import Author
from jupyter_mcp_lab.core.review.reapply import rebase
from jupyter_mcp_lab.core.revision import revision_of
from tests.helpers import make_services

BASE = "The quick brown fox jumps.\n"


def applied(base: str, find: str, new: str, current: str) -> tuple[str, str, str, bool]:
    """(the current text there, what goes there, the text after, clean) for ``find`` → ``new``."""
    start = base.index(find)
    r = rebase(base, current, start, start + len(find), new)
    assert 0 <= r.start <= r.end <= len(current) and current[r.start : r.end] == r.current
    return r.current, r.new, current[: r.start] + r.new + current[r.end :], r.clean


@pytest.mark.parametrize(
    ("find", "new", "current", "expected"),
    [
        # Typed over the very words: the agent's words go where the person's are, not clean.
        ("brown", "red", BASE.replace("brown", "green"), ("green", "red", BASE.replace("brown", "red"), False)),
        # Changed elsewhere: the range just moves.
        (
            "brown",
            "red",
            "Intro.\n" + BASE.replace("jumps", "leaps"),
            ("brown", "red", "Intro.\nThe quick red fox leaps.\n", True),
        ),
        # The person's edit and the agent's touch different characters of one stretch: both kept.
        (
            "quick brown fox",
            "quick red fox",
            BASE.replace("quick", "fast"),
            ("fast brown fox", "fast red fox", "The fast red fox jumps.\n", True),
        ),
        # A deletion over a partly deleted word: the person's letters go too.
        ("brown ", "", BASE.replace("brown", "brwn"), ("brwn ", "", "The quick fox jumps.\n", False)),
        # Text typed right before the words is the person's, kept outside the range.
        (
            "brown",
            "red",
            BASE.replace("brown", "dark brown"),
            ("brown", "red", BASE.replace("brown", "dark red"), True),
        ),
        # An insertion into an unchanged place.
        ("", "Title\n", "Intro.\n" + BASE, ("", "Title\n", "Title\nIntro.\n" + BASE, True)),
    ],
)
def test_rebase(find: str, new: str, current: str, expected: tuple[str, str, str, bool]) -> None:
    assert applied(BASE, find, new, current) == expected


def test_a_deleted_line_comes_back_with_the_change() -> None:
    base = "a\nb\nc\n"
    start = base.index("b")
    r = rebase(base, "a\nc\n", start, start + 2, "B\n")
    assert (r.start, r.end, r.current, r.new, r.clean) == (2, 2, "", "B\n", False)


def test_edits_on_both_sides_of_the_range_stay_out_of_it() -> None:
    base = "one two three"
    current = "one! two? three"
    start = base.index("two")
    r = rebase(base, current, start, start + 3, "2")
    assert current[: r.start] + r.new + current[r.end :] == "one! 2? three"
    assert r.clean


async def test_reapply_stages_on_the_current_text_and_rejects_the_old(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    review = services.reviews
    path = services.settings.root_dir / "a.md"
    path.write_text(BASE)
    doc = await services.docs.open("a.md")
    [s] = review.stage(
        doc, BASE, BASE.replace("brown", "red"), Author("agent", "u", "s1"), operation="edit", rationale="why"
    )
    typed = BASE.replace("brown", "green")
    path.write_text(typed)

    plan = await review.reapply_plan(s.id)
    assert (plan.rebased.current, plan.rebased.new, plan.revision) == ("green", "red", revision_of(typed))
    with pytest.raises(DomainError) as stale:
        await review.reapply(s.id, "person", expected_revision=revision_of(BASE))
    assert stale.value.code == "STALE"
    assert review.get(s.id).status == "pending"  # refused: nothing changed

    old, fresh = await review.reapply(s.id, "person", expected_revision=plan.revision)
    assert (old.status, old.decided_by) == ("rejected", "person")
    assert old.reason and fresh.id in old.reason
    assert (fresh.status, fresh.original, fresh.new, fresh.base_revision) == ("pending", "green", "red", plan.revision)
    assert (fresh.author, fresh.session, fresh.rationale, fresh.kind) == ("agent", "s1", "why", "replace")
    assert path.read_text() == typed  # staged, not applied
    # The new one applies where it was placed.
    assert (await review.accept(fresh.id, "person")).status == "accepted"
    assert path.read_text() == BASE.replace("brown", "red")

    with pytest.raises(DomainError) as done:
        await review.reapply(old.id, "person")
    assert done.value.code == "CONFLICT"


async def test_a_conflict_is_dismissed_or_reapplied_once(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    review = services.reviews
    path = services.settings.root_dir / "a.md"
    path.write_text(BASE)
    doc = await services.docs.open("a.md")
    [a] = review.stage(doc, BASE, BASE.replace("quick", "slow"), Author("agent", "u"), operation="edit")
    [b] = review.stage(doc, BASE, BASE.replace("jumps", "sleeps"), Author("agent", "u"), operation="edit")
    path.write_text(BASE.replace("quick", "fast").replace("jumps", "hops"))
    assert (await review.accept(a.id, "person")).status == "conflict"
    assert (await review.accept(b.id, "person")).status == "conflict"

    dismissed = await review.reject(a.id, "person")
    assert (dismissed.status, dismissed.reason) == ("rejected", review.get(a.id).reason)
    with pytest.raises(DomainError):
        await review.reject(a.id, "person")

    _, fresh = await review.reapply(b.id, "person")
    now = BASE.replace("quick", "fast").replace("jumps", "hops")
    assert now[fresh.start : fresh.end] == fresh.original
    assert now[: fresh.start] + fresh.new + now[fresh.end :] == BASE.replace("quick", "fast").replace("jumps", "sleeps")
    # Already as suggested: nothing to stage.
    path.write_text(BASE.replace("quick", "fast").replace("jumps", "sleeps"))
    await review.reject(fresh.id, "person")
    [c] = review.stage(
        await services.docs.open("a.md"), BASE, BASE.replace("jumps", "sleeps"), Author("agent", "u"), operation="edit"
    )
    with pytest.raises(DomainError) as same:
        await review.reapply(c.id, "person")
    assert same.value.code == "CONFLICT"
    assert review.get(c.id).status == "pending"
