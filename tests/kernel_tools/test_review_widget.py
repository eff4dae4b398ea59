"""``SuggestionReview`` at the model level against a real JupyterLab: an agent (the official
SDK, its own MCP session) stages suggestions; the widget's model holds them as cards; the
person's clicks (the front end's messages to the kernel) accept and reject through the REST
API and the file on disk follows; decisions made elsewhere and new suggestions reach the
model through the event stream; a conflict shows its reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.kernel_tools.conftest import Lab, note

TEXT = "# Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"


def eventually(check: Callable[[], Any], seconds: float = 10) -> Any:
    """``check()`` once it is truthy (or its last value, for the assertion to show)."""
    deadline = time.monotonic() + seconds
    value = check()
    while not value and time.monotonic() < deadline:
        time.sleep(0.05)
        value = check()
    return value


def stage(server: Lab, path: str, text: str, replacement: str, rationale: str, agent: str = "agent-a") -> str:
    """An agent stages one anchored edit (approval=suggest); its suggestion id."""
    edit = {"op": "anchored", "text": text, "replacement": replacement}
    args = {"action": "edit", "path": path, "edits": [edit], "rationale": rationale}
    result = server.agent_call("document", args, client_name=agent)
    assert not result.is_error, result
    return str(result.structured_content["suggestionIds"][0])


def click(widget: Any, action: str, **fields: str) -> None:
    """What the front end sends when the person clicks (the kernel's message handler)."""
    widget._on_msg(widget, {"action": action, **fields}, [])


@pytest.fixture
def review(lab: Any) -> Any:
    made: list[Any] = []

    def make(path: str | None = None) -> Any:
        widget = lab.review_widget(path)
        made.append(widget)
        widget.ready.result(15)
        return widget

    yield make
    for widget in made:
        widget.close()


def ids(widget: Any, status: str = "pending") -> list[str]:
    return [c["id"] for c in widget.cards if c["status"] == status]


def test_cards_hold_the_staged_suggestions(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "cards.md", TEXT)
    first = stage(lab_server, path, "quick brown fox", "quick red fox", "Foxes here are red.")
    second = stage(lab_server, path, "lazy dog", "sleepy cat", "Cats sleep more.", agent="agent-b")
    widget = review(path)
    assert widget.loaded and widget.path == path
    assert ids(widget) == [first, second]  # document order
    card = widget.cards[0]
    assert (card["author"], card["rationale"], card["lines"], card["path"]) == (
        "agent-a",
        "Foxes here are red.",
        "line 3",
        path,
    )
    assert ["-", "brown"] in card["diff"] and ["+", "red"] in card["diff"]
    assert widget.cards[1]["author"] == "agent-b"
    assert widget.counts == {"pending": 2, "conflict": 0, "documents": 1, "total": 2}
    assert abs(widget.clock - time.time()) < 5 and 0 <= widget.clock - card["created"] < 60


def test_accept_and_reject_through_the_handlers_change_the_file(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "decide.md", TEXT)
    fox = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    dog = stage(lab_server, path, "lazy dog", "sleepy cat", "Cat.")
    widget = review(path)
    click(widget, "accept", id=fox)
    assert widget.busy == {fox: "accept"}  # the card is busy at once; the kernel is free
    assert widget.tasks.wait(15)
    assert widget.busy == {} and widget.errors == {}
    assert (lab_server.root / path).read_text() == TEXT.replace("brown", "red")
    assert ids(widget) == [dog]
    click(widget, "reject", id=dog)
    assert widget.tasks.wait(15)
    assert ids(widget) == [] and widget.counts["pending"] == 0
    assert (lab_server.root / path).read_text() == TEXT.replace("brown", "red")
    assert lab_server.api("GET", f"suggestions/{dog}")["status"] == "rejected"


def test_the_event_stream_brings_new_suggestions_and_decisions_made_elsewhere(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "live.md", TEXT)
    widget = review(path)
    assert widget.cards == []
    fox = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    assert eventually(lambda: ids(widget) == [fox]), widget.cards
    # A person decides in the JupyterLab panel (the same REST API, another client).
    lab_server.api("POST", f"suggestions/{fox}/accept")
    assert eventually(lambda: widget.cards == []), widget.cards
    assert (lab_server.root / path).read_text() == TEXT.replace("brown", "red")


def test_a_burst_of_hunks_arrives_whole(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "burst.md", "".join(f"Line {i} is here.\n\n" for i in range(40)))
    widget = review(path)
    edits = [{"op": "anchored", "text": f"Line {i} is", "replacement": f"Row {i} is"} for i in range(40)]
    result = lab_server.agent_call("document", {"action": "edit", "path": path, "edits": edits, "rationale": "Rows."})
    assert not result.is_error, result
    staged = result.structured_content["suggestionIds"]
    assert len(staged) == 40  # one hunk per paragraph
    assert eventually(lambda: len(widget.cards) == len(staged)), len(widget.cards)
    assert set(ids(widget)) == set(staged)


def test_a_conflict_shows_its_reason_and_can_be_dismissed(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "conflict.md", TEXT)
    red = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    grey = stage(lab_server, path, "brown fox", "grey fox", "Grey.", agent="agent-b")
    widget = review(path)
    lab_server.api("POST", f"suggestions/{red}/accept")  # elsewhere: grey's text is gone now
    assert eventually(lambda: ids(widget) == [grey])
    click(widget, "accept", id=grey)
    assert widget.tasks.wait(15)
    conflict = next(c for c in widget.cards if c["id"] == grey)
    assert conflict["status"] == "conflict" and conflict["reason"]
    assert widget.counts["conflict"] == 1 and widget.counts["pending"] == 0
    assert (lab_server.root / path).read_text() == TEXT.replace("brown", "red")  # nothing else applied
    click(widget, "dismiss", id=grey)
    assert widget.cards == []


def test_all_documents_with_accept_all_per_document(lab_server: Lab, review: Any) -> None:
    one = note(lab_server, "all/one.md", TEXT)
    two = note(lab_server, "all/two.md", TEXT)
    stage(lab_server, one, "quick brown fox", "quick red fox", "Red.")
    stage(lab_server, one, "lazy dog", "sleepy cat", "Cat.")
    kept = stage(lab_server, two, "lazy dog", "busy dog", "Busy.")
    widget = review()
    assert widget.path is None
    mine = [c for c in widget.cards if c["path"].startswith("all/")]
    assert [c["path"] for c in mine] == [one, one, two]
    click(widget, "accept_all", path=one)
    assert widget.busy == {f"path:{one}": "accept"}
    assert widget.tasks.wait(15) and widget.errors == {}
    assert (lab_server.root / one).read_text() == TEXT.replace("brown", "red").replace("lazy dog", "sleepy cat")
    assert (lab_server.root / two).read_text() == TEXT
    assert [c["id"] for c in widget.cards if c["path"].startswith("all/")] == [kept]
    click(widget, "reject_all", path=two)
    assert widget.tasks.wait(15)
    assert not [c for c in widget.cards if c["path"].startswith("all/")]
    assert lab_server.api("GET", f"suggestions/{kept}")["status"] == "rejected"


def test_the_unified_diff_on_demand_and_errors_on_the_card(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "diff.md", TEXT)
    fox = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    widget = review(path)
    click(widget, "diff", id=fox)
    assert widget.tasks.wait(15)
    assert "-The quick brown fox." in widget.diffs[fox] and "+The quick red fox." in widget.diffs[fox]
    lab_server.api("POST", f"suggestions/{fox}/reject")  # the card's suggestion is decided elsewhere...
    widget.accept(fox).result(15)  # ...before the person's click reaches the server
    assert widget.tasks.wait(15)
    assert "CONFLICT" in widget.errors[fox] or "NOT_FOUND" in widget.errors[fox], widget.errors
    assert widget.cards == []


def test_five_hundred_pending_in_one_fetch(lab_server: Lab, review: Any) -> None:
    path = note(lab_server, "many.md", "".join(f"Item {i} waits.\n\n" for i in range(500)))
    edits = [{"op": "anchored", "text": f"Item {i} waits", "replacement": f"Item {i} done"} for i in range(500)]
    result = lab_server.agent_call("document", {"action": "edit", "path": path, "edits": edits, "rationale": "Done."})
    assert not result.is_error, result
    assert len(result.structured_content["suggestionIds"]) == 500
    started = time.monotonic()
    widget = review(path)
    assert len(widget.cards) == 500 and time.monotonic() - started < 10
    first = widget.cards[0]["id"]
    widget.accept(first).result(15)
    assert widget.tasks.wait(15)
    assert len(widget.cards) == 499 and first not in ids(widget)
    assert (lab_server.root / path).read_text().startswith("Item 0 done.\n\nItem 1 waits.\n")
