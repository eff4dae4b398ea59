"""Suggestions and approval through the lab surface (in-process MCP client, real files, real SQLite).

The person's side is the ``Review`` service (what the REST API and the panel call); the
agent's side is the MCP tools. Under the default ``suggest`` policy an agent's edits
are staged, whatever mode it asks for.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.ops.context import Services
from tests.helpers import make_services

DOC = "# Title\n\nAlpha one.\n\nBeta two.\n\nGamma three.\n"


@pytest.fixture
def lab(ops_client: Any) -> tuple[Services, Any, Path]:
    services, open_tools = ops_client(approval="suggest")
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    return services, open_tools, root


def anchored(target: str, text: str) -> dict[str, Any]:
    return {"op": "anchored", "text": target, "replacement": text}


async def test_apply_under_the_suggest_policy_is_staged_and_accept_applies_it(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok(
            "document", "edit", path="doc.md", edits=[anchored("Beta two.", "Beta 2.")], rationale="digits"
        )
        assert (r["applied"], r["mode"], r["revision"]) == (False, "suggest", revision_of(DOC))
        [sid] = r["suggestionIds"]
        assert (root / "doc.md").read_text() == DOC  # nothing touched yet
        listed = await tools.ok("review", "list", path="doc.md")
        [s] = listed["suggestions"]
        assert (s["id"], s["kind"], s["original"], s["new"]) == (sid, "replace", "two", "2")
        assert (s["status"], s["rationale"], s["lineStart"], s["lineEnd"]) == ("pending", "digits", 5, 5)
        assert s["author"] == "pytest-client" or s["author"]  # the MCP client's name
        accepted = await services.reviews.accept(sid, by="person")
    assert accepted.status == "accepted"
    new = DOC.replace("Beta two.", "Beta 2.")
    assert (root / "doc.md").read_text() == new
    assert accepted.result_revision == revision_of(new)
    [cp] = services.reviews.store.list_checkpoints("doc.md")
    assert (cp.source, cp.suggestion_id, cp.old, cp.new) == ("accepted", sid, "two", "2")


async def test_reject_leaves_no_trace(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "write", path="doc.md", content="gone\n", mode="apply")
        [sid] = r["suggestionIds"]
        rejected = await services.reviews.reject(sid, by="person")
        assert rejected.status == "rejected"
        read = await tools.ok("document", "read", path="doc.md")
        assert (read["content"], read["dirty"]) == (DOC, False)
        undo = await tools.fail("document", "undo", path="doc.md")  # no history entry to undo
        assert undo["error"] == "NOT_FOUND"
    assert (root / "doc.md").read_text() == DOC
    assert services.reviews.store.list_checkpoints("doc.md") == []


async def test_a_person_edit_elsewhere_is_mapped_through(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "edit", path="doc.md", edits=[anchored("Gamma three.", "Gamma 3.")])
        [sid] = r["suggestionIds"]
    person = DOC.replace("# Title\n", "# A much longer title\n\nA new first paragraph.\n")
    (root / "doc.md").write_text(person)
    s = await services.reviews.accept(sid, by="person")
    assert s.status == "accepted"
    assert (root / "doc.md").read_text() == person.replace("Gamma three.", "Gamma 3.")


async def test_a_conflicting_edit_makes_a_conflict_and_changes_nothing(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")])
        [sid] = r["suggestionIds"]
    person = DOC.replace("Alpha one.", "Alpha uno.")
    (root / "doc.md").write_text(person)
    s = await services.reviews.accept(sid, by="person")
    assert s.status == "conflict" and s.reason
    assert (root / "doc.md").read_text() == person
    assert services.reviews.store.list_checkpoints("doc.md") == []


async def test_accept_all_on_50_interleaved_suggestions_is_one_undo_step(ops_client: Any) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = services.settings.root_dir
    text = "".join(f"line {i} text\n" for i in range(100))
    (root / "big.md").write_text(text)
    ids = []
    async with open_tools("lab", name="agent-a") as a, open_tools("lab", name="agent-b") as b:
        evens = list(range(0, 100, 2))
        random.Random(7).shuffle(evens)  # staged out of document order
        for n, k in enumerate(evens):  # two agents, interleaved
            agent = a if n % 2 else b
            r = await agent.ok("document", "edit", path="big.md", edits=[anchored(f"line {k} text", f"LINE {k} text")])
            ids += r["suggestionIds"]
        assert len(set(ids)) == 50
        result = await services.reviews.accept_all(by="person", path="big.md")
        assert (len(result.accepted), result.conflicts) == (50, [])
        expected = "".join(f"{'LINE' if i % 2 == 0 else 'line'} {i} text\n" for i in range(100))
        assert (root / "big.md").read_text() == expected
    doc = services.docs.find("big.md")
    assert doc is not None
    await services.docs.undo(doc, save=True)  # the person's undo: one step takes back all 50
    assert (root / "big.md").read_text() == text


async def test_suggestions_survive_a_restart(tmp_path: Path) -> None:
    from mcp.client import Client

    from jupyter_mcp_lab.surfaces import PROFILES, build_server

    services = make_services(tmp_path, approval="suggest")
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    async with Client(build_server(PROFILES["lab"], services)) as client:
        r = await client.call_tool(
            "document", {"action": "edit", "path": "doc.md", "edits": [anchored("Alpha one.", "Alpha 1.")]}
        )
        [sid] = r.structured_content["suggestionIds"]
    services.close()
    again = make_services(tmp_path, approval="suggest")  # a new server process, same data_dir
    [s] = again.reviews.pending("doc.md")
    assert s.id == sid
    assert (await again.reviews.accept(sid, by="person")).status == "accepted"
    assert (root / "doc.md").read_text() == DOC.replace("Alpha one.", "Alpha 1.")
    again.close()


async def test_an_agent_cannot_accept_but_may_withdraw_its_own(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools("lab", name="a") as a, open_tools("lab", name="b") as b:
        r = await a.ok("document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")])
        [sid] = r["suggestionIds"]
        refused = await a.fail("review", "accept", suggestionIds=[sid])
        assert refused["error"] == "APPROVAL_REQUIRED"
        other = await b.fail("review", "reject", suggestionIds=[sid])  # not b's to withdraw
        assert other["error"] == "APPROVAL_REQUIRED"
        assert services.reviews.get(sid).status == "pending"
        done = await a.ok("review", "reject", suggestionIds=[sid])
        assert done["suggestions"][0]["status"] == "rejected"
    assert (root / "doc.md").read_text() == DOC


async def test_a_grant_lets_one_agent_apply_directly_with_a_checkpoint(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools("lab", name="trusted") as t, open_tools("lab", name="other") as o:
        services.reviews.grant("doc.md", "trusted", "client", minutes=5, by="person")
        r = await t.ok("document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")])
        assert (r["applied"], r["mode"]) == (True, "apply") and r["checkpointId"]
        staged = await o.ok("document", "edit", path="doc.md", edits=[anchored("Beta two.", "Beta 2.")])
        assert staged["applied"] is False  # the grant is for one agent only
        [cp] = services.reviews.store.list_checkpoints("doc.md")
        assert (cp.source, cp.id) == ("grant", r["checkpointId"])
        assert (root / "doc.md").read_text() == DOC.replace("Alpha one.", "Alpha 1.")
        # The trusted agent may decide suggestions on its document too.
        accepted = await t.ok("review", "accept", suggestionIds=staged["suggestionIds"])
        assert accepted["suggestions"][0]["status"] == "accepted"
        [g] = services.reviews.store.list_grants(active_at=0)
        services.reviews.revoke(g.id)
        again = await t.ok("document", "edit", path="doc.md", edits=[anchored("Gamma three.", "Gamma 3.")])
        assert again["applied"] is False


async def test_checkpoints_and_revert_under_the_auto_policy(ops_client: Any) -> None:
    services, open_tools = ops_client(approval="auto")
    root = services.settings.root_dir
    (root / "doc.md").write_text(DOC)
    async with open_tools() as tools:
        r1 = await tools.ok("document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")])
        r2 = await tools.ok("document", "edit", path="doc.md", edits=[anchored("Beta two.", "Beta 2.")])
        assert r1["applied"] and r2["applied"]
        cps = await tools.ok("review", "checkpoints", path="doc.md")
        assert [c["id"] for c in cps["checkpoints"]] == [r2["checkpointId"], r1["checkpointId"]]  # newest first
        reverted = await tools.ok("review", "revert", checkpointId=r1["checkpointId"])
        assert reverted["checkpoints"][0]["source"] == "revert"
        assert (root / "doc.md").read_text() == DOC.replace("Beta two.", "Beta 2.")
        again = await tools.fail("review", "revert", checkpointId=r1["checkpointId"])
        assert again["error"] == "CONFLICT"
        # A change edited since cannot be reverted blindly.
        (root / "doc.md").write_text(DOC.replace("Beta two.", "Beta X."))
        blocked = await tools.fail("review", "revert", checkpointId=r2["checkpointId"])
        assert blocked["error"] == "CONFLICT"
    assert (root / "doc.md").read_text() == DOC.replace("Beta two.", "Beta X.")


async def test_wait_returns_when_a_person_decides_and_reports_progress(lab: Any) -> None:
    services, open_tools, _ = lab
    progress: list[Any] = []

    async def on_progress(progress_value: float, total: float | None, message: str | None) -> None:
        progress.append((progress_value, total, message))

    async with open_tools() as tools:
        r = await tools.ok("document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")])
        [sid] = r["suggestionIds"]
        timed_out = await tools.ok("review", "wait", suggestionIds=[sid], seconds=0.2)
        assert timed_out["decided"] is False

        async def person() -> None:
            await asyncio.sleep(0.3)
            await services.reviews.accept(sid, by="person")

        task = asyncio.create_task(person())
        result = await tools.client.call_tool(
            "review", {"action": "wait", "seconds": 10}, progress_callback=on_progress
        )
        await task
    assert result.structured_content["decided"] is True
    assert result.structured_content["suggestions"][0]["status"] == "accepted"
    assert progress and progress[0][1] == 1


async def test_eight_agents_staging_while_a_person_accepts_lose_nothing(ops_client: Any) -> None:
    services, open_tools = ops_client(approval="suggest")
    root = services.settings.root_dir
    text = "".join(f"agent {a} line {k}\n" for a in range(8) for k in range(10))
    (root / "doc.md").write_text(text)
    staged: list[str] = []

    async def agent(a: int) -> None:
        async with open_tools("lab", name=f"agent-{a}") as tools:
            for k in range(10):
                r = await tools.ok(
                    "document",
                    "edit",
                    path="doc.md",
                    edits=[anchored(f"agent {a} line {k}\n", f"agent {a} LINE {k}\n")],
                )
                staged.extend(r["suggestionIds"])
                await asyncio.sleep(0)

    async def person() -> None:
        while len(staged) < 80 or services.reviews.pending("doc.md"):
            for s in services.reviews.pending("doc.md")[:3]:
                await services.reviews.accept(s.id, by="person")
            await asyncio.sleep(0.001)

    await asyncio.gather(*(agent(a) for a in range(8)), person())
    final = {s.id: s.status for s in services.reviews.store.list(path="doc.md")}
    assert len(staged) == 80 and set(final) == set(staged)
    assert set(final.values()) == {"accepted"}  # every one ended in exactly one final state
    assert (root / "doc.md").read_text() == text.replace(" line ", " LINE ")


async def test_an_agents_undo_is_staged_under_the_suggest_policy(lab: Any) -> None:
    services, open_tools, root = lab
    async with open_tools() as tools:
        r = await tools.ok("document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")])
        await services.reviews.accept(r["suggestionIds"][0], by="person")
        undo = await tools.ok("document", "undo", path="doc.md")
        assert undo["applied"] is False and len(undo["suggestionIds"]) == 1
        assert (root / "doc.md").read_text() == DOC.replace("Alpha one.", "Alpha 1.")
        [s] = services.reviews.pending("doc.md")
        assert (s.original, s.new, s.operation) == ("1", "one", "undo")


async def test_overwriting_a_file_with_save_as_is_a_suggestion_on_that_file(lab: Any) -> None:
    services, open_tools, root = lab
    (root / "other.md").write_text("Other file.\n")
    async with open_tools() as tools:
        tab = await tools.ok("workspace", "open", filePath="doc.md")
        r = await tools.ok("workspace", "save_as", tabId=tab["tabId"], filePath="other.md", overwrite=True)
        assert (r["applied"], r["filePath"]) == (False, "other.md") and len(r["suggestionIds"]) == 1
        assert (root / "other.md").read_text() == "Other file.\n"
        [s] = services.reviews.pending("other.md")
        assert (s.start, s.operation) == (0, "workspace.save_as")
        await services.reviews.accept(s.id, by="person")
        # Writing a new file destroys nothing: no approval needed.
        fresh = await tools.ok("workspace", "save_as", tabId=tab["tabId"], filePath="new.md")
        assert fresh["applied"] is True
    assert (root / "other.md").read_text() == DOC
    assert (root / "new.md").read_text() == DOC


async def test_discarding_unsaved_work_on_close_is_a_suggestion(lab: Any) -> None:
    services, open_tools, _ = lab
    async with open_tools("lab", name="writer") as tools:
        tab = await tools.ok("workspace", "open", filePath="doc.md")
        grant = services.reviews.grant("doc.md", "writer", "client", minutes=5, by="person")
        await tools.ok("document", "edit", tabId=tab["tabId"], edits=[anchored("Alpha one.", "Alpha 1.")])
        services.reviews.revoke(grant.id)
        assert (await tools.ok("workspace", "close", tabId=tab["tabId"]))["reason"] == "DIRTY"
        r = await tools.ok("workspace", "close", tabId=tab["tabId"], force=True)
        assert (r["closed"], r["reason"]) == (False, "SUGGESTED")
        [sid] = r["suggestionIds"]
        s = services.reviews.get(sid)
        assert (s.original, s.new, s.operation) == ("1", "one", "workspace.close")
        await services.reviews.accept(sid, by="person")
        assert (await tools.ok("workspace", "close", tabId=tab["tabId"]))["closed"] is True


async def test_checkpoints_keep_diffs_and_the_oldest_are_pruned(
    ops_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jupyter_mcp_lab.core.suggestions import Retention, records

    monkeypatch.setattr(records, "PRUNE_EVERY", 1)
    services, open_tools = ops_client(approval="auto")
    store = services.reviews.store
    store.retention = Retention(max_count=3)
    root = services.settings.root_dir
    words = ["one", "two", "three", "four", "five"]
    (root / "doc.md").write_text("".join(f"{w}\n" for w in words))
    async with open_tools() as tools:
        ids = []
        for w in words:
            r = await tools.ok("document", "edit", path="doc.md", edits=[anchored(f"{w}\n", f"{w.upper()}\n")])
            ids.append(r["checkpointId"])
        assert [cp.id for cp in store.list_checkpoints("doc.md")] == ids[:-4:-1]  # the three newest
        assert all(store.get_text(cp.after_revision) is None for cp in store.list_checkpoints())  # no texts
        pruned = await tools.fail("review", "revert", checkpointId=ids[0])
        assert pruned["error"] == "NOT_FOUND"
        # Found by its diff's context though the document changed twice since.
        assert (await tools.ok("review", "revert", checkpointId=ids[2]))["count"] == 1
    assert (root / "doc.md").read_text() == "ONE\nTWO\nthree\nFOUR\nFIVE\n"


async def test_checkpoints_keep_the_agents_rationale(lab: Any) -> None:
    # Applied directly (under a grant), accepted together: a reviewer reading a checkpoint
    # reads why it was made.
    services, open_tools, _ = lab
    grant = services.reviews.grant("doc.md", "writer", "client", minutes=5, by="person")
    async with open_tools("lab", name="writer") as tools:
        await tools.ok(
            "document", "edit", path="doc.md", edits=[anchored("Alpha one.", "Alpha 1.")], rationale="digits"
        )
        [cp] = services.reviews.store.list_checkpoints("doc.md")
        assert (cp.source, cp.rationale) == ("grant", "digits")
        services.reviews.revoke(grant.id)
        for target, text, why in (("Beta two.", "Beta 2.", "shorter"), ("Gamma three.", "Gamma 3.", "same style")):
            await tools.ok("document", "edit", path="doc.md", edits=[anchored(target, text)], rationale=why)
    await services.reviews.accept_all("person", "doc.md")
    latest = services.reviews.store.list_checkpoints("doc.md")[0]
    assert (latest.source, latest.rationale) == ("accepted", "shorter; same style")


async def test_review_calls_may_name_one_document_by_tab(lab: Any) -> None:
    services, open_tools, root = lab
    (root / "other.md").write_text("Other.\n")
    async with open_tools("lab", name="writer") as tools:
        tab = (await tools.ok("workspace", "open", filePath="doc.md"))["tabId"]
        r = await tools.ok("document", "edit", tabId=tab, edits=[anchored("Beta two.", "Beta 2.")])
        [sid] = r["suggestionIds"]
        other = await tools.ok("document", "edit", path="other.md", edits=[anchored("Other.", "Else.")])
        # One document: where each suggestion is in its text now, and that text's revision.
        (root / "doc.md").write_text("Preface.\n\n" + DOC)
        listed = await tools.ok("review", "list", tabId=tab)
        [s] = listed["suggestions"]
        at = ("Preface.\n\n" + DOC).index("two")
        assert (s["id"], s["currentStart"], s["currentEnd"]) == (sid, at, at + 3)
        assert listed["revision"] == revision_of("Preface.\n\n" + DOC)
        assert "currentStart" not in (await tools.ok("review", "list"))["suggestions"][0]  # all documents
        # Decisions keep to the document named.
        wrong = await tools.fail("review", "accept", suggestionIds=other["suggestionIds"], tabId=tab)
        assert (wrong["error"], wrong["suggestionId"]) == ("NOT_FOUND", other["suggestionIds"][0])
        refused = await tools.fail("review", "accept_all")  # default: the focused tab
        assert (refused["error"], refused["suggestionId"]) == ("APPROVAL_REQUIRED", sid)
        assert "review wait" not in refused["message"]
        services.reviews.grant("doc.md", "writer", "client", minutes=5, by="person")
        done = await tools.ok("review", "accept_all", tabId=tab)
        assert [d["status"] for d in done["suggestions"]] == ["accepted"]
        assert done["revision"] == revision_of("Preface.\n\n" + DOC.replace("Beta two.", "Beta 2."))
        withdrawn = await tools.ok("review", "reject", suggestionIds=other["suggestionIds"])
        assert (withdrawn["count"], withdrawn["skipped"]) == (1, [])
        again = await tools.ok("review", "reject", suggestionIds=other["suggestionIds"])
        assert (again["count"], again["skipped"]) == (0, [{"id": other["suggestionIds"][0], "status": "rejected"}])
    assert (root / "other.md").read_text() == "Other.\n"
