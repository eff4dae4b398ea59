"""``DocumentView`` at the model level against a real JupyterLab: the document read through
the ``document`` tool (paged), its pending suggestions placed where they apply (``locate``),
marked in the rendered HTML; accepting through the view changes the file; the view follows
the event stream (new suggestions, a file changed elsewhere)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.kernel_tools.conftest import Lab, note
from tests.kernel_tools.test_review_widget import TEXT, click, eventually, stage


@pytest.fixture
def document(lab: Any) -> Any:
    made: list[Any] = []

    def make(path: str) -> Any:
        view = lab.document_view(path)
        made.append(view)
        view.ready.result(30)
        assert view.tasks.wait(30)
        return view

    yield make
    for view in made:
        view.close()


def marks_of(view: Any, kind: str) -> dict[str, list[str]]:
    """``{suggestion id: [marked texts]}`` of the ``del`` or ``ins`` marks in the view's HTML."""
    out: dict[str, list[str]] = {}
    for sid, text in re.findall(rf'<{kind} class="mcpw-{kind}" data-id="([^"]+)">(.*?)</{kind}>', view.html, re.S):
        out.setdefault(sid, []).append(text)
    return out


def test_suggestions_are_marked_where_they_apply(lab_server: Lab, document: Any) -> None:
    path = note(lab_server, "view.md", TEXT)
    fox = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    dog = stage(lab_server, path, "lazy dog", "sleepy cat", "Cat.", agent="agent-b")
    view = document(path)
    assert view.error == "" and view.kind == "markdown" and view.revision
    assert "<h1>Notes</h1>" in view.html
    assert marks_of(view, "del") == {fox: ["brown"], dog: ["lazy dog"]}
    assert marks_of(view, "ins") == {fox: ["red"], dog: ["sleepy cat"]}
    assert [(m["id"], m["author"], m["rationale"]) for m in view.marks] == [
        (fox, "agent-a", "Red."),
        (dog, "agent-b", "Cat."),
    ]
    assert view.unplaced == []


def test_accept_in_the_view_changes_the_file_and_the_marks(lab_server: Lab, document: Any) -> None:
    path = note(lab_server, "view-accept.md", TEXT)
    fox = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    dog = stage(lab_server, path, "lazy dog", "sleepy cat", "Cat.")
    view = document(path)
    click(view, "accept", id=fox)
    assert view.busy == {fox: "accept"}
    assert eventually(lambda: view.busy == {} and fox not in marks_of(view, "del"))
    assert (lab_server.root / path).read_text() == TEXT.replace("brown", "red")
    assert "The quick red fox." in view.html
    assert marks_of(view, "del") == {dog: ["lazy dog"]}  # placed again in the new text
    click(view, "reject", id=dog)
    assert eventually(lambda: view.busy == {} and view.marks == [])
    assert (lab_server.root / path).read_text() == TEXT.replace("brown", "red")


def test_the_view_follows_the_event_stream(lab_server: Lab, document: Any) -> None:
    path = note(lab_server, "view-live.md", TEXT)
    view = document(path)
    assert view.marks == [] and "<p>A lazy dog sleeps.</p>" in view.html
    dog = stage(lab_server, path, "lazy dog", "sleepy cat", "Cat.")
    assert eventually(lambda: marks_of(view, "ins") == {dog: ["sleepy cat"]}), view.html
    # A person accepts in the JupyterLab panel: the document changes, the mark goes.
    lab_server.api("POST", f"suggestions/{dog}/accept")
    assert eventually(lambda: "<p>A sleepy cat sleeps.</p>" in view.html and view.marks == []), view.html


def test_a_suggestion_that_cannot_be_placed_is_listed(lab_server: Lab, document: Any) -> None:
    path = note(lab_server, "view-conflict.md", TEXT)
    red = stage(lab_server, path, "quick brown fox", "quick red fox", "Red.")
    grey = stage(lab_server, path, "brown fox", "grey fox", "Grey.")
    view = document(path)
    assert [m["id"] for m in view.marks] == [red]
    assert [c["id"] for c in view.unplaced] == [grey] and "overlaps" in view.unplaced[0]["why"]
    lab_server.api("POST", f"suggestions/{red}/accept")
    assert eventually(lambda: view.marks == [] and [c["id"] for c in view.unplaced] == [grey]), view.unplaced
    assert "changed" in view.unplaced[0]["why"]  # its text is gone: accepting it would conflict


def test_a_long_document_is_read_whole(lab_server: Lab, document: Any) -> None:
    text = "".join(f"## Section {i}\n\n" + "word " * 200 + f"end {i}.\n\n" for i in range(150))
    path = note(lab_server, "view-long.md", text)
    assert len(text.encode()) > 150_000  # pages of the document tool (75 kB each by default)
    last = stage(lab_server, path, "end 149.", "the very end.", "Last words.")
    view = document(path)
    assert view.error == ""
    assert "<h2>Section 149</h2>" in view.html
    assert marks_of(view, "ins") == {last: ["the very end"]}  # the server keeps the common "." out


def test_bad_paths_are_refused_or_shown(lab_server: Lab, lab: Any, document: Any) -> None:
    with pytest.raises(ValueError, match="document path"):
        lab.document_view("")
    view = document("no/such/file.md")
    assert "Could not read no/such/file.md" in view.error and "NOT_FOUND" in view.error
