#!/usr/bin/env python
"""What the events stream costs everyone else: an unrelated ``status`` call's latency while
50 clients open ``GET mcp-lab/api/events`` at once, and while large events go out.

Issue 12, finding 5: 50 clients opening the stream with a replay of ~250 suggestions of
20-50 KB held ``status`` up to 4.1 s (25 ms median); four 3.5 MB suggestions to 50 live
subscribers, 1.37 s. One real ``jupyter server`` per source tree (``PYTHONPATH=TREE``, as
``latency_trees.py``), approval ``suggest``; an SDK client stages the suggestions. Per
round and tree (rotated, so the machine's drift hits every tree alike):

* **replay**: 250 pending suggestions of 30 KB; 50 streams open at once with
  ``Last-Event-ID: 0`` (a position: the whole buffer is after it), each read until its
  opening is over (all 250 replayed, or a ``resync``);
* **new**: the same with 50 streams that give no position (an EventSource's first open);
* **live**: 50 streams open and idle; an agent stages four suggestions of 3.5 MB; each
  stream is read until it has all four.

Meanwhile a client in its own thread calls ``status`` back to back: its latencies (median,
max) and how long the 50 streams took are the figures. ::

    .venv/bin/python benchmarks/events.py                       # this tree, 3 rounds
    git archive <commit> | tar -x -C /tmp/before
    .venv/bin/python benchmarks/events.py /tmp/before .         # ~2-4 min
    .venv/bin/python benchmarks/events.py --json out.json .
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks import latency as bench  # noqa: E402
from benchmarks._common import open_client  # noqa: E402

STREAMS = 50
REPLAYED = 250
REPLAYED_SIZE = 30_000
LIVE = 4
LIVE_SIZE = 3_500_000


class Sampler:
    """``status`` called back to back from a thread of its own until ``stop()``."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url, self.headers = url, headers
        self.latencies: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._thread.start()

    async def _run(self) -> None:
        async with httpx.AsyncClient(timeout=60) as http:
            while not (self._stop.is_set() and self.latencies):  # at least one call
                t0 = time.perf_counter()
                r = await http.get(self.url, headers=self.headers)
                r.raise_for_status()
                self.latencies.append(time.perf_counter() - t0)

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join(120)
        return self.latencies


async def read_stream(
    http: httpx.AsyncClient, url: str, headers: dict[str, str], want: int, opened: asyncio.Event | None = None
) -> None:
    """Read one stream until ``want`` whole suggestion events arrived, or (opening streams,
    without ``opened``) until a resync says there will be no replay."""
    async with http.stream("GET", url, headers=headers) as r:
        r.raise_for_status()
        buf, scan, seen, latest = bytearray(), 0, 0, 0
        async for chunk in r.aiter_raw():
            buf += chunk
            while (end := buf.find(b"\n\n", scan)) >= 0:
                head = bytes(buf[: min(end, 64)])
                if opened is None and b"event: resync" in head:
                    return
                if head.startswith(b"event: stream"):
                    latest = json.loads(bytes(buf[buf.index(b"data: ") + 6 : end]))["latest"]
                    if opened is not None:
                        opened.set()
                if b"\nevent: suggestion" in head:
                    # Waiting for live ones, a replay (what older servers send first) does not count.
                    seen += opened is None or int(head[4 : head.index(b"\n")]) > latest
                del buf[: end + 2]
                scan = 0
            scan = max(0, len(buf) - 1)
            if seen >= want:
                return


async def scenario(side: bench.Side, name: str, streams: int, stage: Any = None) -> dict[str, float]:
    base = side.ready_url.removesuffix("api/status")
    url = base + "mcp-lab/api/events"
    limits = httpx.Limits(max_connections=streams + 5)
    async with httpx.AsyncClient(timeout=httpx.Timeout(300), limits=limits) as http:
        started = time.perf_counter()
        if name == "live":
            opened = [asyncio.Event() for _ in range(streams)]
            tasks = [asyncio.create_task(read_stream(http, url, side.headers, LIVE, o)) for o in opened]
            await asyncio.gather(*(o.wait() for o in opened))
            sampler = Sampler(base + "mcp-lab/api/status", side.headers)
            started = time.perf_counter()
            await stage()
        else:
            headers = {**side.headers, **({"Last-Event-ID": "0"} if name == "replay" else {})}
            sampler = Sampler(base + "mcp-lab/api/status", side.headers)
            tasks = [asyncio.create_task(read_stream(http, url, headers, REPLAYED)) for _ in range(streams)]
        await asyncio.gather(*tasks)
        took = time.perf_counter() - started
        latencies = sampler.stop()
    return {
        "median_ms": statistics.median(latencies) * 1000,
        "max_ms": max(latencies) * 1000,
        "calls": len(latencies),
        "streams_s": took,
    }


async def run(args: argparse.Namespace, servers: bench.Servers) -> dict[str, dict[str, list[dict[str, float]]]]:
    sides = [servers.start_subject(name=f"tree{i}", pythonpath=t) for i, t in enumerate(args.trees)]
    await asyncio.gather(*(bench.wait_ready(s) for s in sides))
    results: dict[str, dict[str, list[dict[str, float]]]] = {str(t): {} for t in args.trees}
    async with contextlib.AsyncExitStack() as stack:
        agents = [await open_client(stack, s.url, s.headers, s.proc) for s in sides]

        async def replace(agent: Any, path: str, count: int, size: int) -> None:
            (servers.tmp / f"tree{agents.index(agent)}-root" / path).write_text(
                "# Doc\n\n" + "".join(f"Part {i}: old.\n\n" for i in range(count))
            )
            edit = {"op": "find_replace", "find": "old.", "replace": "new " + "x" * size + ".", "match": "all"}
            result = await agent.call_tool("document", {"action": "edit", "path": path, "edits": [edit]})
            assert not result.is_error, result

        for agent in agents:
            await replace(agent, "many.md", REPLAYED, REPLAYED_SIZE)
        order = list(range(len(sides)))
        for name in ("replay", "new", "live"):
            for r in range(args.rounds):
                turn = order[r % len(order) :] + order[: r % len(order)]
                for i in turn[::-1] if r % 2 else turn:
                    agent = agents[i]

                    async def stage(agent: Any = agent, r: int = r) -> None:
                        await replace(agent, f"big{r}.md", LIVE, LIVE_SIZE)

                    figures = await scenario(sides[i], name, args.streams, stage)
                    results[str(args.trees[i])].setdefault(name, []).append(figures)
                    print(f"{name:6} tree {i}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()), flush=True)
    return results


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("trees", nargs="*", type=lambda s: Path(s).resolve(), help="source trees (default: this one)")
    p.add_argument("--rounds", type=int, default=3, help="rounds per scenario (default 3)")
    p.add_argument("--streams", type=int, default=STREAMS, help=f"streams per scenario (default {STREAMS})")
    p.add_argument("--json", type=Path, help="also write the figures here")
    args = p.parse_args()
    args.trees = args.trees or [REPO]

    servers = bench.Servers()
    try:
        results = asyncio.run(run(args, servers))
    finally:
        servers.close()
    summary: dict[str, Any] = {}
    for tree, by_name in results.items():
        for name, rounds in by_name.items():
            summary.setdefault(tree, {})[name] = {
                key: statistics.median(r[key] for r in rounds) for key in ("median_ms", "max_ms", "streams_s")
            }
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
