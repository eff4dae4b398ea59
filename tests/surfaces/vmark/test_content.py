"""VMark's document_search, document_replace, document_set_content, cjk_punctuation_convert and
cjk_spacing_fix (surfaces/vmark/content.py: adapters over document.search, document.edit,
document.read/write and document.transform), called on a tab through the adapters."""

# ruff: noqa: RUF001  (full-width punctuation is the subject here)

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops.document.search import MAX_MATCHES
from jupyter_mcp_lab.surfaces.vmark import content
from tests.ops.markdown.test_cursor_edit import Lab, make_lab

DOC = "# Alpha\n\nalpha beta ALPHA.\n\nNo match here.\n"
REPEATS = "a x\n\nb\n\nc x\n\nx x\n"


@pytest.fixture
def lab(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "auto")


@pytest.fixture
def suggest(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "suggest")


async def test_search_is_case_insensitive_by_default(lab: Lab) -> None:
    await lab.open(DOC)
    r = await lab.call(content.search, query="alpha")
    assert r == {
        "matches": [
            {"from": 2, "to": 7, "line": 1, "column": 3, "text": "Alpha", "context": "# Alpha"},
            {"from": 9, "to": 14, "line": 3, "column": 1, "text": "alpha", "context": "alpha beta ALPHA."},
            {"from": 20, "to": 25, "line": 3, "column": 12, "text": "ALPHA", "context": "alpha beta ALPHA."},
        ],
        "count": 3,
        "truncated": False,
        "revision": revision_of(DOC),
    }
    for m in r["matches"]:
        assert DOC[m["from"] : m["to"]] == m["text"]


async def test_search_case_sensitive_and_not_found(lab: Lab) -> None:
    await lab.open(DOC)
    r = await lab.call(content.search, query="alpha", caseSensitive=True)
    assert [(m["from"], m["text"]) for m in r["matches"]] == [(9, "alpha")] and r["count"] == 1
    none = await lab.call(content.search, query="zeta")
    assert (none["matches"], none["count"], none["truncated"]) == ([], 0, False)


async def test_search_positions_are_code_points_and_the_query_is_literal(lab: Lab) -> None:
    text = "😀 a.b\n\naxb (a.b)\n"
    await lab.open(text)
    r = await lab.call(content.search, query="a.b")
    assert [(m["from"], m["to"], m["line"], m["column"]) for m in r["matches"]] == [(2, 5, 1, 3), (12, 15, 3, 6)]
    assert r["matches"][0]["context"] == "😀 a.b"


async def test_search_context_is_bounded_and_matches_are_capped(lab: Lab) -> None:
    long_line = "x" * 100 + "needle" + "y" * 100
    await lab.open(long_line + "\n")
    [m] = (await lab.call(content.search, query="needle"))["matches"]
    assert m["context"] == "x" * 30 + "needle" + "y" * 30
    many = "ab " * (MAX_MATCHES + 50)
    await lab.open(many, name="many.md")
    r = await lab.call(content.search, query="ab")
    assert (r["count"], len(r["matches"]), r["truncated"]) == (MAX_MATCHES + 50, MAX_MATCHES, True)


async def test_search_refuses_an_empty_query() -> None:
    with pytest.raises(ValidationError):
        content.search.params.model_validate({"query": ""})


async def test_replace_first_occurrence(lab: Lab) -> None:
    tab = await lab.open(REPEATS)
    r = await lab.call(content.replace, search="x", replace="Y")
    after = "a Y\n\nb\n\nc x\n\nx x\n"
    assert tab.doc.text == after
    assert (r["count"], r["applied"], r["mode"], r["suggestionIds"]) == (1, True, "apply", None)
    assert r["message"] == "Applied: replaced 1 occurrence of 'x'"
    assert r["revision"] == revision_of(after) and r["checkpointId"]


async def test_replace_all_is_case_sensitive(lab: Lab) -> None:
    tab = await lab.open(REPEATS + "X\n")
    r = await lab.call(content.replace, search="x", replace="**y**", all=True)
    assert tab.doc.text == "a **y**\n\nb\n\nc **y**\n\n**y** **y**\nX\n"
    assert (r["count"], r["applied"]) == (4, True)
    assert r["message"] == "Applied: replaced 4 occurrences of 'x'"


async def test_replace_not_found_changes_nothing(lab: Lab) -> None:
    tab = await lab.open(REPEATS)
    r = await lab.call(content.replace, search="zzz", replace="Y", all=True)
    assert (r["count"], r["applied"], r["checkpointId"]) == (0, False, None)
    assert r["message"] == "No occurrences of 'zzz': nothing changed"
    assert tab.doc.text == REPEATS


async def test_replace_all_under_suggest_stages_one_suggestion_per_separated_occurrence(suggest: Lab) -> None:
    tab = await suggest.open(REPEATS)
    r = await suggest.call(content.replace, search="x", replace="Y", all=True, rationale="rename")
    assert (r["count"], r["applied"], r["mode"], r["checkpointId"]) == (4, False, "suggest", None)
    assert r["message"] == "Staged for a person's review: replaced 4 occurrences of 'x'"
    assert tab.doc.text == REPEATS and r["revision"] == revision_of(REPEATS)
    pending = suggest.services.reviews.pending()
    # Occurrences separated by unchanged lines are separate suggestions; "x x" on one line is one.
    assert [(s.original, s.new, s.line_start) for s in pending] == [("x", "Y", 1), ("x", "Y", 5), ("x x", "Y Y", 7)]
    assert [s.id for s in pending] == r["suggestionIds"]
    assert {s.rationale for s in pending} == {"rename"}
    await suggest.services.reviews.accept_all(by="person", ids=[pending[1].id])
    assert tab.doc.text == "a x\n\nb\n\nc Y\n\nx x\n"  # a person can take some and leave others


async def test_replace_guards(lab: Lab) -> None:
    tab = await lab.open(REPEATS)
    err = await lab.fail(content.replace, search="x", replace="x")
    assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "replace")
    err = await lab.fail(content.replace, search="x", replace="Y", expected_revision=revision_of("old"))
    assert err["error"] == "STALE"
    dry = await lab.call(content.replace, search="x", replace="Y", all=True, mode="dryRun")
    assert (dry["count"], dry["applied"], dry["mode"]) == (4, False, "dryRun") and "+c Y" in dry["diff"]
    assert tab.doc.text == REPEATS
    with pytest.raises(ValidationError):
        content.replace.params.model_validate({"search": "", "replace": "y"})


async def test_replace_works_on_any_text_document(lab: Lab) -> None:
    tab = await lab.open("key: x\n", name="conf.txt")
    await lab.call(content.replace, search="x", replace="y")
    assert tab.doc.text == "key: y\n"
    hits = await lab.call(content.search, query="KEY")
    assert hits["count"] == 1


# --------------------------------------------------------------------------- whole-document rewrites


@pytest.mark.parametrize("empty", ["", "\n", "  \n\n"])
async def test_set_content_fills_an_empty_document(lab: Lab, empty: str) -> None:
    tab = await lab.open(empty)
    r = await lab.call(content.set_content, content="# New\n\nText.\n")
    assert tab.doc.text == "# New\n\nText.\n"
    assert (r["applied"], r["mode"], r["count"], r["suggestionId"]) == (True, "apply", 1, None)
    assert r["message"] == "Applied: set content (13 characters)"
    assert r["revision"] == revision_of("# New\n\nText.\n") and r["checkpointId"]


async def test_set_content_refuses_a_document_with_content(lab: Lab) -> None:
    tab = await lab.open("x\n")
    err = await lab.fail(content.set_content, content="# New\n")
    assert err["error"] == "CONFLICT" and err["characters"] == 2
    assert "document_insert_at_cursor" in err["message"] and "selection_replace" in err["message"]
    assert tab.doc.text == "x\n"


async def test_set_content_is_staged_under_suggest(suggest: Lab) -> None:
    tab = await suggest.open("")
    r = await suggest.call(content.set_content, content="# New\n")
    assert (r["applied"], r["mode"]) == (False, "suggest") and r["suggestionId"]
    assert tab.doc.text == "" and (suggest.root / "doc.md").read_text() == ""
    await suggest.services.reviews.accept_all(by="person", ids=[r["suggestionId"]])
    assert tab.doc.text == "# New\n"


async def test_set_content_with_nothing_new_changes_nothing(lab: Lab) -> None:
    await lab.open("")
    r = await lab.call(content.set_content, content="")
    assert (r["applied"], r["count"]) == (False, 0) and r["message"].startswith("Nothing to change")


CJK = "中文,English很好.\n\n`code,中文.`\n"


async def test_punctuation_to_fullwidth_and_back(lab: Lab) -> None:
    tab = await lab.open(CJK)
    r = await lab.call(content.punctuation, direction="to-fullwidth")
    assert tab.doc.text == "中文，English很好。\n\n`code,中文.`\n"  # code spans stay as they are
    assert (r["count"], r["applied"]) == (2, True)
    assert r["message"] == "Applied: converted punctuation to-fullwidth in 2 places"
    back = await lab.call(content.punctuation, direction="to-halfwidth")
    assert tab.doc.text == "中文, English很好.\n\n`code,中文.`\n"
    assert back["count"] == 2


async def test_spacing_add_and_remove(lab: Lab) -> None:
    tab = await lab.open("中文English很好123.\n")
    r = await lab.call(content.spacing, action="add")
    assert tab.doc.text == "中文 English 很好 123.\n"
    assert (r["count"], r["message"]) == (3, "Applied: added spacing in 3 places")
    r = await lab.call(content.spacing, action="remove")
    assert tab.doc.text == "中文English很好123.\n"
    assert r["message"] == "Applied: removed spacing in 3 places"
    r = await lab.call(content.spacing, action="remove")
    assert (r["count"], r["applied"], r["message"]) == (0, False, "Nothing to change: no spacing to remove")


async def test_cjk_rewrites_are_one_suggestion_under_suggest(suggest: Lab) -> None:
    tab = await suggest.open("中文English。\n\n很好123\n")
    r = await suggest.call(content.spacing, action="add")
    assert (r["applied"], r["count"]) == (False, 2) and tab.doc.text == "中文English。\n\n很好123\n"
    [s] = suggest.services.reviews.pending()
    assert s.id == r["suggestionId"]
    await suggest.services.reviews.accept_all(by="person", ids=[s.id])
    assert tab.doc.text == "中文 English。\n\n很好 123\n"


async def test_cjk_refuses_unknown_directions_and_other_kinds(lab: Lab) -> None:
    with pytest.raises(ValidationError):
        content.punctuation.params.model_validate({"direction": "to_fullwidth"})
    with pytest.raises(ValidationError):
        content.spacing.params.model_validate({"action": "fix"})
    await lab.open('{"cells": []}', name="n.ipynb")
    err = await lab.fail(content.spacing, action="add")
    assert err["error"] == "INVALID_ARGUMENT" and "notebook" in err["message"]
