#!/usr/bin/env python
"""Latency and throughput of the Jupyter-hosted MCP endpoint against a bare SDK floor.

Both sides serve the ``lab`` profile with the same session-manager settings (stateful, SSE,
the same event store and retry interval):

* floor:   the bare SDK: the SDK's high-level ``MCPServer`` with the two tools called here,
           running the same operations (``_mcpserver_floor.py``), under uvicorn + Starlette
           via ``streamable_http_app()``;
* subject: a real ``jupyter server`` with the extension (Tornado, Jupyter auth, the ASGI
           bridge into ``StreamableHTTPSessionManager``, the low-level SDK ``Server`` with the
           project's dispatcher);
* tornado: the floor's app under bare Tornado, the HTTP server Jupyter runs on, through the
           project's ASGI bridge (no Jupyter, no auth, no dispatcher). Only the trivial call
           is timed on it: against the floor it prices the HTTP server alone; the subject
           against it prices what Jupyter and the project add.

The client is the official SDK client (``mcp.client.Client`` over
``streamable_http_client``, ``mode="legacy"``: the stateful 2025-11-25 session). The trivial
call is ``session(action="get_state")``; the read is ``document(action="read")`` of a small
note (through Jupyter's contents manager on the subject, the file system on the floor).

Latency: one warmed session per side, blocks of sequential calls, alternated ABBA
(floor, subject, subject, floor, ...) so that the machine's drift hits both sides alike; the
server's CPU time per call is taken around each block, and the OS threads each server starts
during the reads are counted (``_launch.py``, ``BENCH_THREADS``). Throughput: 8 concurrent
sessions per side in the client process, slices alternated ABBA too. Start-up: the time from
launching the floor or ``jupyter lab`` (with the extension) to the first answered
tools/list, alternated. Ratios are subject / floor.

Run from the repository root::

    .venv/bin/python benchmarks/latency.py            # ~55-65 s
    .venv/bin/python benchmarks/latency.py --quick    # smoke run, ~16 s
    .venv/bin/python benchmarks/latency.py --check    # exit 1 when a target is missed

The script starts and stops both servers itself (free ports, temporary directories) and
stops them on every exit path, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import die_with_parent, free_port, open_client, own_jupyter_dirs, percentile  # noqa: E402

LATENCY_TARGET = 1.0  # subject p50 / floor p50 at most (issue 11)
CPU_TARGET = 1.0  # subject server CPU per sequential call / the floor's at most (issue 11)
THROUGHPUT_TARGET = 0.8  # subject calls/s / floor calls/s at least
TOOL = "session"
ARGS = {"action": "get_state"}
READ = ("document", {"action": "read", "path": "note.md"})
NOTE = "# Note\n\nA short note the benchmark reads.\n\n- one\n- two\n"


# --------------------------------------------------------------------------- floor server


def floor_app(port: int, root: Path) -> Any:
    """The floor's ASGI app: the lab surface's two tools on a bare ``MCPServer``."""
    from _mcpserver_floor import build_server

    from jupyter_mcp_lab.ops.context import Endpoint, Services, Settings
    from jupyter_mcp_lab.server.event_store import BoundedEventStore

    settings = Settings(root_dir=root, data_dir=root / ".mcp-lab-data", profiles=("lab",))
    services = Services(settings=settings, host="standalone")
    services.endpoints = [Endpoint(profile="lab", path="/mcp", url=f"http://127.0.0.1:{port}/mcp")]
    server = build_server(services)
    # The same session-manager settings as jupyter_mcp_lab/server/endpoints.py.
    return server.streamable_http_app(
        streamable_http_path="/mcp",
        json_response=False,
        stateless_http=False,
        event_store=BoundedEventStore(),
        retry_interval=1000,
        session_idle_timeout=30 * 60,
        host="127.0.0.1",
    )


def serve_floor(port: int, root: Path) -> None:
    """The floor: the lab surface as a bare MCPServer under uvicorn (runs in a subprocess)."""
    import _launch  # diagnostics only: inert unless BENCH_GC_* / BENCH_THREADS is set
    import uvicorn

    app = floor_app(port, root)
    _launch.setup()
    if _launch.gc_freeze_wanted():
        _launch.freeze()
    # Quiet like a tuned production server: no access log line per request.
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def serve_tornado_floor(port: int, root: Path) -> None:
    """The floor's app under bare Tornado, the HTTP server Jupyter runs on: the project's ASGI
    bridge and nothing else (no Jupyter, no auth, no dispatcher). Against the floor it prices
    the HTTP server alone; against it, the subject prices what the project and Jupyter add."""
    import logging

    import tornado.httpserver
    import tornado.web

    from jupyter_mcp_lab.server.asgi_bridge import TornadoASGIBridge, build_scope

    app = floor_app(port, root)
    logging.getLogger("tornado.access").disabled = True  # no access log line per request

    class Handler(tornado.web.RequestHandler):
        bridge: TornadoASGIBridge | None = None

        def check_xsrf_cookie(self) -> None:
            return None

        def on_connection_close(self) -> None:
            if self.bridge is not None:
                self.bridge.on_connection_close()

        async def _serve(self) -> None:
            self.bridge = TornadoASGIBridge(self, build_scope(self, self.request.path))
            await self.bridge.run(app)
            if not self._finished:
                self.finish()

        get = post = delete = _serve

    async def run() -> None:
        async with app.router.lifespan_context(app):  # the SDK's session manager runs here
            tornado.httpserver.HTTPServer(tornado.web.Application([(r"/mcp", Handler)])).listen(port, "127.0.0.1")
            await asyncio.Event().wait()

    asyncio.run(run())


# --------------------------------------------------------------------------- processes


@dataclass
class Side:
    name: str  # "floor" | "tornado" | "subject"
    url: str
    headers: dict[str, str]
    proc: subprocess.Popen[bytes]
    log_path: Path
    ready_url: str
    clients: list[Any] = field(default_factory=list)
    threads_file: Path | None = None  # BENCH_THREADS: where the server reports threads started
    launched: float = 0.0  # time.monotonic() just before the process was started

    def threads_started(self) -> int | None:
        """How many OS threads the server has started so far (asks it with SIGUSR2)."""
        if self.threads_file is None or self.proc.poll() is not None:
            return None
        seen = self.threads_file.read_text().count("\n") if self.threads_file.exists() else 0
        self.proc.send_signal(signal.SIGUSR2)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            lines = self.threads_file.read_text().splitlines() if self.threads_file.exists() else []
            if len(lines) > seen:
                return int(json.loads(lines[-1])["threads_started"])
            time.sleep(0.01)
        return None

    def log_lines(self) -> int:
        try:
            return self.log_path.read_bytes().count(b"\n")
        except OSError:
            return 0

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def _threads(env: dict[str, str] | None) -> Path | None:
    path = (env or {}).get("BENCH_THREADS")
    return Path(path) if path else None


class Servers:
    """Starts both servers; ``close()`` stops them and removes the temporary directory."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="mcp-lab-bench-"))
        self.procs: list[subprocess.Popen[bytes]] = []
        self._logs: list[Any] = []

    def _env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ)
        for var in ("BENCH_GC_FREEZE", "BENCH_GC_STATS", "BENCH_THREADS"):
            env.pop(var, None)
        first = (extra or {}).get("PYTHONPATH", "")  # another source tree goes before this one
        env.update({k: v for k, v in (extra or {}).items() if k != "PYTHONPATH"})
        env["PYTHONPATH"] = os.pathsep.join(p for p in (first, str(REPO), env.get("PYTHONPATH", "")) if p)
        own_jupyter_dirs(env, self.tmp)
        return env

    def _spawn(
        self, name: str, cmd: list[str], env: dict[str, str] | None = None
    ) -> tuple[subprocess.Popen[bytes], Path]:
        log_path = self.tmp / f"{name}.log"
        log = open(log_path, "wb")  # noqa: SIM115 - closed in close()
        self._logs.append(log)
        proc = subprocess.Popen(
            cmd,
            cwd=self.tmp,
            env=self._env(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            # Own process group: Ctrl-C reaches only us, and we stop them in order.
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        self.procs.append(proc)
        return proc, log_path

    def _root(self, name: str) -> Path:
        root = self.tmp / name
        root.mkdir()
        (root / "note.md").write_text(NOTE)
        return root

    def start_floor(self, env: dict[str, str] | None = None, name: str = "floor") -> Side:
        root = self._root(f"{name}-root")
        port = free_port()
        cmd = [sys.executable, str(Path(__file__).resolve()), "--serve-floor", str(port), str(root)]
        launched = time.monotonic()
        proc, log_path = self._spawn(name, cmd, env)
        url = f"http://127.0.0.1:{port}/mcp"
        return Side("floor", url, {}, proc, log_path, ready_url=url, launched=launched, threads_file=_threads(env))

    def start_tornado_floor(self) -> Side:
        """The floor's app under bare Tornado (``serve_tornado_floor``)."""
        root = self._root("tornado-root")
        port = free_port()
        cmd = [sys.executable, str(Path(__file__).resolve()), "--serve-tornado-floor", str(port), str(root)]
        proc, log_path = self._spawn("tornado", cmd, None)
        url = f"http://127.0.0.1:{port}/mcp"
        return Side("tornado", url, {}, proc, log_path, ready_url=url, launched=time.monotonic())

    def start_subject(
        self,
        env: dict[str, str] | None = None,
        app: str = "jupyter_server",
        name: str = "subject",
        pythonpath: Path | None = None,
    ) -> Side:
        """A real ``jupyter server`` (or ``jupyter lab``: ``app="jupyterlab"``) with the extension;
        ``env`` may set ``BENCH_GC_*`` and ``BENCH_THREADS``; ``pythonpath`` imports
        ``jupyter_mcp_lab`` from another source tree (latency_trees.py)."""
        root = self._root(f"{name}-root")
        port = free_port()
        token = secrets.token_hex(16)
        cmd = [
            sys.executable,
            # The diagnostics launcher only when asked for (see _launch.py).
            *([str(HERE / "_launch.py")] if env else []),
            "-m",
            app,
            "--allow-root",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={root}",
            "--ServerApp.jpserver_extensions={'jupyter_mcp_lab': True}",
        ]
        launched = time.monotonic()
        spawn_env = {**(env or {}), **({"PYTHONPATH": str(pythonpath)} if pythonpath else {})}
        proc, log_path = self._spawn(name, cmd, spawn_env or None)
        base = f"http://127.0.0.1:{port}/"
        headers = {"Authorization": f"token {token}"}
        return Side(
            "subject",
            base + "mcp",
            headers,
            proc,
            log_path,
            ready_url=base + "api/status",
            launched=launched,
            threads_file=_threads(env),
        )

    def stop(self, side: Side) -> None:
        if side.proc.poll() is None:
            side.proc.send_signal(signal.SIGTERM)
            try:
                side.proc.wait(timeout=8)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(side.proc.pid, signal.SIGKILL)
                side.proc.wait()
        self.procs.remove(side.proc)

    def close(self, keep: bool = False) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 8
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for log in self._logs:
            log.close()
        self.procs.clear()
        if keep:
            print(f"kept the servers' directory and logs: {self.tmp}", file=sys.stderr)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


async def wait_ready(side: Side, within: float = 60) -> None:
    import httpx2

    deadline = time.monotonic() + within
    async with httpx2.AsyncClient(headers=side.headers, timeout=5) as http:
        while True:
            if side.proc.poll() is not None:
                raise RuntimeError(f"the {side.name} server exited with {side.proc.returncode}:\n{side.log_tail()}")
            try:
                r = await http.get(side.ready_url)
                # The floors answer a bare GET on /mcp with a 4xx: they are listening.
                if side.name != "subject" or r.status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {side.name} server did not start:\n{side.log_tail()}")
            await asyncio.sleep(0.1)


# --------------------------------------------------------------------------- clients


async def call(client: Any, tool: str = TOOL, args: dict[str, Any] = ARGS) -> Any:
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise RuntimeError(f"{tool} {args} failed: {result.content}")
    return result


# --------------------------------------------------------------------------- measurements


def cpu_seconds(proc: subprocess.Popen[bytes]) -> float:
    import psutil

    try:
        t = psutil.Process(proc.pid).cpu_times()
    except psutil.Error:
        return float("nan")
    return t.user + t.system


def abba(sides: list[Side], blocks: int) -> list[list[Side]]:
    """floor, subject | subject, floor | floor, subject ... (three sides: ABC CBA ABC ...):
    every side's mean place in the run is the same, so linear drift cancels out."""
    return [sides if i % 2 == 0 else sides[::-1] for i in range(blocks)]


async def measure_latency(
    sides: list[Side], rounds: int, calls: int, warmup: int, tool: str = TOOL, args: dict[str, Any] = ARGS
) -> dict[str, Any]:
    for side in sides:
        for _ in range(warmup):
            await call(side.clients[0], tool, args)
    threads0 = {s.name: s.threads_started() for s in sides}
    samples: dict[str, list[float]] = {s.name: [] for s in sides}
    block_p50: dict[str, list[float]] = {s.name: [] for s in sides}
    cpu: dict[str, float] = {s.name: 0.0 for s in sides}
    clock = time.perf_counter
    for order in abba(sides, rounds):
        for side in order:
            client = side.clients[0]
            block = []
            cpu0 = cpu_seconds(side.proc)
            for _ in range(calls):
                t0 = clock()
                await call(client, tool, args)
                block.append(clock() - t0)
            cpu[side.name] += cpu_seconds(side.proc) - cpu0
            samples[side.name] += block
            block_p50[side.name].append(statistics.median(block))
    out: dict[str, Any] = {}
    for side in sides:
        name, s = side.name, samples[side.name]
        after, before = side.threads_started(), threads0[name]
        out[name] = {
            "calls": len(s),
            "p50_ms": percentile(s, 50) * 1000,
            "p95_ms": percentile(s, 95) * 1000,
            "mean_ms": statistics.fmean(s) * 1000,
            # Sequential calls: the server's own CPU time per call, without concurrency effects.
            "server_cpu_ms_per_call": 1000 * cpu[name] / max(1, len(s)),
            "threads_started": None if after is None or before is None else after - before,
        }
    # Drift check: the ratio of each adjacent pair of blocks.
    pairs = [b / a for a, b in zip(block_p50["floor"], block_p50["subject"], strict=True)]
    out["block_ratio_p50"] = {"min": min(pairs), "median": statistics.median(pairs), "max": max(pairs)}
    return out


async def run_slice(side: Side, seconds: float) -> dict[str, float]:
    clock = time.perf_counter
    counts = [0] * len(side.clients)
    cpu_server0, cpu_client0 = cpu_seconds(side.proc), time.process_time()
    start = clock()
    end = start + seconds

    async def worker(i: int, client: Any) -> None:
        while clock() < end:
            await call(client)
            if clock() <= end:
                counts[i] += 1

    await asyncio.gather(*(worker(i, c) for i, c in enumerate(side.clients)))
    cpu_server = cpu_seconds(side.proc) - cpu_server0
    cpu_client = time.process_time() - cpu_client0
    return {"calls": sum(counts), "seconds": seconds, "cpu_server": cpu_server, "cpu_client": cpu_client}


async def measure_throughput(sides: list[Side], seconds_per_side: float, slices_per_side: int) -> dict[str, Any]:
    for side in sides:  # warm every session
        await asyncio.gather(*(call(c) for c in side.clients for _ in range(3)))
    per_slice = seconds_per_side / slices_per_side
    totals: dict[str, dict[str, float]] = {
        s.name: {"calls": 0, "seconds": 0.0, "cpu_server": 0.0, "cpu_client": 0.0} for s in sides
    }
    slice_rates: dict[str, list[float]] = {s.name: [] for s in sides}
    for order in abba(sides, slices_per_side):
        for side in order:
            r = await run_slice(side, per_slice)
            for k, v in r.items():
                totals[side.name][k] += v
            slice_rates[side.name].append(r["calls"] / r["seconds"])
    out: dict[str, Any] = {}
    for name, t in totals.items():
        out[name] = {
            "calls": int(t["calls"]),
            "seconds": t["seconds"],
            "calls_per_s": t["calls"] / t["seconds"],
            "slices_calls_per_s": slice_rates[name],
            # CPU time per call: drift-resistant, and shows who the bottleneck is.
            "server_cpu_ms_per_call": 1000 * t["cpu_server"] / max(1, t["calls"]),
            "client_cpu_ms_per_call": 1000 * t["cpu_client"] / max(1, t["calls"]),
            "server_cpu_util": t["cpu_server"] / t["seconds"],
            "client_cpu_util": t["cpu_client"] / t["seconds"],
        }
    return out


async def first_tools_list(side: Side, within: float = 90) -> float:
    """Seconds from the side's launch to its first answered tools/list (a fresh session)."""
    async with contextlib.AsyncExitStack() as stack:
        client = await open_client(stack, side.url, side.headers, side.proc, attempts=int(within * 10))
        tools = await client.list_tools()
        elapsed = time.monotonic() - side.launched
        assert any(t.name == TOOL for t in tools.tools), [t.name for t in tools.tools]
    return elapsed


async def measure_startup(servers: Servers, rounds: int) -> dict[str, Any]:
    """Launch to first tools/list, one server at a time, alternated ABBA: floor, then
    ``jupyter lab`` with the extension (JupyterLab and every installed server extension)."""
    times: dict[str, list[float]] = {"floor": [], "subject": []}
    for i in range(rounds):
        for name in ("floor", "subject") if i % 2 == 0 else ("subject", "floor"):
            tag = f"startup-{name}-{i}"
            side = (
                servers.start_floor(name=tag) if name == "floor" else servers.start_subject(app="jupyterlab", name=tag)
            )
            try:
                times[name].append(await first_tools_list(side))
            finally:
                servers.stop(side)
    return {n: {"runs_s": t, "median_s": statistics.median(t)} for n, t in times.items()}


# --------------------------------------------------------------------------- main


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(res: dict[str, Any], args: argparse.Namespace) -> bool:
    lat, thr, rd, up = res["latency"], res["throughput"], res["read"], res["startup"]
    f, s, t = lat["floor"], lat["subject"], lat["tornado"]
    rf, rs = rd["floor"], rd["subject"]
    tf, ts = thr["floor"], thr["subject"]
    lat_ratio = s["p50_ms"] / f["p50_ms"]
    p95_ratio = s["p95_ms"] / f["p95_ms"]
    thr_ratio = ts["calls_per_s"] / tf["calls_per_s"]
    cpu_ratio = s["server_cpu_ms_per_call"] / f["server_cpu_ms_per_call"]
    res["ratios"] = {
        "latency_p50": lat_ratio,
        "latency_p95": p95_ratio,
        "throughput": thr_ratio,
        "server_cpu_per_call": cpu_ratio,
        "read_p50": rs["p50_ms"] / rf["p50_ms"],
        "read_server_cpu_per_call": rs["server_cpu_ms_per_call"] / rf["server_cpu_ms_per_call"],
        "startup": up["subject"]["median_s"] / up["floor"]["median_s"],
        "tornado_floor_p50": t["p50_ms"] / f["p50_ms"],
        "tornado_floor_server_cpu_per_call": t["server_cpu_ms_per_call"] / f["server_cpu_ms_per_call"],
        "subject_over_tornado_floor_p50": s["p50_ms"] / t["p50_ms"],
        "subject_over_tornado_floor_server_cpu_per_call": s["server_cpu_ms_per_call"] / t["server_cpu_ms_per_call"],
    }
    w = 12
    print()
    print(f"session.get_state over Streamable HTTP (stateful, SSE) - {res['date']}")
    print(f"machine: {res['machine']}")
    if args.subject_gc_freeze:
        print("WHAT-IF: the subject runs with gc.freeze() after start-up (benchmarks/_launch.py)")
    print(
        f"latency: {args.rounds} ABBA rounds x {args.calls} sequential calls per side; "
        f"throughput: {args.sessions} sessions, {args.seconds:g} s per side "
        f"in {args.slices} ABBA slices"
    )
    print()
    print(f"{'':28}{'floor':>{w}}{'subject':>{w}}{'ratio':>{w}}")
    print(f"{'':28}{'(uvicorn)':>{w}}{'(jupyter)':>{w}}{'subj/floor':>{w}}")
    rows = [
        ("latency p50 (ms)", f["p50_ms"], s["p50_ms"]),
        ("latency p95 (ms)", f["p95_ms"], s["p95_ms"]),
        ("latency mean (ms)", f["mean_ms"], s["mean_ms"]),
        ("server CPU/call, seq. (ms)", f["server_cpu_ms_per_call"], s["server_cpu_ms_per_call"]),
        ("read p50 (ms)", rf["p50_ms"], rs["p50_ms"]),
        ("read p95 (ms)", rf["p95_ms"], rs["p95_ms"]),
        ("read server CPU/call (ms)", rf["server_cpu_ms_per_call"], rs["server_cpu_ms_per_call"]),
        ("launch to tools/list (s)", up["floor"]["median_s"], up["subject"]["median_s"]),
        (f"throughput ({args.sessions} sess., calls/s)", tf["calls_per_s"], ts["calls_per_s"]),
        ("server CPU per call (ms)", tf["server_cpu_ms_per_call"], ts["server_cpu_ms_per_call"]),
        ("client CPU per call (ms)", tf["client_cpu_ms_per_call"], ts["client_cpu_ms_per_call"]),
        ("server CPU busy (cores)", tf["server_cpu_util"], ts["server_cpu_util"]),
        ("client CPU busy (cores)", tf["client_cpu_util"], ts["client_cpu_util"]),
    ]
    for label, a, b in rows:
        print(f"{label:<28}{a:>{w}.2f}{b:>{w}.2f}{b / a:>{w}.2f}")
    threads = {n: rd[n]["threads_started"] for n in ("floor", "subject")}
    print(
        f"OS threads started during {rs['calls']} sequential reads: floor {threads['floor']}, "
        f"subject {threads['subject']}; start-up runs (s): floor "
        + ", ".join(f"{x:.2f}" for x in up["floor"]["runs_s"])
        + "; jupyter lab "
        + ", ".join(f"{x:.2f}" for x in up["subject"]["runs_s"])
    )
    r = res["ratios"]
    print()
    print("the floor's own app under bare Tornado (Jupyter's HTTP server; the project's ASGI bridge, no Jupyter):")
    print(
        f"  trivial p50 {t['p50_ms']:.2f} ms, server CPU/call {t['server_cpu_ms_per_call']:.2f} ms; "
        f"against the floor {r['tornado_floor_p50']:.3f} / {r['tornado_floor_server_cpu_per_call']:.3f} "
        "(the HTTP server's share)"
    )
    print(
        f"  subject against it: p50 {r['subject_over_tornado_floor_p50']:.3f}, server CPU/call "
        f"{r['subject_over_tornado_floor_server_cpu_per_call']:.3f} (what Jupyter and the project add)"
    )
    br = lat["block_ratio_p50"]
    print()
    print(f"per-block p50 ratio (drift check): min {br['min']:.2f}, median {br['median']:.2f}, max {br['max']:.2f}")
    print(
        "throughput per slice (calls/s): floor "
        + ", ".join(f"{x:.0f}" for x in tf["slices_calls_per_s"])
        + "; subject "
        + ", ".join(f"{x:.0f}" for x in ts["slices_calls_per_s"])
    )
    logs = res["log_lines_during_measurements"]
    total_calls = {n: lat[n]["calls"] + thr[n]["calls"] for n in ("floor", "subject")}
    print(
        f"server log lines written while measuring: floor {logs['floor']} "
        f"({total_calls['floor']} calls), subject {logs['subject']} ({total_calls['subject']} calls)"
    )
    lat_ok = lat_ratio <= LATENCY_TARGET
    thr_ok = thr_ratio >= THROUGHPUT_TARGET
    cpu_ok = cpu_ratio <= CPU_TARGET
    print()
    print(
        f"latency ratio    (p50 subject/floor) {lat_ratio:6.3f}  "
        f"target <= {LATENCY_TARGET}  {verdict(lat_ok)}   (p95 ratio {p95_ratio:.2f})"
    )
    print(f"throughput ratio (subject/floor)     {thr_ratio:6.3f}  target >= {THROUGHPUT_TARGET}  {verdict(thr_ok)}")
    print(f"server CPU/call, seq. (subj/floor) {cpu_ratio:6.3f}  target <= {CPU_TARGET}  {verdict(cpu_ok)}")
    print(f"wall time {res['wall_s']:.0f} s")
    return lat_ok and thr_ok and cpu_ok


async def bench(args: argparse.Namespace, servers: Servers) -> dict[str, Any]:
    started = time.monotonic()
    startup = await measure_startup(servers, args.startup_rounds)
    if args.verbose:
        print(f"start-up measured after {time.monotonic() - started:.1f} s", file=sys.stderr)
    threads = {"BENCH_THREADS": str(servers.tmp / "threads-{}.jsonl")}
    floor = servers.start_floor({"BENCH_THREADS": threads["BENCH_THREADS"].format("floor")})
    subject_env = {"BENCH_THREADS": threads["BENCH_THREADS"].format("subject")}
    if args.subject_gc_freeze:
        subject_env["BENCH_GC_FREEZE"] = "1"
    subject = servers.start_subject(subject_env)
    tornado = servers.start_tornado_floor()
    sides = [floor, subject]
    await asyncio.gather(*(wait_ready(s) for s in [*sides, tornado]))
    async with contextlib.AsyncExitStack() as stack:
        for side in [floor, tornado, subject]:
            n = max(1, args.sessions) if side is not tornado else 1
            side.clients = [await open_client(stack, side.url, side.headers, side.proc) for _ in range(n)]
            first = await call(side.clients[0])
            sc = first.structured_content or {}
            assert sc.get("caller", {}).get("profile") == "lab", sc
        if args.verbose:
            print(
                f"servers up and {args.sessions} sessions open per side after {time.monotonic() - started:.1f} s",
                file=sys.stderr,
            )
        log_lines = {side.name: side.log_lines() for side in sides}
        # The trivial call on all three sides (the Tornado-hosted floor between the two, so that
        # its place in every ABC CBA round is the middle one); the rest on the two compared.
        latency = await measure_latency([floor, tornado, subject], args.rounds, args.calls, args.warmup)
        read = await measure_latency(sides, args.rounds, args.calls, args.warmup, *READ)
        if args.verbose:
            print(f"latency done after {time.monotonic() - started:.1f} s", file=sys.stderr)
        throughput = await measure_throughput(sides, args.seconds, args.slices)
        # The hot path must stay quiet: a log line per call costs more than the call.
        for side in sides:
            log_lines[side.name] = side.log_lines() - log_lines[side.name]
    return {
        "log_lines_during_measurements": log_lines,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, {platform.system()}",
        "latency": latency,
        "read": read,
        "startup": startup,
        "throughput": throughput,
        "wall_s": time.monotonic() - started,
        "params": {k: v for k, v in vars(args).items() if k not in {"serve_floor", "serve_tornado_floor", "json"}},
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a short smoke run (~16 s)")
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    p.add_argument("--rounds", type=int, help="latency blocks per side (default 20)")
    p.add_argument("--calls", type=int, help="sequential calls per latency block (default 50)")
    p.add_argument("--warmup", type=int, default=50, help="calls per side before measuring")
    p.add_argument("--sessions", type=int, default=8, help="concurrent sessions (default 8)")
    p.add_argument("--seconds", type=float, help="throughput seconds per side (default 20)")
    p.add_argument("--slices", type=int, help="throughput slices per side (default 10)")
    p.add_argument("--startup-rounds", type=int, help="launches per side to first tools/list (default 4)")
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    p.add_argument(
        "--subject-gc-freeze",
        action="store_true",
        help="what-if: freeze the Jupyter server's start-up heap (gc.freeze) before measuring",
    )
    p.add_argument("--keep", action="store_true", help="keep the servers' temp dir and logs")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--serve-floor", nargs=2, metavar=("PORT", "ROOT"), help=argparse.SUPPRESS)
    p.add_argument("--serve-tornado-floor", nargs=2, metavar=("PORT", "ROOT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    # Short, many, alternated blocks: this machine's speed drifts within seconds.
    quick = {"rounds": 6, "calls": 50, "seconds": 4.0, "slices": 4, "startup_rounds": 2}
    full = {"rounds": 20, "calls": 50, "seconds": 20.0, "slices": 10, "startup_rounds": 4}
    for k, v in (quick if args.quick else full).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    if args.rounds < 2 or args.slices < 1:
        p.error("--rounds must be >= 2 and --slices >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve_floor:
        serve_floor(int(args.serve_floor[0]), Path(args.serve_floor[1]))
        return 0
    if args.serve_tornado_floor:
        serve_tornado_floor(int(args.serve_tornado_floor[0]), Path(args.serve_tornado_floor[1]))
        return 0

    servers = Servers()

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        res = asyncio.run(bench(args, servers))
    except KeyboardInterrupt:
        print("interrupted; servers stopped", file=sys.stderr)
        return 130
    finally:
        servers.close(keep=args.keep)
    ok = report(res, args)
    if args.json:
        args.json.write_text(json.dumps(res, indent=2) + "\n")
    return 1 if (args.check and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
