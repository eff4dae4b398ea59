#!/usr/bin/env python
"""The trivial call of ``latency.py`` against two or more source trees' Jupyter subjects in one run.

What a change to the hot path buys, measured as ``latency.py`` measures, but with each
subject running the ``jupyter_mcp_lab`` package of its own tree (``PYTHONPATH=TREE``): the
floor (from this tree) and one ``jupyter server`` per tree, one warmed session each, blocks
of sequential ``session(action="get_state")`` calls in rotated order (each round starts
with the next side and every other round runs backwards), so the machine's drift hits
every side alike. Per side: p50 and the server's CPU per call, each also as a ratio to
the floor. A tree is any checkout of the project, e.g. ``git worktree add /tmp/before HEAD~1``
(or ``git archive <commit> | tar -x -C /tmp/before``)::

    .venv/bin/python benchmarks/latency_trees.py /tmp/before .   # ~60-90 s
    .venv/bin/python benchmarks/latency_trees.py --rounds 40 --calls 100 /tmp/before .

With one tree given twice, the run is an A/A test: the spread of its two ratios is the
noise to expect.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks import latency as bench  # noqa: E402
from benchmarks._common import open_client, percentile  # noqa: E402


def start_tree_subject(servers: bench.Servers, index: int, tree: Path) -> bench.Side:
    """A ``jupyter server`` with the extension, importing ``jupyter_mcp_lab`` from ``tree``."""
    return servers.start_subject(name=f"tree{index}", pythonpath=tree)


async def run(args: argparse.Namespace, servers: bench.Servers) -> list[tuple[str, list[float], float]]:
    sides = [servers.start_floor()] + [start_tree_subject(servers, i, t) for i, t in enumerate(args.trees)]
    labels = ["floor"] + [f"{i}: {t}" for i, t in enumerate(args.trees)]
    await asyncio.gather(*(bench.wait_ready(s) for s in sides))
    samples: list[list[float]] = [[] for _ in sides]
    cpu = [0.0 for _ in sides]
    async with contextlib.AsyncExitStack() as stack:
        for side in sides:
            side.clients = [await open_client(stack, side.url, side.headers, side.proc)]
            for _ in range(args.warmup):
                await bench.call(side.clients[0])
        order = list(range(len(sides)))
        clock = time.perf_counter
        for r in range(args.rounds):
            turn = order[r % len(order) :] + order[: r % len(order)]
            for i in turn[::-1] if r % 2 else turn:
                client, proc = sides[i].clients[0], sides[i].proc
                cpu0 = bench.cpu_seconds(proc)
                for _ in range(args.calls):
                    t0 = clock()
                    await bench.call(client)
                    samples[i].append(clock() - t0)
                cpu[i] += bench.cpu_seconds(proc) - cpu0
    return [(label, s, c / len(s)) for label, s, c in zip(labels, samples, cpu, strict=True)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("trees", nargs="+", type=lambda s: Path(s).resolve(), help="source trees (checkouts)")
    p.add_argument("--rounds", type=int, default=20, help="rotated rounds (default 20)")
    p.add_argument("--calls", type=int, default=100, help="sequential calls per block (default 100)")
    p.add_argument("--warmup", type=int, default=100, help="calls per side before measuring")
    args = p.parse_args()
    for tree in args.trees:
        if not (tree / "jupyter_mcp_lab" / "__init__.py").exists():
            p.error(f"{tree} is not a checkout of this project")
    servers = bench.Servers()
    try:
        results: list[Any] = asyncio.run(run(args, servers))
    except KeyboardInterrupt:
        return 130
    finally:
        servers.close()
    _, floor_samples, floor_cpu = results[0]
    floor_p50 = percentile(floor_samples, 50)
    print(f"session.get_state, {args.rounds} rotated rounds x {args.calls} sequential calls per side")
    print(f"{'side':<40}{'p50 ms':>9}{'ratio':>8}{'CPU ms/call':>13}{'ratio':>8}")
    for label, s, c in results:
        p50 = percentile(s, 50)
        print(f"{label[-40:]:<40}{1000 * p50:>9.2f}{p50 / floor_p50:>8.3f}{1000 * c:>13.3f}{c / floor_cpu:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
