#!/usr/bin/env python
"""What the kernel helpers (``kernel_tools``) cost over the official SDK client, and how the
suggestion review widget copes with 500 pending suggestions.

One real ``jupyter server`` with the extension (approval ``suggest``; ``markdown.py``'s
server class, free port on 127.0.0.1, temporary directories).

Part 1, a trivial tool call (``session(action="get_state")``, as in ``latency.py``) made
three ways in this one process, each with its own warmed session on the same endpoint:

* bare:  the official SDK client (``mcp.client.Client`` over ``streamable_http_client``,
         legacy mode, ``cache=None``), ``await client.call_tool(...)`` in this thread's loop;
* sync:  ``lab.call("session", action="get_state")`` (``kernel_tools.connect``), called from
         the same running loop, as a plain notebook cell calls it;
* aio:   ``await lab.aio.call(...)`` in the same loop, as a cell's top-level ``await``.

Blocks of sequential calls rotate the order (bare, sync, aio | aio, sync, bare | ...) since
this machine's speed drifts up to 2x; p50/p95 are nearest-rank over all calls of a side and
the ratios are Lab / bare (target: p50 at most 1.1).

Part 2, the review widget (``lab.review_widget(path)``, ``kernel_tools/widgets/review.py``)
on a document with 500 pending suggestions (one agent edit of 500 ops):

* load: from constructing the widget until its synced ``cards`` hold all 500, against the
  REST call it makes (``GET mcp-lab/api/suggestions?path=…&limit=1000``) timed alone;
  alternated;
* accept: one card accepted through the widget's message handler (what a click in the
  browser reaches), until its card is gone from ``cards`` and until the file on disk has
  changed, against the same accept as a bare REST call (``POST suggestions/<id>/accept``)
  timed to its answer and to the file; alternated ABBA. For the bare accepts the open
  widget hears the decision on the event stream: how long until its card is gone is the
  "decided elsewhere" figure.

There is no browser here: the widget's model is measured, not its drawing.

Run from the repository root::

    .venv/bin/python benchmarks/kernel.py            # ~40-60 s
    .venv/bin/python benchmarks/kernel.py --quick    # smoke run
    .venv/bin/python benchmarks/kernel.py --check    # exit 1 when the 1.1x target is missed

The script starts and stops the server itself and stops it on every exit path, Ctrl-C
and SIGTERM included.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import os
import platform
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable
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

from benchmarks._common import open_client, percentile  # noqa: E402
from benchmarks.markdown import JupyterServer, code_version  # noqa: E402

TARGET = 1.1  # Lab p50 / bare SDK client p50 at most
TOOL, ARGS = "session", {"action": "get_state"}
SUGGESTIONS = 500
DOC = "review-500.md"


class SuggestServer(JupyterServer):
    """``markdown.py``'s server, with agents' edits staged as suggestions."""

    def extra_args(self) -> list[str]:
        return ["--MCPLabApp.approval=suggest"]  # after markdown.py's approval=auto: this one wins


# --------------------------------------------------------------------------- part 1


async def timed_block(call: Callable[[], Any], n: int, sync: bool) -> list[float]:
    """Seconds per call; ``sync``: ``call()`` returns the result, else an awaitable of it."""
    out = []
    clock = time.perf_counter
    for _ in range(n):
        t0 = clock()
        result = call() if sync else await call()
        out.append(clock() - t0)
        if result.is_error:
            raise RuntimeError(f"{TOOL} failed: {result}")
    return out


async def measure_calls(bare: Any, lab: Any, rounds: int, calls: int, warmup: int) -> dict[str, Any]:
    sides: dict[str, tuple[Callable[[], Any], bool]] = {
        "bare": (lambda: bare.call_tool(TOOL, ARGS), False),
        "sync": (lambda: lab.call(TOOL, **ARGS), True),  # blocks this loop, as a plain cell does
        "aio": (lambda: lab.aio.call(TOOL, **ARGS), False),
    }
    for fn, sync in sides.values():
        await timed_block(fn, warmup, sync)
    samples: dict[str, list[float]] = {k: [] for k in sides}
    cpu: dict[str, float] = dict.fromkeys(sides, 0.0)
    block_p50: dict[str, list[float]] = {k: [] for k in sides}
    orders = (["bare", "sync", "aio"], ["aio", "sync", "bare"])
    for r in range(rounds):
        for name in orders[r % 2]:
            fn, sync = sides[name]
            c0 = time.process_time()
            block = await timed_block(fn, calls, sync)
            cpu[name] += time.process_time() - c0
            samples[name] += block
            block_p50[name].append(statistics.median(block))
    out: dict[str, Any] = {}
    for name, xs in samples.items():
        out[name] = {
            "calls": len(xs),
            "p50_ms": 1000 * percentile(xs, 50),
            "p95_ms": 1000 * percentile(xs, 95),
            "mean_ms": 1000 * statistics.fmean(xs),
            "cpu_ms_per_call": 1000 * cpu[name] / len(xs),  # this process: client side only
        }
    for name in ("sync", "aio"):
        pairs = [s / b for s, b in zip(block_p50[name], block_p50["bare"], strict=True)]
        out[name]["ratio_p50"] = out[name]["p50_ms"] / out["bare"]["p50_ms"]
        out[name]["ratio_p95"] = out[name]["p95_ms"] / out["bare"]["p95_ms"]
        out[name]["block_ratios"] = {"min": min(pairs), "median": statistics.median(pairs), "max": max(pairs)}
    return out


KERNEL_CELL = """
import contextlib, json
from benchmarks._common import open_client
from benchmarks.kernel import measure_calls
from kernel_tools import connect

async def _bench():
    lab = connect(quiet=True)  # found by JUPYTER_MCP_LAB_URL / _TOKEN in the kernel's environment
    try:
        async with contextlib.AsyncExitStack() as stack:
            bare = await open_client(stack, lab.target.url, lab.target.headers, None)
            return await measure_calls(bare, lab, {rounds}, {calls}, {warmup})
    finally:
        lab.close()

print("KERNEL_RESULT " + json.dumps(await _bench()))
"""


def measure_in_kernel(server: SuggestServer, rounds: int, calls: int, warmup: int) -> dict[str, Any]:
    """``measure_calls`` run in a cell of a real IPython kernel: there a synchronous call waits
    in the kernel's main thread (``Lab._run``'s path that can prompt the person)."""
    from jupyter_client.manager import start_new_kernel

    env = {
        **os.environ,
        "JUPYTER_MCP_LAB_URL": f"http://127.0.0.1:{server.port}/",
        "JUPYTER_MCP_LAB_TOKEN": server.token,
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p),
    }
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(REPO), env=env)
    out: list[str] = []

    def hook(msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            out.append("\n".join(msg["content"]["traceback"]))

    try:
        code = KERNEL_CELL.format(rounds=rounds, calls=calls, warmup=warmup)
        reply = kc.execute_interactive(code, timeout=600, output_hook=hook)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    text = "".join(out)
    if reply["content"]["status"] != "ok" or "KERNEL_RESULT " not in text:
        raise RuntimeError(f"the kernel's measurement failed:\n{text}")
    return json.loads(text.split("KERNEL_RESULT ", 1)[1])


# --------------------------------------------------------------------------- part 2


class CardWatch:
    """Notes when the widget's synced ``cards`` trait changes, on whichever thread sets it."""

    def __init__(self, widget: Any) -> None:
        self.widget = widget
        self.changed = threading.Condition()
        widget.observe(self._on_cards, names="cards")

    def _on_cards(self, change: Any) -> None:
        with self.changed:
            self.changed.notify_all()

    def wait(self, predicate: Callable[[list[dict[str, Any]]], bool], timeout: float = 30) -> float:
        """perf_counter when ``predicate(cards)`` first held."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate(self.widget.cards):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"cards: {len(self.widget.cards)}")
                self.changed.wait(left)
            return time.perf_counter()


def file_changed(path: Path, before: int, timeout: float = 30) -> float:
    """perf_counter when the file's modification time differs from ``before`` (a stat every
    0.2 ms: cheap, so the polling thread hardly competes with the ones it measures)."""
    deadline = time.monotonic() + timeout
    while True:
        now = time.perf_counter()
        if path.stat().st_mtime_ns != before:
            return now
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} did not change")
        time.sleep(0.0002)


def measure_widget(lab: Any, server: SuggestServer, loads: int, accepts: int) -> dict[str, Any]:
    import httpx2

    clock = time.perf_counter
    api = f"http://127.0.0.1:{server.port}/mcp-lab/api/"
    http = httpx2.Client(base_url=api, headers=server.headers, timeout=30)
    doc = server.root / DOC
    lab.events.wait_connected(10)

    # Load: the widget until its cards hold all 500, against its REST call alone.
    load: dict[str, list[float]] = {"widget": [], "rest": []}

    def load_widget() -> float:
        t0 = clock()
        widget = lab.review_widget(DOC)
        watch = CardWatch(widget)
        t1 = watch.wait(lambda cards: len(cards) == SUGGESTIONS)
        widget.close()
        return t1 - t0

    def load_rest() -> float:
        t0 = clock()
        r = http.get("suggestions", params={"path": DOC, "status": "pending", "limit": 1000})
        r.raise_for_status()
        assert r.json()["count"] == SUGGESTIONS
        return clock() - t0

    load_widget()  # warm-up (the first widget also starts the event stream's reader)
    load_rest()
    for i in range(loads):
        for name in (("widget", "rest"), ("rest", "widget"))[i % 2]:
            load[name].append(load_widget() if name == "widget" else load_rest())

    # Accept: through the widget's handler, against the bare REST call.
    widget = lab.review_widget(DOC)
    watch = CardWatch(widget)
    watch.wait(lambda cards: len(cards) == SUGGESTIONS)
    acc: dict[str, list[float]] = {
        k: [] for k in ("widget_card", "widget_file", "rest_answer", "rest_file", "elsewhere")
    }

    def accept_widget() -> None:
        sid = widget.cards[len(widget.cards) // 2]["id"]
        before = doc.stat().st_mtime_ns
        t0 = clock()
        widget._on_msg(widget, {"action": "accept", "id": sid}, [])  # what a click sends
        acc["widget_file"].append(file_changed(doc, before) - t0)
        acc["widget_card"].append(watch.wait(lambda cards: all(c["id"] != sid for c in cards)) - t0)
        widget.tasks.wait()

    pool = concurrent.futures.ThreadPoolExecutor(1)  # the POST on a thread, as the widget's is

    def accept_rest() -> None:
        sid = widget.cards[len(widget.cards) // 2]["id"]
        before = doc.stat().st_mtime_ns

        def post() -> float:
            http.post(f"suggestions/{sid}/accept").raise_for_status()
            return clock()

        t0 = clock()
        answered = pool.submit(post)
        acc["rest_file"].append(file_changed(doc, before) - t0)
        acc["rest_answer"].append(answered.result() - t0)
        acc["elsewhere"].append(watch.wait(lambda cards: all(c["id"] != sid for c in cards)) - t0)

    accept_widget()  # warm-up
    accept_rest()
    for k in acc:
        acc[k].clear()
    for i in range(accepts):
        for side in ((accept_widget, accept_rest), (accept_rest, accept_widget))[i % 2]:
            side()
    widget.close()
    pool.shutdown()
    http.close()

    def stats(xs: list[float]) -> dict[str, float]:
        return {"p50_ms": 1000 * statistics.median(xs), "p95_ms": 1000 * percentile(xs, 95), "n": len(xs)}

    return {
        "load": {k: stats(v) for k, v in load.items()},
        "load_ratio": statistics.median(w / r for w, r in zip(load["widget"], load["rest"], strict=True)),
        "accept": {k: stats(v) for k, v in acc.items()},
        "accept_ratio_card": statistics.median(
            w / r for w, r in zip(acc["widget_card"], acc["rest_answer"], strict=True)
        ),
    }


# --------------------------------------------------------------------------- the run


async def stage_suggestions(bare: Any, server: SuggestServer) -> float:
    """One agent edit with 500 ops on a 1,000-line document: 500 pending suggestions."""
    text = "# Review benchmark\n\n" + "".join(f"Paragraph {i:03d} says w{i:03d}.\n\n" for i in range(SUGGESTIONS))
    (server.root / DOC).write_text(text)
    read = await bare.call_tool("document", {"action": "read", "path": DOC})
    edits = [{"op": "find_replace", "find": f"w{i:03d}", "replace": f"W{i:03d}"} for i in range(SUGGESTIONS)]
    t0 = time.perf_counter()
    args = {"action": "edit", "path": DOC, "edits": edits, "expected_revision": read.structured_content["revision"]}
    result = await bare.call_tool("document", args)
    took = time.perf_counter() - t0
    ids = (result.structured_content or {}).get("suggestionIds", [])
    if result.is_error or len(ids) != SUGGESTIONS:
        raise RuntimeError(f"staging gave {len(ids)} suggestions: {result.content}")
    return took


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from kernel_tools import connect

    server = SuggestServer()
    try:
        server.start()
        await server.wait_ready()
        async with contextlib.AsyncExitStack() as stack:
            bare = await open_client(stack, server.url, server.headers, server.proc)
            lab = await asyncio.to_thread(
                connect, url=f"http://127.0.0.1:{server.port}/", token=server.token, quiet=True
            )
            stack.callback(lab.close)
            calls = await measure_calls(bare, lab, args.rounds, args.calls, args.warmup)
            in_kernel = await asyncio.to_thread(measure_in_kernel, server, args.rounds, args.calls, args.warmup)
            staged = await stage_suggestions(bare, server)
            widget = await asyncio.to_thread(measure_widget, lab, server, args.loads, args.accepts)
        return {"calls": calls, "in_kernel": in_kernel, "widget": widget, "staging_s": staged}
    finally:
        server.close(keep=args.keep)


def table(where: str, calls: dict[str, Any]) -> bool:
    w = 12
    print()
    print(f"{where}:")
    print(f"{'':26}{'bare SDK':>{w}}{'Lab sync':>{w}}{'Lab aio':>{w}}")
    rows = [
        ("p50 (ms)", "p50_ms"),
        ("p95 (ms)", "p95_ms"),
        ("mean (ms)", "mean_ms"),
        ("client CPU per call (ms)", "cpu_ms_per_call"),
    ]
    for label, key in rows:
        print(f"{label:<26}" + "".join(f"{calls[s][key]:>{w}.2f}" for s in ("bare", "sync", "aio")))
    ok = True
    for s in ("sync", "aio"):
        c = calls[s]
        br = c["block_ratios"]
        good = c["ratio_p50"] <= TARGET
        ok = ok and good
        print(
            f"Lab {s:<4} / bare: p50 {c['ratio_p50']:.3f} (target <= {TARGET}: {'PASS' if good else 'MISS'}), "
            f"p95 {c['ratio_p95']:.2f}; per-block p50 ratios {br['min']:.2f}-{br['max']:.2f} "
            f"(median {br['median']:.2f})"
        )
    return ok


def report(res: dict[str, Any], head: dict[str, str], args: argparse.Namespace) -> bool:
    print()
    print(f"kernel_tools against the bare SDK client - {head['date']}")
    print(f"machine: {head['machine']}; load average {head['load']}; code {head['code']}")
    print(f"{args.rounds} rotated rounds x {args.calls} sequential calls per side of {TOOL}.{ARGS['action']}")
    ok = True
    for where, calls in (("in this process", res["calls"]), ("in a cell of an IPython kernel", res["in_kernel"])):
        ok = table(where, calls) and ok
    wd = res["widget"]
    print()
    print(f"review widget, {SUGGESTIONS} pending suggestions on one document (staged in {res['staging_s']:.1f} s)")
    ld = wd["load"]
    print(
        f"load until the cards hold all {SUGGESTIONS}: widget {ld['widget']['p50_ms']:.1f} ms "
        f"(p95 {ld['widget']['p95_ms']:.1f}); its REST list call alone {ld['rest']['p50_ms']:.1f} ms "
        f"(p95 {ld['rest']['p95_ms']:.1f}); ratio {wd['load_ratio']:.2f} (median of {ld['widget']['n']} pairs)"
    )
    a = wd["accept"]
    rows = [
        ("accept via the widget: card gone", "widget_card"),
        ("accept via the widget: file changed", "widget_file"),
        ("accept via REST: answer", "rest_answer"),
        ("accept via REST: file changed", "rest_file"),
        ("accepted elsewhere: card gone (events)", "elsewhere"),
    ]
    for label, key in rows:
        print(f"  {label:<42}{a[key]['p50_ms']:>8.1f} ms p50 {a[key]['p95_ms']:>8.1f} ms p95  (n={a[key]['n']})")
    print(f"  widget card gone / REST answer: {wd['accept_ratio_card']:.2f} (median of pairs)")
    print(f"wall time {head['wall']}")
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a short smoke run")
    p.add_argument("--check", action="store_true", help="exit 1 when the 1.1x target is missed")
    p.add_argument("--rounds", type=int, help="rotated rounds of call blocks (default 20)")
    p.add_argument("--calls", type=int, help="sequential calls per block (default 50)")
    p.add_argument("--warmup", type=int, default=50, help="calls per side before measuring")
    p.add_argument("--loads", type=int, help="widget loads, and REST lists, measured (default 10)")
    p.add_argument("--accepts", type=int, help="accept pairs (widget, REST) measured (default 20)")
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    p.add_argument("--keep", action="store_true", help="keep the server's temporary directory and log")
    args = p.parse_args(argv)
    quick = {"rounds": 6, "calls": 30, "loads": 3, "accepts": 6}
    full = {"rounds": 20, "calls": 50, "loads": 10, "accepts": 20}
    for k, v in (quick if args.quick else full).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    if args.rounds < 2 or 2 * args.accepts + 2 > SUGGESTIONS:
        p.error("--rounds must be >= 2, and the accepts must fit in the suggestions")

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    started = time.monotonic()
    head = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}",
        "code": code_version(),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    try:
        res = asyncio.run(run(args))
    except KeyboardInterrupt:
        print("interrupted; server stopped", file=sys.stderr)
        return 130
    head["wall"] = f"{time.monotonic() - started:.0f} s"
    ok = report(res, head, args)
    if args.json:
        args.json.write_text(json.dumps({"head": head, **res}, indent=2) + "\n")
    return 1 if (args.check and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
