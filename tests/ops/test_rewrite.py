"""Whole-document changes to a tab (ops/rewrite.py): content for an empty document, CJK
punctuation and spacing."""

# ruff: noqa: RUF001  (full-width punctuation is the subject here)
from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from tests.ops.test_at_cursor import Lab, make_lab


@pytest.fixture
def lab(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "auto")


@pytest.fixture
def suggest(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "suggest")


@pytest.mark.parametrize("empty", ["", "\n", "  \n\n"])
async def test_set_content_fills_an_empty_document(lab: Lab, empty: str) -> None:
    tab = await lab.open(empty)
    r = await lab.call("document.set_content", content="# New\n\nText.\n")
    assert tab.doc.text == "# New\n\nText.\n"
    assert (r["applied"], r["mode"], r["count"], r["suggestionId"]) == (True, "apply", 1, None)
    assert r["message"] == "Applied: set content (13 characters)"
    assert r["revision"] == revision_of("# New\n\nText.\n") and r["checkpointId"]


async def test_set_content_refuses_a_document_with_content(lab: Lab) -> None:
    tab = await lab.open("x\n")
    err = await lab.fail("document.set_content", content="# New\n")
    assert err["error"] == "CONFLICT" and err["characters"] == 2
    assert "document_insert_at_cursor" in err["message"] and "selection_replace" in err["message"]
    assert tab.doc.text == "x\n"


async def test_set_content_is_staged_under_suggest(suggest: Lab) -> None:
    tab = await suggest.open("")
    r = await suggest.call("document.set_content", content="# New\n")
    assert (r["applied"], r["mode"]) == (False, "suggest") and r["suggestionId"]
    assert tab.doc.text == "" and (suggest.root / "doc.md").read_text() == ""
    await suggest.services.reviews.accept_all(by="person", ids=[r["suggestionId"]])
    assert tab.doc.text == "# New\n"


async def test_set_content_with_nothing_new_changes_nothing(lab: Lab) -> None:
    await lab.open("")
    r = await lab.call("document.set_content", content="")
    assert (r["applied"], r["count"]) == (False, 0) and r["message"].startswith("Nothing to change")


CJK = "中文,English很好.\n\n`code,中文.`\n"


async def test_punctuation_to_fullwidth_and_back(lab: Lab) -> None:
    tab = await lab.open(CJK)
    r = await lab.call("document.cjk_punctuation", direction="to-fullwidth")
    assert tab.doc.text == "中文，English很好。\n\n`code,中文.`\n"  # code spans stay as they are
    assert (r["count"], r["applied"]) == (2, True)
    assert r["message"] == "Applied: converted punctuation to-fullwidth in 2 places"
    back = await lab.call("document.cjk_punctuation", direction="to-halfwidth")
    assert tab.doc.text == "中文, English很好.\n\n`code,中文.`\n"
    assert back["count"] == 2


async def test_spacing_add_and_remove(lab: Lab) -> None:
    tab = await lab.open("中文English很好123.\n")
    r = await lab.call("document.cjk_spacing", action="add")
    assert tab.doc.text == "中文 English 很好 123.\n"
    assert (r["count"], r["message"]) == (3, "Applied: added spacing in 3 places")
    r = await lab.call("document.cjk_spacing", action="remove")
    assert tab.doc.text == "中文English很好123.\n"
    assert r["message"] == "Applied: removed spacing in 3 places"
    r = await lab.call("document.cjk_spacing", action="remove")
    assert (r["count"], r["applied"], r["message"]) == (0, False, "Nothing to change: no spacing to remove")


async def test_cjk_rewrites_are_one_suggestion_under_suggest(suggest: Lab) -> None:
    tab = await suggest.open("中文English。\n\n很好123\n")
    r = await suggest.call("document.cjk_spacing", action="add")
    assert (r["applied"], r["count"]) == (False, 2) and tab.doc.text == "中文English。\n\n很好123\n"
    [s] = suggest.services.reviews.pending()
    assert s.id == r["suggestionId"]
    await suggest.services.reviews.accept_all(by="person", ids=[s.id])
    assert tab.doc.text == "中文 English。\n\n很好 123\n"


async def test_cjk_refuses_unknown_directions_and_other_kinds(lab: Lab) -> None:
    from pydantic import ValidationError

    from jupyter_mcp_lab.ops import registry

    with pytest.raises(ValidationError):
        registry.get("document.cjk_punctuation").params.model_validate({"direction": "to_fullwidth"})
    with pytest.raises(ValidationError):
        registry.get("document.cjk_spacing").params.model_validate({"action": "fix"})
    await lab.open('{"cells": []}', name="n.ipynb")
    err = await lab.fail("document.cjk_spacing", action="add")
    assert err["error"] == "INVALID_ARGUMENT" and "notebook" in err["message"]
