"""Many agents and a person on one document at once, through the real server.

Eight MCP sessions (the official SDK client, each its own client name) each make ten
anchored edits on their own lines of one markdown file, all at the same time, under the
``suggest`` policy. Two of them hold a person's grant on the file: their edits apply at
once, and they accept the others' suggestions with the ``review`` tool. Meanwhile the
person accepts over the REST API, one by one and with accept-all, and now and then races
a granted agent for the very same suggestion.

Afterwards nothing is lost or doubled: the file has every edit exactly once; every
suggestion was accepted exactly once, and each "already decided" answer (CONFLICT) went
to an actor who lost a race for a suggestion another actor decided; the checkpoints,
replayed from the original text, give exactly the file (so every applied change has one).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.surfaces.caller import LOCAL_USER

from ..conftest import LabServer, Tools
from .api.conftest import Api, on_disk

AGENTS = [f"agent-{n}" for n in range(8)]
GRANTED = AGENTS[:2]
EDITS = 10
PATH = "shared.md"
PERSON = "person"


def line(agent: int, i: int) -> str:
    return f"L{agent}-{i:02d}: "


def edited(agent: int) -> str:
    return f"done by {AGENTS[agent]}"


ORIGINAL = "# Shared\n\n" + "".join(line(a, i) + "pending\n" for i in range(EDITS) for a in range(len(AGENTS)))
EXPECTED = "# Shared\n\n" + "".join(line(a, i) + edited(a) + "\n" for i in range(EDITS) for a in range(len(AGENTS)))


@dataclass
class Log:
    """Who did what: each agent's applied checkpoints and staged suggestions, and every
    decision attempt as (actor, suggestion id, outcome)."""

    staged: dict[str, str] = field(default_factory=dict)  # suggestion id -> agent
    applied: list[str] = field(default_factory=list)  # checkpoint ids of granted agents' edits
    decisions: list[tuple[str, str, str]] = field(default_factory=list)  # outcome: accepted | conflict | lost
    accept_calls: int = 0  # calls that applied at least one suggestion (one checkpoint each)
    races: int = 0


@pytest_asyncio.fixture
async def api(mcp_lab: LabServer) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(timeout=httpx.Timeout(30)) as http:
        yield Api(mcp_lab, http)


def _decided(log: Log, actor: str, suggestions: list[dict[str, Any]]) -> None:
    for s in suggestions:
        log.decisions.append((actor, s["id"], "accepted" if s["status"] == "accepted" else s["status"]))
    if any(s["status"] == "accepted" for s in suggestions):
        log.accept_calls += 1


async def agent_accepts(log: Log, name: str, tools: Tools, sid: str) -> None:
    """A granted agent accepts one suggestion with the review tool."""
    r = await tools.call("review", "accept", suggestionIds=[sid])
    payload = r.structured_content
    assert payload is not None
    if r.is_error:
        assert payload["error"] == "CONFLICT" and payload["suggestionId"] == sid, payload
        log.decisions.append((name, sid, "lost"))
    else:
        _decided(log, name, payload["suggestions"])


async def person_accepts(log: Log, api: Api, sid: str) -> None:
    r = await api.post(f"suggestions/{sid}/accept")
    if r.status_code == 409:
        assert r.json()["error"] == "CONFLICT", r.text
        log.decisions.append((PERSON, sid, "lost"))
    else:
        assert r.status_code == 200, r.text
        _decided(log, PERSON, [r.json()])


async def run_agent(log: Log, n: int, tools: Tools, rng: random.Random) -> None:
    name = AGENTS[n]
    for i in range(EDITS):
        anchored = {"op": "anchored", "text": "pending", "before": line(n, i), "replacement": edited(n)}
        r = await tools.ok("document", "edit", path=PATH, edits=[anchored], rationale=f"line {n}-{i}")
        if name in GRANTED:
            assert (r["mode"], r["applied"], r["suggestionIds"]) == ("apply", True, None), r
            log.applied.append(r["checkpointId"])
            # ... and accept one or two of the others' suggestions, picked from what is pending now.
            pending = await tools.ok("review", "list", path=PATH, status="pending")
            ids = [s["id"] for s in pending["suggestions"]]
            for sid in rng.sample(ids, min(len(ids), rng.randint(1, 2))):
                await agent_accepts(log, name, tools, sid)
        else:
            assert (r["mode"], r["applied"]) == ("suggest", False), r
            [sid] = r["suggestionIds"]
            log.staged[sid] = name
        await asyncio.sleep(rng.random() * 0.01)


async def run_person(log: Log, api: Api, granted: dict[str, Tools], done: asyncio.Event, rng: random.Random) -> None:
    """Accept what is pending until the agents are done and nothing is left: one by one, with
    accept-all every few rounds, and sometimes in a race with a granted agent."""
    rounds = 0
    while True:
        finished = done.is_set()  # read before listing: whatever was staged by then is listed
        pending = (await api.ok("GET", "suggestions", path=PATH, status="pending"))["suggestions"]
        if finished and not pending:
            return
        rounds += 1
        if rounds % 4 == 0:
            result = await api.ok("POST", "suggestions/accept-all", {"path": PATH})
            _decided(log, PERSON, result["accepted"] + result["conflicts"])
        elif pending and rounds % 3 == 0:
            # The person and a granted agent decide the same suggestion at the same moment.
            sid = pending[0]["id"]
            name = rng.choice(GRANTED)
            await asyncio.gather(person_accepts(log, api, sid), agent_accepts(log, name, granted[name], sid))
            log.races += 1
        else:
            for s in pending[:3]:
                await person_accepts(log, api, s["id"])
        await asyncio.sleep(0.005)


def replay(checkpoints: list[dict[str, Any]], text: str) -> str:
    """Apply the checkpoints to ``text`` in the order their revisions chain (each one's
    before revision is the text so far); every checkpoint must be used exactly once."""
    by_before = {cp["beforeRevision"]: cp for cp in checkpoints}
    assert len(by_before) == len(checkpoints), "two checkpoints start from the same text: one change is lost"
    for _ in checkpoints:
        cp = by_before.pop(revision_of(text))
        start, old = cp["start"], cp["old"]
        assert text[start : start + len(old)] == old, cp
        text = text[:start] + cp["new"] + text[start + len(old) :]
        assert revision_of(text) == cp["afterRevision"], cp
    return text


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}])
async def test_eight_agents_and_a_person_lose_no_update(mcp_lab: LabServer, mcp_client: Any, api: Api) -> None:
    started = time.monotonic()
    root = Path(mcp_lab.serverapp.root_dir)
    (root / PATH).write_text(ORIGINAL, encoding="utf-8")
    for name in GRANTED:
        body = {"scope": PATH, "agent": name, "agentKind": "client", "minutes": 10}
        await api.ok("POST", "grants", body, expect=201)
    log = Log()
    rng = random.Random(20260728)
    async with AsyncExitStack() as stack:
        # Opened one after another (a session's context belongs to the task that opened it);
        # used all at once below.
        clients = [await stack.enter_async_context(mcp_client("lab", client_name=name)) for name in AGENTS]
        tools = [Tools(c) for c in clients]
        done = asyncio.Event()
        person = asyncio.create_task(
            run_person(log, api, {n: tools[AGENTS.index(n)] for n in GRANTED}, done, random.Random(rng.random()))
        )
        await asyncio.gather(*(run_agent(log, n, t, random.Random(rng.random())) for n, t in enumerate(tools)))
        done.set()
        await person

    # No lost update: every edit is in the file exactly once (and in the server's document).
    assert on_disk(root, PATH) == EXPECTED
    assert all(EXPECTED.count(line(a, i)) == 1 for a in range(len(AGENTS)) for i in range(EDITS))

    # Every suggestion is in one final state: accepted, by exactly one actor.
    everything = await api.ok("GET", "suggestions", path=PATH, status="all", limit=1000)
    final = {s["id"]: s for s in everything["suggestions"]}
    assert len(log.staged) == (len(AGENTS) - len(GRANTED)) * EDITS == 60
    assert set(final) == set(log.staged)
    assert {s["status"] for s in final.values()} == {"accepted"}
    assert everything["counts"] == {PATH: {"accepted": 60}}
    assert {sid: final[sid]["author"] for sid in final} == log.staged
    winners = [(actor, sid) for actor, sid, outcome in log.decisions if outcome == "accepted"]
    assert sorted(sid for _, sid in winners) == sorted(final)  # each accepted once, none twice
    for actor, sid in winners:
        assert final[sid]["decidedBy"] == (LOCAL_USER if actor == PERSON else actor)
    # "Already decided" (CONFLICT) only where another call decided the same one first (that
    # call may be the same actor's: a granted agent also races itself when the person's race
    # picks it). No suggestion ended as a conflict: edits on other lines map through.
    winner_of = dict((sid, actor) for actor, sid in winners)
    lost = [(actor, sid) for actor, sid, outcome in log.decisions if outcome == "lost"]
    assert all(sid in winner_of for _, sid in lost)
    attempts = [sid for _, sid, _ in log.decisions]
    assert all(attempts.count(sid) > 1 for _, sid in lost)
    assert {outcome for _, _, outcome in log.decisions} <= {"accepted", "lost"}
    assert len(log.decisions) == len(winners) + len(lost)
    assert log.races > 0 and any(actor in GRANTED for actor, _ in winners)

    # A checkpoint for every applied change: the granted agents' edits and each accepting
    # call; replayed from the original text they give the file, none left over.
    checkpoints = (await api.ok("GET", "checkpoints", path=PATH, limit=1000))["checkpoints"]
    sources = [cp["source"] for cp in checkpoints]
    assert sources.count("grant") == len(log.applied) == len(GRANTED) * EDITS
    assert {cp["id"] for cp in checkpoints if cp["source"] == "grant"} == set(log.applied)
    assert sources.count("accepted") == log.accept_calls
    assert len(checkpoints) == len(log.applied) + log.accept_calls
    assert replay(checkpoints, ORIGINAL) == EXPECTED
    assert time.monotonic() - started < 30
