#!/usr/bin/env python
"""Run a benchmark of this tree against the same benchmark of an earlier commit, alternated.

The machine's speed drifts up to 2x from minute to minute, so figures of two separate runs
cannot be compared. This checks the earlier commit out into a temporary git worktree, then
runs the benchmark script (its ``--json`` figures) A, B, B, A, … with each tree first on
``PYTHONPATH`` (the server subprocesses a benchmark starts inherit it), and prints each
figure's median per tree and the ratio this tree / the earlier one (< 1: faster now).

    .venv/bin/python benchmarks/against.py --rev 5adcf4e --pairs 3 -- markdown.py --quick

The benchmark is taken from each tree itself (an earlier commit runs its own version).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def figures(data: Any, prefix: str = "") -> dict[str, float]:
    """Every ``median_ms`` (and ``cpu_median_ms``) in a benchmark's JSON, by its path."""
    out: dict[str, float] = {}
    if isinstance(data, dict):
        for key in ("median_ms", "cpu_median_ms"):
            if isinstance(data.get(key), int | float):
                out[f"{prefix}{key.removesuffix('_ms')}"] = float(data[key])
        for key, value in data.items():
            if isinstance(value, dict | list):
                out.update(figures(value, f"{prefix}{key}."))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.update(figures(value, f"{prefix}{i}."))
    return out


def run(tree: Path, script: str, args: list[str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.json"
        env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        subprocess.run(
            [sys.executable, str(tree / "benchmarks" / script), *args, "--json", str(out)],
            cwd=tree,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        return figures(json.loads(out.read_text()))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rev", required=True, help="the earlier commit to compare with")
    p.add_argument("--pairs", type=int, default=3, help="runs per tree (alternated ABBA)")
    p.add_argument("benchmark", nargs=argparse.REMAINDER, help="-- script.py [its arguments]")
    args = p.parse_args()
    bench = [a for a in args.benchmark if a != "--"]
    if not bench:
        p.error("name the benchmark after --, e.g. -- markdown.py --quick")
    script, rest = bench[0], bench[1:]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(base), args.rev],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            results: dict[str, list[dict[str, float]]] = {"now": [], "base": []}
            for i in range(args.pairs):
                order = [("now", ROOT), ("base", base)] if i % 2 == 0 else [("base", base), ("now", ROOT)]
                for name, tree in order:
                    print(f"run {i + 1}/{args.pairs}: {name}", file=sys.stderr, flush=True)
                    results[name].append(run(tree, script, rest))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    keys = sorted(set(results["now"][0]) & set(results["base"][0]))
    print(f"{script} {' '.join(rest)}: this tree against {args.rev}, {args.pairs} runs each, alternated")
    print(f"{'figure':<60} {'base ms':>10} {'now ms':>10} {'ratio':>7}")
    ratios = []
    for key in keys:
        b = statistics.median(r[key] for r in results["base"] if key in r)
        n = statistics.median(r[key] for r in results["now"] if key in r)
        ratio = n / b if b else float("nan")
        ratios.append(ratio)
        print(f"{key:<60} {b:>10.3f} {n:>10.3f} {ratio:>7.2f}")
    print(f"geometric mean of the ratios: {statistics.geometric_mean(r for r in ratios if r > 0):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
