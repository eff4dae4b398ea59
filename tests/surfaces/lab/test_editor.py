"""The lab profile's ``editor`` tool (cursor.get / cursor.set / cursor.edit) through MCP clients.

An agent reads the selection (the person's, until it sets one), sets it, and makes changes
at it; under the ``suggest`` policy every change is a suggestion the person accepts, and
nothing moves until then. In process (``ops_client``) for the cases, and once against a
real Jupyter server (``mcp_client``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.core.workspace import report_person_selection
from tests.conftest import Tools

DOC = "# Notes\n\nAlpha beta gamma.\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n"
BETA = DOC.index("beta")


async def opened(tools: Tools, root: Path) -> str:
    (root / "notes.md").write_text(DOC)
    return str((await tools.ok("workspace", "open", filePath="notes.md"))["tabId"])


async def test_get_set_and_an_edit_that_becomes_a_suggestion(ops_client: Any) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = services.settings.root_dir
    async with open_tools() as tools:
        tab = await opened(tools, root)
        got = await tools.ok("editor", "get")
        assert (got["tabId"], got["from"], got["to"], got["isEmpty"], got["source"]) == (tab, 0, 0, True, "agent")
        assert got["context"]["block"]["type"] == "heading" and got["revision"] == revision_of(DOC)
        s = await tools.ok("editor", "set", **{"from": BETA, "to": BETA + 4})
        assert (s["text"], s["from"], s["to"], s["head"]) == ("beta", BETA, BETA + 4, BETA + 4)
        assert (await tools.ok("editor", "get", linesBefore=0, linesAfter=0))["context"]["before"] == ""
        r = await tools.ok(
            "editor", "edit", edit={"kind": "format", "mark": "bold"}, expected_revision=revision_of(DOC), rationale="!"
        )
        assert (r["applied"], r["mode"], r["operation"], r["position"]) == (False, "suggest", "toggle bold", BETA)
        [sid] = r["suggestionIds"]
        assert "+Alpha **beta** gamma." in r["diff"]
        # Nothing changed yet: the buffer, the file, the selection.
        assert (await tools.ok("document", "read", tabId=tab))["content"] == DOC
        assert (root / "notes.md").read_text() == DOC
        assert (await tools.ok("editor", "get"))["text"] == "beta"
        [pending] = services.reviews.pending("notes.md")
        assert (pending.id, pending.operation, pending.rationale, pending.status) == (
            sid,
            "toggle bold",
            "!",
            "pending",
        )
        await services.reviews.accept(sid, by="person")  # the person accepts in JupyterLab
        assert (await tools.ok("document", "read", tabId=tab))["content"] == DOC.replace("beta", "**beta**")
        assert (await tools.ok("editor", "get"))["text"] == "beta"  # the selection followed the change


@pytest.mark.parametrize(
    ("edit", "after"),
    [
        ({"kind": "insert", "text": " new"}, DOC.replace("beta", "beta new")),  # at the head
        ({"kind": "replace", "text": "B"}, DOC.replace("beta", "B")),
        ({"kind": "delete"}, DOC.replace("beta", "")),
        ({"kind": "link", "url": "https://x.org"}, DOC.replace("beta", "[beta](https://x.org)")),
        ({"kind": "block", "type": "blockquote"}, DOC.replace("Alpha", "> Alpha")),
        ({"kind": "list", "type": "bullet"}, DOC.replace("Alpha", "- Alpha")),
        ({"kind": "wikilink", "target": "Page"}, DOC.replace("beta", "beta[[Page]]")),
    ],
    ids=lambda v: v["kind"] if isinstance(v, dict) else "",
)
async def test_each_change_is_staged_and_accepting_gives_it(ops_client: Any, edit: dict[str, Any], after: str) -> None:
    services, open_tools = ops_client(approval="suggest")
    async with open_tools() as tools:
        tab = await opened(tools, services.settings.root_dir)
        await tools.ok("editor", "set", **{"from": BETA, "to": BETA + 4})
        r = await tools.ok("editor", "edit", edit=edit)
        assert (r["applied"], r["mode"], len(r["suggestionIds"])) == (False, "suggest", 1)
        listed = await tools.ok("review", "list", path="notes.md")
        assert [s["id"] for s in listed["suggestions"]] == r["suggestionIds"]
        await services.reviews.accept_all(by="person", ids=r["suggestionIds"])
        assert (await tools.ok("document", "read", tabId=tab))["content"] == after


async def test_applied_under_auto_at_the_persons_selection(ops_client: Any) -> None:
    services, open_tools = ops_client(approval="auto")
    async with open_tools() as tools:
        tab_id = await opened(tools, services.settings.root_dir)
        tab = services.workspace.tab(tab_id, "")
        report_person_selection(tab, DOC.index("2"), DOC.index("2"))  # the person's cursor in the table
        got = await tools.ok("editor", "get")
        assert (got["source"], got["context"]["block"]["type"]) == ("person", "tableCell")
        r = await tools.ok("editor", "edit", edit={"kind": "table", "change": "add_column"})
        assert (r["applied"], r["operation"], r["checkpointId"] is not None) == (True, "add column after", True)
        content = (await tools.ok("document", "read", tabId=tab_id))["content"]
        assert content.endswith("| A | B |  |\n| --- | --- | --- |\n| 1 | 2 |  |\n")
        await tools.ok("workspace", "save", tabId=tab_id)
    assert (services.settings.root_dir / "notes.md").read_text() == content


async def test_focus_is_per_session(ops_client: Any) -> None:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    (root / "other.md").write_text("Other.\n")
    async with open_tools(name="a") as a, open_tools(name="b") as b:
        tab = await opened(a, root)
        other = (await b.ok("workspace", "open", filePath="other.md"))["tabId"]
        f = await a.ok("editor", "set", tabId=other, focus=True)
        assert (f["tabId"], f["filePath"]) == (other, "other.md")
        assert (await a.ok("editor", "get"))["tabId"] == other  # a's default tab moved
        assert (await b.ok("editor", "get"))["tabId"] == other  # b's was other.md already
        await b.ok("editor", "set", tabId=tab, focus=True)
        assert (await a.ok("editor", "get"))["tabId"] == other  # b's focus is b's


async def test_bad_arguments_are_named(ops_client: Any) -> None:
    services, open_tools = ops_client()
    async with open_tools() as tools:
        await opened(tools, services.settings.root_dir)
        err = await tools.fail("editor", "edit", edit={"kind": "format", "mark": "bolder"})
        assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "edit.mark")
        err = await tools.fail("editor", "edit", edit={"kind": "format", "mark": "bold"})
        assert err["error"] == "NOT_FOUND" and "nothing is selected" in err["message"]
        err = await tools.fail("editor", "edit", edit={"kind": "link", "url": " "}, **{"from": 0})
        assert err["argument"] == "from"  # edit does not take from
        err = await tools.fail("editor", "set", **{"from": len(DOC) + 1})
        assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "to")
        err = await tools.fail("editor", "set")
        assert (err["error"], err["argument"]) == ("INVALID_ARGUMENT", "from")
        err = await tools.fail("editor", "get", windowId="main")
        assert err["argument"] == "windowId"  # not published here: tabs are addressed by tabId
        err = await tools.fail("editor", "edit", edit={"kind": "delete"}, save=True)
        assert err["argument"] == "save"


SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}], ids=["suggest"])


@SUGGEST
async def test_through_a_jupyter_server(mcp_lab: Any, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    services = mcp_lab.extension.services
    async with mcp_client("lab") as client:
        tools = Tools(client)
        tab = await opened(tools, root)
        await tools.ok("editor", "set", **{"from": BETA, "to": BETA + 4})
        r = await tools.ok("editor", "edit", edit={"kind": "replace", "text": "BETA"})
        assert (r["applied"], r["mode"], r["range"]) == (
            False,
            "suggest",
            {"from": BETA, "to": BETA + 4, "text": "beta"},
        )
        listed = await tools.ok("review", "list", path="notes.md")
        assert [(s["id"], s["status"]) for s in listed["suggestions"]] == [(r["suggestionIds"][0], "pending")]
        await services.reviews.accept(r["suggestionIds"][0], by="person")
        assert (await tools.ok("document", "read", tabId=tab))["content"] == DOC.replace("beta", "BETA")
