"""document.search and document.replace (ops/search.py), called directly on a tab."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops import registry
from jupyter_mcp_lab.ops.markdown.search import MAX_MATCHES
from tests.ops.test_at_cursor import Lab, make_lab

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
    r = await lab.call("document.search", query="alpha")
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
    r = await lab.call("document.search", query="alpha", caseSensitive=True)
    assert [(m["from"], m["text"]) for m in r["matches"]] == [(9, "alpha")] and r["count"] == 1
    none = await lab.call("document.search", query="zeta")
    assert (none["matches"], none["count"], none["truncated"]) == ([], 0, False)


async def test_search_positions_are_code_points_and_the_query_is_literal(lab: Lab) -> None:
    text = "😀 a.b\n\naxb (a.b)\n"
    await lab.open(text)
    r = await lab.call("document.search", query="a.b")
    assert [(m["from"], m["to"], m["line"], m["column"]) for m in r["matches"]] == [(2, 5, 1, 3), (12, 15, 3, 6)]
    assert r["matches"][0]["context"] == "😀 a.b"


async def test_search_context_is_bounded_and_matches_are_capped(lab: Lab) -> None:
    long_line = "x" * 100 + "needle" + "y" * 100
    await lab.open(long_line + "\n")
    [m] = (await lab.call("document.search", query="needle"))["matches"]
    assert m["context"] == "x" * 30 + "needle" + "y" * 30
    many = "ab " * (MAX_MATCHES + 50)
    await lab.open(many, name="many.md")
    r = await lab.call("document.search", query="ab")
    assert (r["count"], len(r["matches"]), r["truncated"]) == (MAX_MATCHES + 50, MAX_MATCHES, True)


async def test_search_refuses_an_empty_query() -> None:
    with pytest.raises(ValidationError):
        registry.get("document.search").params.model_validate({"query": ""})


async def test_replace_first_occurrence(lab: Lab) -> None:
    tab = await lab.open(REPEATS)
    r = await lab.call("document.replace", search="x", replace="Y")
    after = "a Y\n\nb\n\nc x\n\nx x\n"
    assert tab.doc.text == after
    assert (r["count"], r["applied"], r["mode"], r["suggestionIds"]) == (1, True, "apply", None)
    assert r["message"] == "Applied: replaced 1 occurrence of 'x'"
    assert r["revision"] == revision_of(after) and r["checkpointId"]


async def test_replace_all_is_case_sensitive(lab: Lab) -> None:
    tab = await lab.open(REPEATS + "X\n")
    r = await lab.call("document.replace", search="x", replace="**y**", all=True)
    assert tab.doc.text == "a **y**\n\nb\n\nc **y**\n\n**y** **y**\nX\n"
    assert (r["count"], r["applied"]) == (4, True)
    assert r["message"] == "Applied: replaced 4 occurrences of 'x'"


async def test_replace_not_found_changes_nothing(lab: Lab) -> None:
    tab = await lab.open(REPEATS)
    r = await lab.call("document.replace", search="zzz", replace="Y", all=True)
    assert (r["count"], r["applied"], r["checkpointId"]) == (0, False, None)
    assert r["message"] == "No occurrences of 'zzz': nothing changed"
    assert tab.doc.text == REPEATS


async def test_replace_all_under_suggest_stages_one_suggestion_per_separated_occurrence(suggest: Lab) -> None:
    tab = await suggest.open(REPEATS)
    r = await suggest.call("document.replace", search="x", replace="Y", all=True, rationale="rename")
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
    err = await lab.fail("document.replace", search="x", replace="x")
    assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "replace")
    err = await lab.fail("document.replace", search="x", replace="Y", expected_revision=revision_of("old"))
    assert err["error"] == "STALE"
    dry = await lab.call("document.replace", search="x", replace="Y", all=True, mode="dryRun")
    assert (dry["count"], dry["applied"], dry["mode"]) == (4, False, "dryRun") and "+c Y" in dry["diff"]
    assert tab.doc.text == REPEATS
    with pytest.raises(ValidationError):
        registry.get("document.replace").params.model_validate({"search": "", "replace": "y"})


async def test_replace_works_on_any_text_document(lab: Lab) -> None:
    tab = await lab.open("key: x\n", name="conf.txt")
    await lab.call("document.replace", search="x", replace="y")
    assert tab.doc.text == "key: y\n"
    hits = await lab.call("document.search", query="KEY")
    assert hits["count"] == 1
