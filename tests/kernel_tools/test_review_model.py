"""The review widgets' pure model: word diffs, cards, ages, and a state that converges
whatever the order of a fetched list and the events around it."""

from __future__ import annotations

from typing import Any

from kernel_tools.widgets.review_model import (
    CONFLICT_REASON,
    ReviewState,
    age_text,
    card,
    compact,
    counts,
    line_range,
    word_diff,
)


def suggestion(id: str, status: str = "pending", path: str = "notes.md", **fields: Any) -> dict[str, Any]:
    base = {
        "id": id,
        "path": path,
        "original": "quick brown fox",
        "new": "quick red fox",
        "author": "agent-a",
        "rationale": "Foxes are red.",
        "created": 1000.0,
        "status": status,
        "lineStart": 3,
        "lineEnd": 3,
        "start": 10,
        "reason": None,
    }
    return {**base, **fields}


def test_word_diff_marks_only_the_changed_words() -> None:
    assert word_diff("quick brown fox", "quick red fox") == [
        ["=", "quick "],
        ["-", "brown"],
        ["+", "red"],
        ["=", " fox"],
    ]


def test_word_diff_groups_a_run_of_changed_words() -> None:
    # Shared single spaces between changed words belong to the change: one deletion, one insertion.
    assert word_diff("a lazy dog sleeps.", "a sleepy cat rests.") == [
        ["=", "a "],
        ["-", "lazy dog sleeps"],
        ["+", "sleepy cat rests"],
        ["=", "."],
    ]


def test_word_diff_pure_insertion_and_deletion() -> None:
    assert word_diff("", "New paragraph.\n") == [["+", "New paragraph.\n"]]
    assert word_diff("Old.\n", "") == [["-", "Old.\n"]]


def test_word_diff_joins_back_to_both_texts() -> None:
    original = "The first line.\n\nA second, longer line with words.\n"
    new = "The first line, changed.\n\nA second line with other words!\n"
    segments = word_diff(original, new)
    assert "".join(t for op, t in segments if op != "+") == original
    assert "".join(t for op, t in segments if op != "-") == new


def test_long_texts_fall_back_to_a_line_diff() -> None:
    original = "".join(f"line {i}\n" for i in range(3000))
    new = original.replace("line 1500\n", "line fifteen hundred\n")
    segments = word_diff(original, new)
    assert ["-", "line 1500\n"] in segments
    assert ["+", "line fifteen hundred\n"] in segments


def test_compact_elides_long_unchanged_runs_and_caps_the_size() -> None:
    segments = compact(word_diff("x" * 300 + " old " + "y" * 300, "x" * 300 + " new " + "y" * 300))
    kept = "".join(t for op, t in segments if op == "=")
    assert "…" in kept and len(kept) < 100
    assert ["-", "old"] in segments and ["+", "new"] in segments
    capped = compact([["+", "z" * 5000]], limit=100)
    assert capped == [["+", "z" * 100], ["…", "4900 more characters"]]


def test_card_of_a_pending_and_of_a_conflicting_suggestion() -> None:
    c = card(suggestion("s1", lineEnd=5))
    assert c["id"] == "s1" and c["path"] == "notes.md" and c["author"] == "agent-a"
    assert c["rationale"] == "Foxes are red." and c["lines"] == "lines 3\u20135" and c["status"] == "pending"
    assert ["-", "brown"] in c["diff"] and "reason" not in c
    assert card(suggestion("s2", "conflict", reason="The text moved."))["reason"] == "The text moved."
    assert card(suggestion("s3", "conflict"))["reason"] == CONFLICT_REASON


def test_line_range_and_age_text() -> None:
    assert line_range({"lineStart": 4, "lineEnd": 4}) == "line 4"
    assert [age_text(s) for s in (3, 42, 185, 7300, 200_000)] == [
        "just now",
        "42 s ago",
        "3 min ago",
        "2 h ago",
        "2 d ago",
    ]


def test_state_follows_events_and_converges_on_a_replay() -> None:
    state = ReviewState()
    state.load({"suggestions": [suggestion("a"), suggestion("b", path="other.md", lineStart=1)]})
    assert [c["id"] for c in state.cards()] == ["a", "b"]  # documents by path
    assert state.apply(suggestion("c", lineStart=1))  # a new one, before "a" in its document
    assert state.ids("notes.md") == ["c", "a"]
    assert state.apply(suggestion("a", "accepted"))  # decided elsewhere
    assert state.apply(suggestion("c", "conflict", reason="moved"))
    cards = state.cards()
    assert [(c["id"], c["status"]) for c in cards] == [("c", "conflict"), ("b", "pending")]
    assert counts(cards) == {"pending": 1, "conflict": 1, "documents": 1}
    # The same events again (a stream replay) change nothing.
    before = state.cards()
    for s in (suggestion("a", "accepted"), suggestion("c", "conflict", reason="moved")):
        state.apply(s)
    assert state.cards() == before
    assert state.dismiss("c") and not state.apply(suggestion("c", "conflict", reason="moved"))
    assert [c["id"] for c in state.cards()] == ["b"]


def test_state_of_one_document_ignores_the_others() -> None:
    state = ReviewState("notes.md")
    state.load({"suggestions": [suggestion("a"), suggestion("b", path="other.md")]})
    assert not state.apply(suggestion("c", path="other.md"))
    assert [c["id"] for c in state.cards()] == ["a"]


def test_loading_a_list_clears_a_conflict_that_is_pending_again() -> None:
    state = ReviewState()
    state.apply(suggestion("a", "conflict"))
    state.load({"suggestions": [suggestion("a")]})
    assert [(c["id"], c["status"]) for c in state.cards()] == [("a", "pending")]


def test_a_lone_event_is_drawn_at_once_and_a_burst_once_after_it() -> None:
    import threading
    import time

    from kernel_tools.widgets.live import Coalescer

    fired: list[float] = []
    done = threading.Event()
    coalescer = Coalescer(lambda: (fired.append(time.monotonic()), done.set()), quiet=0.3)
    start = time.monotonic()
    coalescer.poke()
    assert done.wait(2)
    assert fired[0] - start < 0.15  # not after the quiet spell: a lone event shows at once
    done.clear()
    for _ in range(20):  # a burst right after: one more draw, after the quiet spell
        coalescer.poke()
    assert done.wait(2)
    time.sleep(0.5)
    assert len(fired) == 2
    coalescer.close()
