#!/usr/bin/env python
"""Notebook work through this extension's ``lab`` endpoint and through the reference server,
datalayer's ``jupyter-mcp-server`` 2.2.4, side by side in one run.

Both sides are ``jupyter lab`` subprocesses with jupyter-collaboration (free ports on
127.0.0.1, temporary root, config, data and runtime directories), reached by the official MCP
SDK client (legacy mode, ``cache=None``) with the Jupyter token:

* subject: this tree's venv, the extension at ``{base_url}mcp`` (approval ``suggest``, the
  default) with a grant on the whole workspace for the benchmark's agent (the SDK client's
  name, ``mcp``), so its edits apply and its code runs without waiting for a person;
* reference: ``jupyter-mcp-server==2.2.4`` in its own virtual environment (``python3.11 -m
  venv``, pip as configured on this machine, with jupyterlab, jupyter-collaboration and
  ipykernel), in extension mode (its server extension at ``{base_url}mcp``, enabled by its
  install) with its settings at their defaults, per-call logging included.

Measured, alternated ABBA in short blocks (this machine's speed drifts up to 2x), p50 and
p95 nearest-rank over all calls of a side:

* read: the brief listing of a 200-cell notebook, every cell (ours: ``notebook read``;
  theirs: ``read_notebook`` with ``limit=0``);
* execute: a trivial cell (``1 + 1``) run in a warm kernel, the outputs stored (ours:
  ``notebook execute {cell}``; theirs: ``execute_cell {cell_index}``);
* insert + execute: a new code cell at the end, run (ours: ``notebook edit op=insert`` then
  ``notebook execute`` on its id, two calls; theirs: ``insert_execute_code_cell``, one);
* 8 agents: 8 SDK sessions at once, each on a notebook of its own with its own kernel, each
  doing read, insert + execute of code printing its own name, and execute of a cell that
  prints it, ``--agent-rounds`` times; p50 of those calls, wall time, and errors: tool errors plus any
  output that is not the agent's own (another agent's notebook or kernel).

Run from the repository root::

    .venv/bin/python benchmarks/notebooks.py            # ~3-4 min (+ the reference's install once)
    .venv/bin/python benchmarks/notebooks.py --quick    # smoke run
    .venv/bin/python benchmarks/notebooks.py --check    # exit 1 when a target is missed

The reference's environment is made on first use in ``--reference-venv`` (default
``~/.cache/jupyter-mcp-lab/bench-jupyter-mcp-server-2.2.4``) and reused after. Target: each
p50 at most 0.5x the reference's, and 0 errors under concurrency.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# benchmarks/markdown.py is named like the Python-Markdown package: keep this folder off the path.
if sys.path and Path(sys.path[0] or ".").resolve() == HERE:
    sys.path.pop(0)
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import free_port, open_client, own_jupyter_dirs, percentile  # noqa: E402
from benchmarks.markdown import JupyterServer, code_version  # noqa: E402

REFERENCE = "jupyter-mcp-server==2.2.4"
REFERENCE_PACKAGES = [REFERENCE, "jupyterlab", "jupyter-collaboration", "ipykernel"]
DEFAULT_VENV = Path.home() / ".cache" / "jupyter-mcp-lab" / "bench-jupyter-mcp-server-2.2.4"
TARGET = 0.5  # subject p50 / reference p50 at most
AGENTS = 8
CELLS = 200
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


# --------------------------------------------------------------------------- servers


class Lab(JupyterServer):
    """``jupyter lab`` from a given Python, with the given options."""

    def __init__(self, name: str, python: str, options: list[str]) -> None:
        super().__init__()
        self.name, self.python, self.options = name, python, options

    def start(self) -> None:
        env = dict(os.environ)
        own_jupyter_dirs(env, self.tmp)
        self.port = free_port()
        cmd = [
            self.python,
            "-m",
            "jupyter",
            "lab",
            "--allow-root",
            "--no-browser",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            *self.options,
        ]
        self.spawn(cmd, env)


def reference_python(venv: Path) -> str:
    """The reference's interpreter, its virtual environment made first when missing."""
    python = venv / "bin" / "python"
    marker = venv / ".bench-installed"
    if marker.exists() and marker.read_text() == " ".join(REFERENCE_PACKAGES):
        return str(python)
    print(f"installing {REFERENCE} in {venv} (once) ...", file=sys.stderr, flush=True)
    subprocess.run(["python3.11", "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *REFERENCE_PACKAGES], check=True)
    marker.write_text(" ".join(REFERENCE_PACKAGES))
    return str(python)


def notebook(cells: list[Any]) -> str:
    import nbformat

    return str(nbformat.writes(nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC})))


def write_notebooks(root: Path) -> None:
    from nbformat.v4 import new_code_cell, new_markdown_cell

    big = []
    for i in range(CELLS):
        if i % 4 == 0:
            big.append(new_markdown_cell(f"## Part {i // 4}\n\nSome words about part {i // 4}."))
        else:
            big.append(new_code_cell(f"x{i} = {i}\nprint(x{i})\n" + "# a comment line\n" * 5))
    (root / "big.ipynb").write_text(notebook(big), encoding="utf-8")
    (root / "run.ipynb").write_text(notebook([new_code_cell("1 + 1", id="trivial")]), encoding="utf-8")
    (root / "grow.ipynb").write_text(notebook([new_markdown_cell("# Grows", id="top")]), encoding="utf-8")
    for i in range(AGENTS):
        cells = [new_markdown_cell(f"# Agent {i}", id="top"), new_code_cell(f"me = 'agent-{i}'\nprint(me)", id="me")]
        (root / f"agent{i}.ipynb").write_text(notebook(cells), encoding="utf-8")


# --------------------------------------------------------------------------- the agents' calls


def text_of(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


class Failed(Exception):
    pass


async def call(client: Any, tool: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise Failed(f"{tool} {args}: {text_of(result)[:300]}")
    return result


class Ours:
    """The subject's ``lab`` endpoint: the ``notebook`` tool."""

    name = "subject"

    def __init__(self, client: Any) -> None:
        self.client = client

    async def use(self, path: str) -> None:
        await call(self.client, "notebook", {"action": "read", "path": path})

    async def read_all(self, path: str) -> int:
        r = await call(self.client, "notebook", {"action": "read", "path": path, "limit": 1000})
        return len(r.structured_content["cells"])

    async def execute(self, path: str, cell: str, index: int) -> str:
        r = await call(self.client, "notebook", {"action": "execute", "path": path, "cell": cell})
        return "".join(o.get("text") or "" for o in r.structured_content["outputs"])

    async def insert_execute(self, path: str, code: str) -> tuple[str, str, int]:
        r = await call(self.client, "notebook", {"action": "edit", "path": path, "op": "insert", "source": code})
        cell, index = r.structured_content["cellId"], r.structured_content["index"]
        return cell, await self.execute(path, cell, index), index


class Theirs:
    """The reference's tools (one "current notebook" per server, set by use_notebook)."""

    name = "reference"

    def __init__(self, client: Any) -> None:
        self.client = client

    async def use(self, path: str) -> None:
        await call(self.client, "use_notebook", {"notebook_name": path, "notebook_path": path})

    async def read_all(self, path: str) -> int:
        r = await call(self.client, "read_notebook", {"notebook_name": path, "limit": 0})
        return text_of(r).count("\n")

    async def execute(self, path: str, cell: str, index: int) -> str:
        return text_of(await call(self.client, "execute_cell", {"cell_index": index}))

    async def insert_execute(self, path: str, code: str) -> tuple[str, str, int]:
        r = await call(self.client, "insert_execute_code_cell", {"cell_index": -1, "cell_source": code})
        return "", text_of(r), -1


# --------------------------------------------------------------------------- measurements


async def timed(fn: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - t0)
    return out


def summary(xs: list[float]) -> dict[str, Any]:
    return {"calls": len(xs), "p50_ms": 1000 * percentile(xs, 50), "p95_ms": 1000 * percentile(xs, 95)}


async def sequential(sides: dict[str, Any], rounds: int, calls: int) -> dict[str, Any]:
    """read, execute and insert+execute, each side in turn, ABBA."""

    async def insert_execute(side: Any) -> None:
        _, out, _ = await side.insert_execute("grow.ipynb", "2 + 3")
        if "5" not in out:
            raise Failed(f"{side.name}: insert+execute gave {out!r}")

    measures: dict[str, Callable[[Any], Awaitable[Any]]] = {
        "read": lambda side: side.read_all("big.ipynb"),
        "execute": lambda side: side.execute("run.ipynb", "trivial", 0),
        "insert_execute": insert_execute,
    }
    uses = {"read": "big.ipynb", "execute": "run.ipynb", "insert_execute": "grow.ipynb"}
    out: dict[str, Any] = {}
    for key, measure in measures.items():
        for side in sides.values():
            await side.use(uses[key])
            await timed(lambda side=side, measure=measure: measure(side), 2)  # warm (a kernel started on first run)
        samples: dict[str, list[float]] = {name: [] for name in sides}
        order = list(sides)
        for r in range(rounds):
            for name in order if r % 2 == 0 else order[::-1]:
                side = sides[name]
                await side.use(uses[key])
                samples[name] += await timed(lambda side=side, measure=measure: measure(side), calls)
        out[key] = {name: summary(xs) for name, xs in samples.items()}
        out[key]["ratio_p50"] = out[key]["subject"]["p50_ms"] / out[key]["reference"]["p50_ms"]
        print(f"  {key}: {fmt(out[key])}", file=sys.stderr, flush=True)
    return out


async def concurrent(make: Callable[[], Awaitable[Any]], rounds: int) -> dict[str, Any]:
    """``AGENTS`` sessions at once, each on its own notebook; errors counted, not raised."""
    agents = [await make() for _ in range(AGENTS)]
    errors: list[str] = []
    latencies: list[float] = []

    async def work(i: int, side: Any) -> None:
        path, me = f"agent{i}.ipynb", f"agent-{i}"

        async def step(what: str, fn: Callable[[], Awaitable[Any]], check: Callable[[Any], bool]) -> Any:
            t0 = time.perf_counter()
            try:
                value = await fn()
            except Failed as exc:
                errors.append(f"{me} {what}: {exc}")
                return None
            latencies.append(time.perf_counter() - t0)
            if not check(value):
                errors.append(f"{me} {what}: not its own result: {value!r}"[:300])
            return value

        await step("use", lambda: side.use(path), lambda v: True)
        for n in range(rounds):
            await step("read", lambda: side.read_all(path), lambda v: v >= 2)
            await step(
                "insert+execute",
                lambda n=n: side.insert_execute(path, f"print(me, {n})"),
                lambda v, n=n: f"{me} {n}" in v[1],
            )
            await step("execute", lambda: side.execute(path, "me", 1), lambda v: me in v)

    # Warm: every agent's kernel started before the clock runs.
    await asyncio.gather(*(a.use(f"agent{i}.ipynb") for i, a in enumerate(agents)))
    for i, a in enumerate(agents):
        await a.use(f"agent{i}.ipynb")
        with contextlib.suppress(Failed):
            await a.execute(f"agent{i}.ipynb", "me", 1)
    t0 = time.perf_counter()
    await asyncio.gather(*(work(i, a) for i, a in enumerate(agents)))
    wall = time.perf_counter() - t0
    return {**summary(latencies), "wall_s": wall, "errors": len(errors), "first_errors": errors[:3]}


def fmt(row: dict[str, Any]) -> str:
    s, r = row["subject"], row["reference"]
    return f"subject p50 {s['p50_ms']:.1f} ms, reference p50 {r['p50_ms']:.1f} ms, ratio {row['ratio_p50']:.2f}"


# --------------------------------------------------------------------------- main


async def grant_everything(server: Lab) -> None:
    import httpx2

    body = {"scope": "", "agent": "mcp", "agentKind": "client", "minutes": 600}
    async with httpx2.AsyncClient(headers=server.headers, timeout=30) as http:
        r = await http.post(f"http://127.0.0.1:{server.port}/mcp-lab/api/grants", json=body)
        r.raise_for_status()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    python = reference_python(Path(args.reference_venv))
    ours = Lab("subject", sys.executable, ["--MCPLabApp.approval=suggest"])
    ours.options.append(f"--MCPLabApp.data_dir={ours.tmp / 'data'}")  # no suggestions from earlier runs
    theirs = Lab("reference", python, [])
    servers = [ours, theirs]
    try:
        for s in servers:
            write_notebooks(s.root)
            s.start()
        for s in servers:
            await s.wait_ready(120)
        await grant_everything(ours)
        async with contextlib.AsyncExitStack() as stack:

            async def client(server: Lab) -> Any:
                return await open_client(stack, f"http://127.0.0.1:{server.port}/mcp", server.headers, server.proc)

            sides = {"subject": Ours(await client(ours)), "reference": Theirs(await client(theirs))}
            print("sequential calls ...", file=sys.stderr, flush=True)
            results = await sequential(sides, args.rounds, args.calls)
            results["agents"] = {}
            for name, server, kind in (("subject", ours, Ours), ("reference", theirs, Theirs)):
                print(f"{AGENTS} agents on {name} ...", file=sys.stderr, flush=True)

                async def make(server: Lab = server, kind: Any = kind) -> Any:
                    return kind(await client(server))

                results["agents"][name] = await concurrent(make, args.agent_rounds)
            a = results["agents"]
            a["ratio_p50"] = a["subject"]["p50_ms"] / a["reference"]["p50_ms"]
        return results
    finally:
        for s in servers:
            s.close(keep=args.keep)


def report(results: dict[str, Any], args: argparse.Namespace) -> list[str]:
    missed = []
    print()
    print(f"notebooks.py, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, code {code_version()}, {platform.python_version()}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; reference {REFERENCE} (extension mode)")
    print("subject: approval 'suggest' with a grant on the workspace for the agent (nobody is asked)")
    print(f"{'':<34} {'subject p50':>12} {'ref p50':>10} {'ratio':>6} {'subject p95':>12} {'ref p95':>10}")
    rows = [("read", f"read, {CELLS}-cell notebook (brief)"), ("execute", "execute a trivial cell")]
    rows.append(("insert_execute", "insert + execute"))
    for key, label in rows:
        row = results[key]
        s, r = row["subject"], row["reference"]
        print(
            f"{label:<34} {s['p50_ms']:>9.1f} ms {r['p50_ms']:>7.1f} ms {row['ratio_p50']:>6.2f}"
            f" {s['p95_ms']:>9.1f} ms {r['p95_ms']:>7.1f} ms"
        )
        if row["ratio_p50"] > TARGET:
            missed.append(f"{key}: ratio {row['ratio_p50']:.2f} > {TARGET}")
    a = results["agents"]
    s, r = a["subject"], a["reference"]
    print(
        f"{f'{AGENTS} agents, per call':<34} {s['p50_ms']:>9.1f} ms {r['p50_ms']:>7.1f} ms {a['ratio_p50']:>6.2f}"
        f" {s['p95_ms']:>9.1f} ms {r['p95_ms']:>7.1f} ms"
    )
    print(
        f"{f'{AGENTS} agents: wall s / errors':<34} {s['wall_s']:>9.1f} s  {r['wall_s']:>7.1f} s"
        f"  subject {s['errors']} errors of {s['calls'] + s['errors']}, reference {r['errors']} of"
        f" {r['calls'] + r['errors']}"
    )
    for name in ("subject", "reference"):
        for e in a[name]["first_errors"]:
            print(f"  {name} error: {e}")
    if a["ratio_p50"] > TARGET:
        missed.append(f"agents: ratio {a['ratio_p50']:.2f} > {TARGET}")
    if s["errors"]:
        missed.append(f"agents: {s['errors']} errors on the subject")
    print("targets: " + ("all met" if not missed else "; ".join(missed)))
    return missed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=10, help="alternated blocks per measure and side")
    p.add_argument("--calls", type=int, default=5, help="calls per block")
    p.add_argument("--agent-rounds", type=int, default=5, help="rounds of each of the 8 agents")
    p.add_argument("--reference-venv", default=str(DEFAULT_VENV))
    p.add_argument("--quick", action="store_true", help="smoke run")
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    p.add_argument("--keep", action="store_true", help="keep the servers' directories and logs")
    p.add_argument("--json", help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.quick:
        args.rounds, args.calls, args.agent_rounds = 2, 3, 2
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = asyncio.run(run(args))
    missed = report(results, args)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
