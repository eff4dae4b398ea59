"""The activity log keeps whole arguments and answers, and the person's decisions as theirs.

Agents are the official MCP SDK client on a real server; the person is the REST API over
real HTTP, as the panel calls it. A filter for ``find_replace`` must find every such call,
however long the arguments before the op; an error keeps its message; each decision a person
makes (accept, reject, undo, accept all, reject all, revert, grant, revoke) is an entry with
``actor`` ``person``, refused ones with their error code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.activity import ActivityLog
from jupyter_mcp_lab.core.activity_text import (
    ARGUMENTS_LIMIT,
    LATER_LIMIT,
    RESULT_LIMIT,
    bounded_json,
    full_arguments,
    later_summary,
    result_summary,
)

from ...conftest import LabServer
from .conftest import Api, assert_error, suggest_replace


async def entries(api: Api, **query: Any) -> list[dict[str, Any]]:
    return (await api.ok("GET", "activity", limit=1000, **query))["entries"]


def test_bounds_keep_short_things_whole_and_cut_long_strings_first() -> None:
    small = {"path": "notes.md", "edits": [{"op": "find_replace", "find": "a", "replace": "b"}]}
    assert json.loads(full_arguments(small)) == small
    huge = {"rationale": "x" * 100_000, "edits": [{"op": "find_replace", "find": "y" * 5000, "replace": "z"}]}
    kept = full_arguments(huge)
    assert len(kept) <= ARGUMENTS_LIMIT
    parsed = json.loads(kept)  # still JSON: only the long strings were cut
    assert parsed["edits"][0]["op"] == "find_replace"
    assert parsed["rationale"].endswith("…(100000 chars)")
    # A long list keeps its first items and says how many there were.
    ids = json.loads(full_arguments({"ids": [f"sug-{i:06d}" for i in range(2000)]}))["ids"]
    assert ids[:2] == ["sug-000000", "sug-000001"] and ids[-1] == "…(2000 items)"
    # Too many keys to fit even cut: the text itself is cut at the limit.
    many = {f"key-{i:06d}": i for i in range(2000)}
    assert len(bounded_json(many, ARGUMENTS_LIMIT)) == ARGUMENTS_LIMIT
    assert bounded_json(many, ARGUMENTS_LIMIT).endswith("…")


def test_a_middling_answer_is_summarised_when_first_read_and_the_same() -> None:
    def answer(n: int) -> tuple[dict[str, Any], str]:
        value = {"cells": [{"id": f"c{i}", "source": "x = 1\n" * 3} for i in range(n)], "total": n}
        return value, json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    small, small_text = answer(2)
    assert later_summary(small, small_text) == small_text  # short: the text itself, at once
    big, big_text = answer(400)
    assert len(big_text) > LATER_LIMIT and later_summary(big, big_text) == result_summary(big, big_text)
    middling, text = answer(40)
    assert RESULT_LIMIT < len(text) <= LATER_LIMIT
    made = later_summary(middling, text)
    assert callable(made)  # nothing cut yet
    log = ActivityLog()
    entry = log.record(
        profile="lab",
        tool="notebook.read",
        client="a",
        user="u",
        session_id="s",
        arguments="",
        status="ok",
        duration_ms=1.0,
        result=made,
    )
    assert entry.result == result_summary(middling, text) and len(entry.result) <= RESULT_LIMIT
    assert entry.answer == entry.result  # made once, then kept
    assert entry.to_json()["result"] == entry.result


async def test_find_replace_calls_are_found_whatever_comes_before_the_op(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path
) -> None:
    phrase = "one two three four five. " * 8  # 200 characters
    (root / "long.md").write_text("# Long\n\n" + phrase * 2 + "\n")
    rationale = "Because " + "it reads better " * 40
    words = ("one", "two", "three", "four", "five")
    async with agent(client_name="editor") as tools:
        for word in words:
            # The op last, after a long find text: a one-line summary of the call cuts it off.
            new = phrase.replace(word, word.upper())
            edit = {"find": phrase, "replace": new, "match": "first", "op": "find_replace"}
            await tools.ok("document", "edit", path="long.md", rationale=rationale, edits=[edit])
        missing = await tools.fail("document", "read", path="missing.md")
    edits = [e for e in await entries(api, tool="document.edit")]
    assert len(edits) == 5
    assert all(e["actor"] == "agent" for e in edits)
    # The summary lost the op; the full arguments keep it, and all of the rest.
    assert not any("find_replace" in e["arguments"] for e in edits)
    kept = [json.loads(e["fullArguments"])["edits"][0] for e in edits]
    assert [k["op"] for k in kept] == ["find_replace"] * 5
    assert [k["replace"] for k in kept] == [phrase.replace(w, w.upper()) for w in words]
    assert all(json.loads(e["fullArguments"])["rationale"] == rationale for e in edits)
    # The answer, its long parts cut so that its keys show.
    assert all(json.loads(e["result"])["suggestionIds"] for e in edits)
    assert all(len(e["result"]) <= RESULT_LIMIT for e in await entries(api))
    [failed] = await entries(api, status="error")
    assert failed["result"] == f"NOT_FOUND: {missing['message']}"


async def test_the_persons_decisions_are_theirs(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent(client_name="writer") as tools:
        alpha, beta, gamma = [(await suggest_replace(tools, w, w.upper()))[0] for w in ("alpha", "beta", "gamma")]
    calls = len(await entries(api))

    await api.ok("POST", f"suggestions/{alpha}/reject")
    reopened = await api.ok("POST", f"suggestions/{alpha}/reopen")
    assert reopened["status"] == "pending" and reopened["decided"] is None
    await api.ok("POST", f"suggestions/{alpha}/accept")
    assert_error(await api.post(f"suggestions/{alpha}/accept"), 409, "CONFLICT")  # refused: logged too
    await api.ok("POST", "suggestions/reject-all", {"ids": [beta]})
    await api.ok("POST", "suggestions/accept-all", {"ids": [gamma]})
    [cp] = (await api.ok("GET", "checkpoints"))["checkpoints"][:1]
    await api.ok("POST", f"checkpoints/{cp['id']}/revert")
    grant = await api.ok(
        "POST", "grants", {"scope": "notes.md", "agent": "writer", "agentKind": "client", "minutes": 60}, expect=201
    )
    await api.ok("DELETE", f"grants/{grant['id']}")

    logged = (await entries(api))[calls:]
    assert [(e["tool"], e["status"]) for e in logged] == [
        ("suggestion.reject", "ok"),
        ("suggestion.reopen", "ok"),
        ("suggestion.accept", "ok"),
        ("suggestion.accept", "CONFLICT"),
        ("suggestions.reject_all", "ok"),
        ("suggestions.accept_all", "ok"),
        ("checkpoint.revert", "ok"),
        ("grant.create", "ok"),
        ("grant.revoke", "ok"),
    ]
    assert all(e["actor"] == "person" and e["session"] == "" and e["user"] and e["client"] for e in logged)
    assert json.loads(logged[0]["fullArguments"]) == {"id": alpha, "action": "reject"}
    assert json.loads(logged[0]["result"])["status"] == "rejected"
    assert logged[3]["result"].startswith("CONFLICT: ")
    assert json.loads(logged[4]["fullArguments"]) == {"ids": [beta]}
    assert json.loads(logged[7]["fullArguments"])["minutes"] == 60
    # The filters work on them as on agents' calls; the status page's agents leave them out.
    assert [e["tool"] for e in await entries(api, tool="grant")] == ["grant.create", "grant.revoke"]
    status = await api.ok("GET", "status")
    assert [a["client"] for a in status["agents"]] == ["writer"]


async def test_reopen_route(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent(client_name="writer") as tools:
        [sid] = await suggest_replace(tools, "alpha", "ALPHA")
    assert_error(await api.post(f"suggestions/{sid}/reopen"), 409, "CONFLICT")  # pending: nothing to undo
    await api.ok("POST", f"suggestions/{sid}/reject")
    again = await api.ok("POST", f"suggestions/{sid}/reopen")
    assert again["status"] == "pending"
    assert [s["id"] for s in (await api.ok("GET", "suggestions"))["suggestions"]] == [sid]
    assert_error(await api.post(f"suggestions/{sid}/reopen"), 409, "CONFLICT")  # once
    assert_error(await api.post("suggestions/sug-nope/reopen"), 404, "NOT_FOUND")
    assert_error(await api.get(f"suggestions/{sid}/reopen"), 405, "METHOD_NOT_ALLOWED")
