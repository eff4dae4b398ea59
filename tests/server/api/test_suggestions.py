"""Suggestions through the REST API: staged by a real MCP agent, decided by a person over HTTP,
checked on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ...conftest import CLIENT_NAME, LabServer
from .conftest import DOC, Api, assert_error, on_disk, suggest_replace


async def test_list_get_accept_reject(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [alpha] = await suggest_replace(tools, "alpha line", "ALPHA line")
        [gamma] = await suggest_replace(tools, "gamma line", "GAMMA line")
    assert on_disk(root) == DOC  # staged, not applied

    listed = await api.ok("GET", "suggestions")
    assert [s["id"] for s in listed["suggestions"]] == [alpha, gamma]  # document order
    assert listed["count"] == 2
    assert listed["counts"] == {"notes.md": {"pending": 2}}
    first = listed["suggestions"][0]
    # One suggestion per hunk, as small as the change.
    assert (first["path"], first["original"], first["new"]) == ("notes.md", "alpha", "ALPHA")
    assert (first["status"], first["author"], first["baseRevision"]) == ("pending", CLIENT_NAME, revision_of(DOC))
    assert (first["lineStart"], first["lineEnd"]) == (3, 3)

    detail = await api.ok("GET", f"suggestions/{alpha}")
    # The detail adds the diff, and `cell` (a notebook cell's place; None for a text document).
    assert {k: v for k, v in detail.items() if k not in {"diff", "cell"}} == first
    assert detail["cell"] is None and "cell" not in first
    assert detail["diff"].splitlines() == [
        "--- a/notes.md",
        "+++ b/notes.md",
        "@@ -1,6 +1,6 @@",
        " # Notes",
        " ",
        "-alpha line",
        "+ALPHA line",
        " ",
        " beta line",
        " ",
    ]

    accepted = await api.ok("POST", f"suggestions/{alpha}/accept")
    assert (accepted["id"], accepted["status"], accepted["decidedBy"]) == (alpha, "accepted", LOCAL_USER)
    assert on_disk(root) == DOC.replace("alpha line", "ALPHA line")
    assert accepted["resultRevision"] == revision_of(on_disk(root))

    rejected = await api.ok("POST", f"suggestions/{gamma}/reject")
    assert (rejected["status"], rejected["decidedBy"]) == ("rejected", LOCAL_USER)
    assert on_disk(root) == DOC.replace("alpha line", "ALPHA line")  # rejecting touches nothing

    # Deciding again is a conflict with the earlier decision, whichever way.
    for done in (alpha, gamma):
        for action in ("accept", "reject"):
            body = assert_error(await api.post(f"suggestions/{done}/{action}"), 409, "CONFLICT")
            assert body["suggestionId"] == done
    assert (await api.ok("GET", "suggestions"))["count"] == 0
    everything = await api.ok("GET", "suggestions", status="all")
    assert {s["id"]: s["status"] for s in everything["suggestions"]} == {alpha: "accepted", gamma: "rejected"}
    assert everything["counts"] == {"notes.md": {"accepted": 1, "rejected": 1}}
    assert [s["id"] for s in (await api.ok("GET", "suggestions", status="rejected"))["suggestions"]] == [gamma]
    assert (await api.ok("GET", "suggestions", status="all", limit=1))["count"] == 1
    assert (await api.ok("GET", "suggestions", status="all", path="/notes.md"))["count"] == 2
    assert (await api.ok("GET", "suggestions", status="all", path="other.md"))["count"] == 0

    # Accepting made a checkpoint a person can revert later.
    [cp] = (await api.ok("GET", "checkpoints"))["checkpoints"]
    assert (cp["source"], cp["suggestionId"], cp["old"], cp["new"]) == ("accepted", alpha, "alpha", "ALPHA")

    for route in ("suggestions/sug-000000000000", "suggestions/nope"):
        assert_error(await api.get(route), 404, "NOT_FOUND")
    assert_error(await api.post("suggestions/nope/accept"), 404, "NOT_FOUND")
    assert_error(await api.post("suggestions/nope/reject"), 404, "NOT_FOUND")


async def test_accept_conflict_leaves_the_file_untouched(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "beta line", "BETA line")
    # A person rewrites the very words on disk before deciding.
    edited = DOC.replace("beta line", "Beta, rewritten by hand")
    (root / "notes.md").write_text(edited, encoding="utf-8")

    decided = await api.ok("POST", f"suggestions/{sid}/accept")
    assert decided["status"] == "conflict"
    assert decided["reason"]
    assert on_disk(root) == edited
    assert (await api.ok("GET", "checkpoints"))["count"] == 0
    assert_error(await api.post(f"suggestions/{sid}/accept"), 409, "CONFLICT")


async def test_accept_maps_through_edits_elsewhere(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "gamma line", "GAMMA line")
    (root / "notes.md").write_text("Added on top.\n\n" + DOC, encoding="utf-8")
    decided = await api.ok("POST", f"suggestions/{sid}/accept")
    assert decided["status"] == "accepted"
    assert on_disk(root) == "Added on top.\n\n" + DOC.replace("gamma line", "GAMMA line")


async def test_accept_all_by_path(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    (root / "other.md").write_text("other alpha line\n", encoding="utf-8")
    async with agent() as tools:
        ids = await suggest_replace(tools, "line", "LINE")
        [other] = await suggest_replace(tools, "alpha", "ALPHA", path="other.md")
    assert len(ids) == 3

    result = await api.ok("POST", "suggestions/accept-all", {"path": "notes.md"})
    assert [s["id"] for s in result["accepted"]] == ids
    assert result["conflicts"] == []
    assert on_disk(root) == DOC.replace("line", "LINE")
    assert result["revision"] == revision_of(on_disk(root))
    assert {s["status"] for s in result["accepted"]} == {"accepted"}
    # Only that document: the other one's suggestion still waits.
    assert [s["id"] for s in (await api.ok("GET", "suggestions"))["suggestions"]] == [other]
    assert on_disk(root, "other.md") == "other alpha line\n"
    # Nothing pending there any more: an empty answer, not an error.
    again = await api.ok("POST", "suggestions/accept-all", {"path": "notes.md"})
    assert again == {"accepted": [], "conflicts": [], "revision": None}


async def test_accept_all_reports_conflicts(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [alpha, beta, gamma] = await suggest_replace(tools, "line", "LINE")
    edited = DOC.replace("beta line", "beta changed")
    (root / "notes.md").write_text(edited, encoding="utf-8")
    result = await api.ok("POST", "suggestions/accept-all", {"ids": [alpha, beta, gamma]})
    assert [s["id"] for s in result["accepted"]] == [alpha, gamma]
    assert [(s["id"], s["status"]) for s in result["conflicts"]] == [(beta, "conflict")]
    assert on_disk(root) == edited.replace("alpha line", "alpha LINE").replace("gamma line", "gamma LINE")


async def test_reject_all_by_ids_and_path(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [alpha, beta, gamma] = await suggest_replace(tools, "line", "LINE")
    result = await api.ok("POST", "suggestions/reject-all", {"ids": [beta, beta]})
    assert [(s["id"], s["status"]) for s in result["rejected"]] == [(beta, "rejected")]
    result = await api.ok("POST", "suggestions/reject-all", {"path": "notes.md", "ids": [alpha]})
    assert [s["id"] for s in result["rejected"]] == [alpha]
    result = await api.ok("POST", "suggestions/reject-all", {"path": "notes.md"})
    assert [s["id"] for s in result["rejected"]] == [gamma]
    assert on_disk(root) == DOC
    assert (await api.ok("GET", "suggestions"))["count"] == 0


async def test_decide_all_refuses_unclear_selections(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "alpha line", "ALPHA line")
    for action in ("accept-all", "reject-all"):
        route = f"suggestions/{action}"
        # An empty selection must never mean "every document".
        for body in ({}, {"ids": []}, {"path": ""}, {"path": None}, {"ids": None}):
            assert_error(await api.post(route, body), 400, "INVALID_ARGUMENT")
        body = assert_error(await api.post(route, {"path": "notes.md", "more": 1}), 400, "INVALID_ARGUMENT")
        assert body["argument"] == "more"
        body = assert_error(await api.post(route, {"ids": [1]}), 400, "INVALID_ARGUMENT")
        assert body["argument"] == "ids.0"
        assert_error(await api.post(route, [sid]), 400, "INVALID_ARGUMENT")
        r = await api.http.post(api.url(route), content=b"{not json", headers=mcp_lab.auth())
        assert assert_error(r, 400, "INVALID_ARGUMENT")["argument"] == "body"
        r = await api.http.post(api.url(route), headers=mcp_lab.auth())  # no body at all
        assert_error(r, 400, "INVALID_ARGUMENT")
        assert_error(await api.post(route, {"ids": [sid, "sug-unknown"]}), 404, "NOT_FOUND")
        body = assert_error(await api.post(route, {"ids": [sid], "path": "other.md"}), 400, "INVALID_ARGUMENT")
        assert body["argument"] == "ids"
    # None of that decided anything.
    assert [s["id"] for s in (await api.ok("GET", "suggestions"))["suggestions"]] == [sid]
    assert on_disk(root) == DOC


async def test_list_parameters_are_validated(mcp_lab: LabServer, api: Api, root: Path) -> None:
    for params, argument in (
        ({"status": "opened"}, "status"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"limit": "1.5"}, "limit"),
        ({"path": ""}, "path"),
    ):
        body = assert_error(await api.get("suggestions", **params), 400, "INVALID_ARGUMENT")
        assert body["argument"] == argument, params
    r = await api.http.get(api.url("suggestions?limit=1&limit=2"), headers=mcp_lab.auth())
    assert assert_error(r, 400, "INVALID_ARGUMENT")["argument"] == "limit"
    # A path outside the workspace names no document: nothing matches, nothing is read.
    assert (await api.ok("GET", "suggestions", path="../../etc/passwd", status="all"))["count"] == 0


async def test_diff_is_null_once_the_base_text_is_gone(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "beta", "BETA")
    await api.ok("POST", f"suggestions/{sid}/reject")
    assert (await api.ok("GET", f"suggestions/{sid}"))["diff"] is not None
    # A decided suggestion's base text may be pruned; the record stays readable.
    assert mcp_lab.extension.services.reviews.store.prune_texts() >= 1
    detail = await api.ok("GET", f"suggestions/{sid}")
    assert (detail["diff"], detail["status"]) == (None, "rejected")
