#!/usr/bin/env python
"""Where the server time goes: py-spy profiles of the floor and the subject under load.

Starts the same two servers as ``latency.py``, drives each with 8 sessions calling
``session.get_state`` for ``--seconds`` while ``py-spy record`` samples the server process,
and prints, per side, the share of samples spent in the frames that matter (inclusive),
plus the top self-time functions. Raw collapsed stacks (flamegraph input) are written
to ``--out`` (default ``benchmarks/profiles/``, not committed).

Needs py-spy (``.venv/bin/pip install py-spy``) and permission to ptrace (root, or
``kernel.yama.ptrace_scope=0``)::

    .venv/bin/python benchmarks/profile_servers.py [--seconds 15] [--rate 250]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import latency as bench

# Substrings of "function (file)" frames worth a line each; inclusive share of samples.
WATCH = [
    ("Tornado HTTP parsing / connection", "tornado/http1connection.py"),
    ("  RequestHandler._execute", "_execute (tornado/web.py"),
    ("  JupyterHandler.prepare (auth etc.)", "prepare (jupyter_server/base/handlers.py"),
    ("  MCPHandler.prepare", "prepare (jupyter_mcp_lab/server/mcp_handler.py"),
    ("  identity: get_user / token check", "get_user (jupyter_server/auth/identity.py"),
    ("  authorizer.is_authorized", "is_authorized ("),
    ("  build_scope (header copy)", "build_scope (jupyter_mcp_lab/server/asgi_bridge.py"),
    ("  bridge.send (headers, write, flush)", "send (jupyter_mcp_lab/server/asgi_bridge.py"),
    ("  RequestHandler.flush", "flush (tornado/web.py"),
    ("  RequestHandler.finish", "finish (tornado/web.py"),
    ("  log_request (Jupyter access log)", "log_request (jupyter_server/log.py"),
    ("  prometheus metrics", "prometheus"),
    ("  logging (any)", "logging/__init__.py"),
    ("uvicorn h11 protocol", "uvicorn/protocols/http/h11_impl.py"),
    ("starlette", "starlette/"),
    ("SDK session manager handle_request", "handle_request (mcp/server/streamable_http_manager.py"),
    ("SDK transport handle_request", "handle_request (mcp/server/streamable_http.py"),
    ("SDK lowlevel server (dispatch)", "mcp/server/lowlevel/server.py"),
    ("MCPServer.call_tool", "call_tool (mcp/server/mcpserver/server.py"),
    ("SurfaceServer._call_tool (binding)", "_call_tool (jupyter_mcp_lab/server/mcp_server.py"),
    ("Dispatcher.call", "call (jupyter_mcp_lab/server/dispatch/core.py"),
    ("  caller_from_context", "caller_from_context ("),
    ("  activity.record", "record (jupyter_mcp_lab/core/activity.py"),
    ("  session.get_state op", "get_state (jupyter_mcp_lab/ops/session.py"),
    ("pydantic (any)", "pydantic"),
    ("event store", "jupyter_mcp_lab/server/event_store.py"),
    ("asyncio event loop (select/epoll)", "select (selectors.py"),
]


# Who caused a sample: walking from the leaf to the root, the first frame from one of
# these packages owns it (library frames like pydantic, json, logging, asyncio and anyio
# are charged to whoever called them).
LAYERS = [
    (
        "app: jupyter_mcp_lab ops/surfaces/core",
        (
            "jupyter_mcp_lab/ops/",
            "jupyter_mcp_lab/surfaces/",
            "jupyter_mcp_lab/core/",
            "jupyter_mcp_lab/server/dispatch/",
            "jupyter_mcp_lab/server/mcp_server.py",
        ),
    ),
    ("host: jupyter_mcp_lab/server (handler, bridge)", ("jupyter_mcp_lab/server/",)),
    ("host: jupyter_server", ("jupyter_server/",)),
    ("host: tornado", ("tornado/",)),
    ("host: uvicorn + h11", ("uvicorn/", "h11/")),
    ("sdk: mcp (+ sse_starlette)", ("mcp/", "mcp_types/", "sse_starlette/")),
    ("host: starlette (outside the SDK)", ("starlette/",)),
]


def owner(frames: list[str]) -> str:
    for frame in reversed(frames):
        for label, needles in LAYERS:
            if any(n in frame for n in needles):
                return label
    return "event loop / other"


def parse_collapsed(path: Path) -> tuple[int, collections.Counter[str], list[tuple[list[str], int]]]:
    total = 0
    self_time: collections.Counter[str] = collections.Counter()
    stacks: list[tuple[list[str], int]] = []
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        total += n
        self_time[frames[-1]] += n
        stacks.append((frames, n))
    return total, self_time, stacks


def summarize(name: str, path: Path, top: int, run: dict[str, Any], rate: int) -> None:
    total, self_time, stacks = parse_collapsed(path)
    calls = max(1, run["calls"])
    print(
        f"\n=== {name}: {run['calls'] / run['seconds']:.0f} calls/s, "
        f"server CPU {1000 * run['cpu_server'] / calls:.2f} ms/call, {total} samples ({path.name})"
    )
    gc_ms = run.get("gc")
    if gc_ms:
        print(
            "garbage collection (ms/call): "
            + ", ".join(f"gen{g} {1000 * sec / calls:.3f} ({n} runs)" for g, (n, sec) in gc_ms.items())
            + f"; heap {run['objects']} tracked objects, {run['frozen']} frozen"
        )
    if not total:
        return
    idle = sum(n for frames, n in stacks if "select (selectors.py" in frames[-1])
    print(f"idle in epoll: {100 * idle / total:.1f}% of samples")
    layers: collections.Counter[str] = collections.Counter()
    for frames, n in stacks:
        if "select (selectors.py" not in frames[-1]:
            layers[owner(frames)] += n
    busy = sum(layers.values())
    print(f"busy samples by owner, ms per call (total {1000 * busy / rate / calls:.3f}):")
    for label, n in layers.most_common():
        print(f"  {1000 * n / rate / calls:6.3f}  {label}")
    print("inclusive, ms per call (py-spy wall samples; a GC pause lands on whatever frame allocated):")
    for label, needle in WATCH:
        n = sum(c for frames, c in stacks if any(needle in f for f in frames))
        if n:
            print(f"  {1000 * n / rate / calls:6.3f}  {label}")
    print("top self time, ms per call:")
    for frame, n in self_time.most_common(top):
        print(f"  {1000 * n / rate / calls:6.3f}  {frame[:150]}")


def gc_snapshot(side: bench.Side, stats: Path) -> dict[str, Any]:
    before = len(stats.read_text().splitlines()) if stats.exists() else 0
    os.kill(side.proc.pid, signal.SIGUSR2)
    for _ in range(100):
        lines = stats.read_text().splitlines() if stats.exists() else []
        if len(lines) > before:
            return json.loads(lines[-1])
        time.sleep(0.02)
    return {}


def start_py_spy(py_spy: str, side: bench.Side, seconds: float, rate: int, dest: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            py_spy,
            "record",
            "--pid",
            str(side.proc.pid),
            "--format",
            "raw",
            "--idle",
            "--rate",
            str(rate),
            "--duration",
            str(int(seconds) + 2),
            "--output",
            str(dest),
            "--nonblocking",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


async def load(
    side: bench.Side, seconds: float, py_spy: str, out: Path, rate: int, stats: Path
) -> tuple[Path, dict[str, Any]]:
    dest = out / f"{side.name}.txt"
    spy = start_py_spy(py_spy, side, seconds, rate, dest)
    try:
        await asyncio.sleep(1.0)  # py-spy attaches
        g0 = gc_snapshot(side, stats)
        r: dict[str, Any] = dict(await bench.run_slice(side, seconds))
        g1 = gc_snapshot(side, stats)
        if g0 and g1:
            r["gc"] = {g: (g1["gc"][g][0] - g0["gc"][g][0], g1["gc"][g][1] - g0["gc"][g][1]) for g in g1["gc"]}
            r["objects"], r["frozen"] = g1["objects"], g1["frozen"]
        print(f"{side.name}: {r['calls'] / r['seconds']:.0f} calls/s under the profiler")
        await asyncio.to_thread(spy.wait, 30)
    finally:
        if spy.poll() is None:
            spy.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                spy.wait(10)
            if spy.poll() is None:
                spy.kill()
    if spy.returncode:
        print(spy.stderr.read().decode(errors="replace") if spy.stderr else "", file=sys.stderr)
    return dest, r


async def run(args: argparse.Namespace, servers: bench.Servers, py_spy: str) -> list[tuple[str, Path, dict[str, Any]]]:
    stats = {n: servers.tmp / f"{n}-gc.jsonl" for n in ("floor", "subject")}
    subject_env = {"BENCH_GC_STATS": str(stats["subject"])}
    if args.subject_gc_freeze:
        subject_env["BENCH_GC_FREEZE"] = "1"
    sides = [
        servers.start_floor({"BENCH_GC_STATS": str(stats["floor"])}),
        servers.start_subject(subject_env),
    ]
    await asyncio.gather(*(bench.wait_ready(s) for s in sides))
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    async with contextlib.AsyncExitStack() as stack:
        for side in sides:
            side.clients = [
                await bench.open_client(stack, side.url, side.headers, side.proc) for _ in range(args.sessions)
            ]
            await asyncio.gather(*(bench.call(c) for c in side.clients for _ in range(5)))
        for side in sides:
            path, r = await load(side, args.seconds, py_spy, args.out, args.rate, stats[side.name])
            results.append((side.name, path, r))
    return results


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=15)
    p.add_argument("--sessions", type=int, default=8)
    p.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "profiles")
    p.add_argument("--subject-gc-freeze", action="store_true", help="what-if: see _launch.py")
    args = p.parse_args()
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(py_spy).exists():
        raise SystemExit("py-spy is not installed: .venv/bin/pip install py-spy")
    servers = bench.Servers()
    try:
        results = asyncio.run(run(args, servers, py_spy))
    except KeyboardInterrupt:
        return 130
    finally:
        servers.close()
    for name, path, r in results:
        summarize(name, path, args.top, r, args.rate)
    return 0


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"\nwall time {time.monotonic() - started:.0f} s")
    sys.exit(code)
