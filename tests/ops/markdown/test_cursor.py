"""``cursor.get`` and ``cursor.set`` (ops/markdown/cursor.py), called directly on real files.

A tab's selection with the text around the cursor, who set it, setting a range or a cursor
(refused beyond the end, STALE against another revision), focusing the tab for this session
only, and addressing a tab by window. VMark's selection tools over them are in
tests/surfaces/vmark/test_selection.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.selection import Selection
from jupyter_mcp_lab.core.workspace import Window, report_person_selection
from tests.ops.markdown.test_cursor_edit import PARA, Lab, make_lab

BETA = PARA.index("beta")


@pytest.fixture
def lab(tmp_path: Path) -> Lab:
    return make_lab(tmp_path, "auto")


async def test_get_returns_the_selection_its_tab_and_the_text_around_the_cursor(lab: Lab) -> None:
    tab = await lab.open(PARA, "beta")
    r = await lab.call("cursor.get", linesBefore=1, linesAfter=1)
    assert {k: v for k, v in r.items() if k != "context"} == {
        "tabId": tab.id,
        "windowId": "main",
        "filePath": "doc.md",
        "title": "doc",
        "from": BETA,
        "to": BETA + 4,
        "head": BETA + 4,
        "text": "beta",
        "isEmpty": False,
        "source": "agent",
        "revision": revision_of(PARA),
    }
    assert r["context"] == {
        "before": "\n",
        "after": "\n",
        "currentLine": "Alpha beta gamma.",
        "currentParagraph": "Alpha beta gamma.",
        "block": {
            "type": "paragraph",
            "level": None,
            "language": None,
            "inList": None,
            "inBlockquote": False,
            "inTable": False,
            "position": 9,
        },
    }


async def test_the_persons_selection_is_the_one_read(lab: Lab) -> None:
    tab = await lab.open(PARA, 0)
    report_person_selection(tab, 3, 7)
    r = await lab.call("cursor.get")
    assert (r["text"], r["source"], r["context"]["block"]["type"], r["context"]["block"]["level"]) == (
        "itle",
        "person",
        "heading",
        1,
    )


async def test_set_selects_a_range_or_places_the_cursor(lab: Lab) -> None:
    tab = await lab.open(PARA)
    r = await lab.call("cursor.set", **{"from": BETA, "to": BETA + 4})
    assert (r["text"], r["from"], r["to"], r["isEmpty"], r["context"]) == ("beta", BETA, BETA + 4, False, None)
    assert tab.current_selection() == Selection(BETA, BETA + 4)
    r = await lab.call("cursor.set", **{"from": 3}, expected_revision=revision_of(PARA))
    assert (r["from"], r["to"], r["head"], r["isEmpty"]) == (3, 3, 3, True)
    assert (await lab.call("cursor.set", **{"from": len(PARA)}))["head"] == len(PARA)  # the end is fine


@pytest.mark.parametrize(
    ("arguments", "code", "argument"),
    [
        ({"from": 5, "to": 2}, "INVALID_ARGUMENT", "from"),
        ({"from": 0, "to": len(PARA) + 1}, "INVALID_ARGUMENT", "to"),
        ({"from": len(PARA) + 1}, "INVALID_ARGUMENT", "to"),
        ({"to": 3}, "INVALID_ARGUMENT", "from"),
        ({}, "INVALID_ARGUMENT", "from"),
        ({"from": 1, "expected_revision": revision_of("other")}, "STALE", None),
    ],
)
async def test_set_refuses_what_it_cannot_select(lab: Lab, arguments: dict[str, Any], code: str, argument: str) -> None:
    tab = await lab.open(PARA, "beta")
    err = await lab.fail("cursor.set", **arguments)
    assert (err["error"], err.get("argument")) == (code, argument), err
    assert tab.current_selection() == Selection(BETA, BETA + 4)


async def test_focus_moves_this_sessions_focus_only(lab: Lab) -> None:
    workspace = lab.services.workspace
    window = workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    (lab.root / "other.md").write_text("Other.\n")
    other = workspace.show(await lab.services.docs.open("other.md"), window, "another-session")
    main = await lab.open(PARA)
    r = await lab.call("cursor.set", windowId="lab-1", focus=True)
    assert (r["tabId"], r["windowId"], r["filePath"]) == (other.id, "lab-1", "other.md")
    focus = workspace.focus(lab.ctx.caller.session_id)
    assert (focus.window, focus.tab) == ("lab-1", other.id)
    assert (await lab.call("cursor.get"))["filePath"] == "other.md"  # later calls work on it
    assert workspace.focus("another-session").tab == other.id  # as show() left it
    r = await lab.call("cursor.set", tabId=main.id, focus=True, **{"from": 2})
    assert (r["windowId"], r["tabId"], r["head"]) == ("main", main.id, 2)
    assert (focus.window, focus.tab) == ("main", main.id)


async def test_a_window_names_the_tab_it_shows_without_moving_the_focus(lab: Lab) -> None:
    workspace = lab.services.workspace
    window = workspace.windows["lab-1"] = Window("lab-1", client="browser-1")
    (lab.root / "other.md").write_text("Other text.\n")
    other = workspace.show(await lab.services.docs.open("other.md"), window, "another-session")
    main = await lab.open(PARA, "beta")
    assert (await lab.call("cursor.set", windowId="lab-1", **{"from": 0, "to": 5}))["text"] == "Other"
    assert other.current_selection() == Selection(0, 5)
    assert (await lab.call("cursor.get"))["tabId"] == main.id
    err = await lab.fail("cursor.get", tabId=other.id, windowId="main")
    assert err["error"] == "INVALID_TAB" and "lab-1" in err["message"]
    assert (await lab.fail("cursor.get", windowId="nowhere"))["argument"] == "windowId"


async def test_without_a_tab_the_answer_is_invalid_tab(lab: Lab) -> None:
    assert (await lab.fail("cursor.get"))["error"] == "INVALID_TAB"
    assert (await lab.fail("cursor.set", focus=True))["error"] == "INVALID_TAB"
