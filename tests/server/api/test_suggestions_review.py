"""What the review panel asks beyond pending lists: context lines, the last decisions, conflicts
that stay until a person re-applies or dismisses them.

Suggestions are staged by a real MCP agent under the ``suggest`` policy; the person changes
the file on disk (as JupyterLab saves it) and decides over real HTTP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ...conftest import LabServer
from .conftest import DOC, Api, assert_error, on_disk, suggest_replace


def write(root: Path, text: str) -> None:
    with open(root / "notes.md", "w", encoding="utf-8", newline="") as f:
        f.write(text)


async def test_context_lines_around_each_suggestion(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [beta] = await suggest_replace(tools, "beta", "BETA")
    [s] = (await api.ok("GET", "suggestions", context="1"))["suggestions"]
    # Whole lines: one above, the change's own line, one below (DOC's lines are blank between).
    assert (s["contextBefore"], s["original"], s["contextAfter"]) == ("\n", "beta", " line\n\n")
    [s] = (await api.ok("GET", "suggestions", context="2"))["suggestions"]
    assert s["contextBefore"] + s["original"] + s["contextAfter"] == "alpha line\n\nbeta line\n\ngamma line\n"
    [s] = (await api.ok("GET", "suggestions", context="0"))["suggestions"]
    assert (s["contextBefore"], s["contextAfter"]) == ("", " line\n")
    [s] = (await api.ok("GET", "suggestions", context="10"))["suggestions"]
    assert s["contextBefore"] + s["original"] + s["contextAfter"] == DOC  # clamped to the text
    # Not asked: the fields are not there.
    [s] = (await api.ok("GET", "suggestions"))["suggestions"]
    assert "contextBefore" not in s and "contextAfter" not in s
    for bad in ("-1", "11", "two"):
        assert assert_error(await api.get("suggestions", context=bad), 400, "INVALID_ARGUMENT")["argument"] == "context"
    # Once its base text is gone (decided, pruned) the context is null, the record stays.
    await api.ok("POST", f"suggestions/{beta}/reject")
    assert mcp_lab.extension.services.reviews.store.prune_texts() >= 1
    [s] = (await api.ok("GET", "suggestions", status="rejected", context="2"))["suggestions"]
    assert (s["id"], s["contextBefore"], s["contextAfter"]) == (beta, None, None)


async def test_a_located_list_shows_context_from_the_current_text(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path
) -> None:
    # Two suggestions on neighbouring lines; the person accepts one. The other's card, listed
    # as the panel lists it (located, with context), shows the accepted wording around it, and
    # lines a person typed since: the text accepting it would change. Without locate, the base.
    async with agent() as tools:
        [alpha] = await suggest_replace(tools, "alpha line", "ALPHA line")
        [beta] = await suggest_replace(tools, "beta line", "BETA line")
    await api.ok("POST", f"suggestions/{alpha}/accept")
    write(root, on_disk(root).replace("gamma line", "gamma line, typed"))

    def card(listed: dict[str, Any]) -> str:
        [s] = [s for s in listed["suggestions"] if s["id"] == beta]
        return str(s["contextBefore"] + s["original"] + s["contextAfter"])

    located = await api.ok("GET", "suggestions", status="open", locate="true", context="2")
    assert card(located) == "ALPHA line\n\nbeta line\n\ngamma line, typed\n"
    assert card(await api.ok("GET", "suggestions", status="open", context="2")) == (
        "alpha line\n\nbeta line\n\ngamma line\n"
    )
    # Where it cannot be placed (its own text was typed over), the card keeps its base text.
    write(root, on_disk(root).replace("beta line", "Beta, typed over"))
    located = await api.ok("GET", "suggestions", status="open", locate="true", context="1")
    [s] = [s for s in located["suggestions"] if s["id"] == beta]
    assert (s["currentStart"], s["contextBefore"] + s["original"] + s["contextAfter"]) == (None, "\nbeta line\n\n")


async def test_the_last_decisions_first(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [alpha, beta, gamma] = await suggest_replace(tools, "line", "LINE")
    await api.ok("POST", f"suggestions/{gamma}/reject")
    await api.ok("POST", f"suggestions/{alpha}/accept")
    decided = await api.ok("GET", "suggestions", status="decided", order="recent")
    assert [(s["id"], s["status"]) for s in decided["suggestions"]] == [(alpha, "accepted"), (gamma, "rejected")]
    assert decided["counts"] == {"notes.md": {"accepted": 1, "rejected": 1, "pending": 1}}
    assert [
        s["id"] for s in (await api.ok("GET", "suggestions", status="decided", order="recent", limit=1))["suggestions"]
    ] == [alpha]
    assert [s["id"] for s in (await api.ok("GET", "suggestions", status="decided"))["suggestions"]] == [alpha, gamma]
    assert [s["id"] for s in (await api.ok("GET", "suggestions", order="recent"))["suggestions"]] == [beta]
    assert assert_error(await api.get("suggestions", order="newest"), 400, "INVALID_ARGUMENT")["argument"] == "order"


async def test_a_conflict_stays_until_dismissed(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "beta line", "BETA line")
    write(root, DOC.replace("beta line", "Beta, typed over"))
    assert (await api.ok("POST", f"suggestions/{sid}/accept"))["status"] == "conflict"
    # Listed as a conflict (a reload of the panel finds it), with its base text for the card.
    [c] = (await api.ok("GET", "suggestions", status="conflict", context="1"))["suggestions"]
    assert (c["id"], c["contextBefore"] + c["original"] + c["contextAfter"]) == (sid, "\nbeta line\n\n")
    async with agent() as tools:
        [other] = await suggest_replace(tools, "gamma", "GAMMA")
    listed = await api.ok("GET", "suggestions", status="open", locate="true")
    assert [(s["id"], s["status"], s["currentStart"]) for s in listed["suggestions"]] == [
        (sid, "conflict", None),
        (other, "pending", listed["suggestions"][1]["currentStart"]),
    ]
    assert listed["suggestions"][1]["currentStart"] is not None
    # Dismissing is rejecting it; then it is decided for good.
    dismissed = await api.ok("POST", f"suggestions/{sid}/reject")
    assert (dismissed["status"], dismissed["decidedBy"], dismissed["reason"]) == ("rejected", LOCAL_USER, c["reason"])
    assert (await api.ok("GET", "suggestions", status="conflict"))["count"] == 0
    assert_error(await api.post(f"suggestions/{sid}/reject"), 409, "CONFLICT")
    assert_error(await api.get(f"suggestions/{sid}/reapply"), 409, "CONFLICT")


async def test_reapply_a_typed_over_suggestion(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [alpha, beta, gamma] = await suggest_replace(tools, "line", "LINE")
    typed = DOC.replace("beta line", "beta row")  # the person typed over beta's "line"
    write(root, typed)
    listed = await api.ok("GET", "suggestions", path="notes.md", locate="true")
    assert {s["id"]: s["currentStart"] for s in listed["suggestions"]}[beta] is None  # would conflict

    preview = await api.ok("GET", f"suggestions/{beta}/reapply")
    at = typed.index("row")
    assert preview == {
        "suggestionId": beta,
        "path": "notes.md",
        "revision": revision_of(typed),
        "start": at,
        "end": at + 3,
        "lineStart": 5,
        "lineEnd": 5,
        "current": "row",
        "new": "LINE",
        "clean": False,
        "contextBefore": "alpha line\n\nbeta ",
        "contextAfter": "\n\ngamma line\n",
    }
    assert on_disk(root) == typed  # a preview changes nothing

    # The document changed since the preview: refused, nothing staged.
    body = assert_error(
        await api.post(f"suggestions/{beta}/reapply", {"expectedRevision": revision_of(DOC)}), 409, "STALE"
    )
    assert body["current_revision"] == revision_of(typed)
    for bad in ({"expectedRevision": ""}, {"expectedRevision": 3}, {"other": 1}):
        assert_error(await api.post(f"suggestions/{beta}/reapply", bad), 400, "INVALID_ARGUMENT")
    assert (await api.ok("GET", "suggestions"))["count"] == 3

    done = await api.ok("POST", f"suggestions/{beta}/reapply", {"expectedRevision": preview["revision"]})
    old, new = done["previous"], done["suggestion"]
    assert (old["id"], old["status"], old["decidedBy"]) == (beta, "rejected", LOCAL_USER)
    assert new["id"] in old["reason"]
    assert (new["status"], new["original"], new["new"], new["baseRevision"]) == (
        "pending",
        "row",
        "LINE",
        revision_of(typed),
    )
    assert (new["start"], new["end"], new["lineStart"], new["author"]) == (at, at + 3, 5, old["author"])
    assert on_disk(root) == typed
    pending = await api.ok("GET", "suggestions")
    assert {s["id"] for s in pending["suggestions"]} == {alpha, gamma, new["id"]}

    # The new suggestion applies with the others where they all are now.
    result = await api.ok("POST", "suggestions/accept-all", {"path": "notes.md"})
    assert result["conflicts"] == []
    assert on_disk(root) == DOC.replace("line", "LINE")
    # An empty POST body is allowed; a decided suggestion cannot be re-applied.
    assert_error(await api.post(f"suggestions/{new['id']}/reapply"), 409, "CONFLICT")
    assert_error(await api.get("suggestions/sug-000000000000/reapply"), 404, "NOT_FOUND")
    assert_error(await api.post("suggestions/sug-000000000000/reapply"), 404, "NOT_FOUND")
