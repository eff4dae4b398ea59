#!/usr/bin/env python
"""What an agent's edit costs when the file is open in a collaborative editor, against the
same edit when nobody has it open.

One real ``jupyter server`` with the extension (approval ``auto``) and jupyter-server-ydoc
(jupyter-collaboration's server side; its SQLite store, the file-id database and the
extension's data in a temporary directory). Two copies of each generated markdown document
(``markdown.py``'s generator, 1K and 10K lines):

* ``open-*.md`` is open in an "editor": a real Yjs client, a pycrdt ``YUnicode`` synced over
  the collaboration websocket (opened as JupyterLab opens a file: ``PUT
  api/collaboration/session/<path>`` with ``{"format": "text", "type": "file"}``, then the
  room's websocket with the session id), in this process. An agent's edit goes into the
  room's shared text (``server/live_storage.py``), which saves to disk before answering;
* ``plain-*.md`` is open nowhere: the edit goes through Jupyter's contents manager (the
  baseline).

Each edit is ``document`` action=edit with one anchored op (a word gets an ``X``), a fresh
anchor each time, ``expected_revision`` chained, through the official SDK client. The two
copies get different anchors from one list, swapped every other pair: with the same edit on
both, the second edit of a pair would find the first one's structure in the cache (keyed by
text) and skip the parse.
Measured from the call:

* to the tool result;
* (open file) until the editor's text has the change: the time the Yjs client's observer
  fires, so it includes the websocket hop and this process's event loop;
* until the file on disk has it (polled from the tool result on).

Reads: ``document`` action=read of one section, and of a 32 KB page (``maxBytes``) from the
top, on each copy: the open one is served from the shared text.

Subject and baseline alternate ABBA (live, plain | plain, live | ...) and the sizes
alternate order, because this machine's speed drifts up to 2x; the ratio live/plain is the
median of the per-pair ratios. Server CPU per call is the mean of the server process's
CPU time (psutil; 10 ms ticks, hence a mean).

    .venv/bin/python benchmarks/live.py            # ~12-15 s, 40 edits per size per side
    .venv/bin/python benchmarks/live.py --quick    # smoke run, ~8 s
    .venv/bin/python benchmarks/live.py --keep     # keep the server's directory and log

The script starts and stops the server itself (free port on 127.0.0.1, temporary
directory) and stops it on every exit path, Ctrl-C and SIGTERM included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
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
from benchmarks.markdown import Doc, JupyterServer, code_version, make_doc  # noqa: E402

SIZES = (1_000, 10_000)
PAGE_BYTES = 32_000  # a read page: a default read of 10K lines is over the response limit


class LiveServer(JupyterServer):
    """``markdown.py``'s server with jupyter-server-ydoc and the file-id service enabled, their
    databases in the temporary directory."""

    extensions = {"jupyter_mcp_lab": True, "jupyter_server_ydoc": True, "jupyter_server_fileid": True}

    def extra_args(self) -> list[str]:
        return [
            f"--SQLiteYStore.db_path={self.tmp / 'ystore.db'}",
            f"--BaseFileIdManager.db_path={self.tmp / 'file_id_manager.db'}",
        ]


class Editor:
    """A JupyterLab editor's document: a pycrdt ``YUnicode`` kept in sync over the room's websocket."""

    def __init__(self) -> None:
        from jupyter_ydoc import YUnicode

        self.doc = YUnicode()
        self.changed = asyncio.Event()
        self.at = 0.0  # perf_counter when the last change arrived
        self._sub: Any = None

    def watch(self) -> None:
        def on_change(event: Any) -> None:
            self.at = time.perf_counter()
            self.changed.set()

        self._sub = self.doc._ysource.observe(on_change)

    def text(self) -> str:
        return self.doc.get()


async def open_in_editor(
    stack: contextlib.AsyncExitStack, http: Any, server: LiveServer, path: str, text: str
) -> tuple[Editor, float]:
    """Open ``path`` as JupyterLab does; return the synced editor and the seconds it took."""
    from httpx_ws import aconnect_ws
    from pycrdt import Provider
    from pycrdt.websocket.websocket import HttpxWebsocket

    base = f"http://127.0.0.1:{server.port}"
    t0 = time.perf_counter()
    r = await http.put(
        f"{base}/api/collaboration/session/{path}",
        headers=server.headers,
        content=json.dumps({"format": "text", "type": "file"}),
    )
    r.raise_for_status()
    data = r.json()
    room = f"{data['format']}:{data['type']}:{data['fileId']}"
    url = f"{base}/api/collaboration/room/{room}?sessionId={data['sessionId']}&token={server.token}"
    editor = Editor()
    ws = await stack.enter_async_context(aconnect_ws(url, http))
    await stack.enter_async_context(Provider(editor.doc.ydoc, HttpxWebsocket(ws, room)))
    async with asyncio.timeout(30):
        while editor.text() != text:  # noqa: ASYNC110 - the server fills the document
            await asyncio.sleep(0.005)
    took = time.perf_counter() - t0
    editor.watch()
    return editor, took


@dataclass
class Series:
    samples: list[float] = field(default_factory=list)  # seconds

    @property
    def med(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def p95(self) -> float:
        return percentile(self.samples, 95) * 1000


ROWS = [
    ("plain_result", "edit, not open: to the tool result"),
    ("plain_disk", "edit, not open: until on disk"),
    ("live_result", "edit, open: to the tool result"),
    ("live_editor", "edit, open: until the editor has it"),
    ("live_disk", "edit, open: until on disk"),
    ("editor_after_result", "  editor has it, minus the tool result (- = before)"),
    ("plain_read_section", "read one section, not open"),
    ("live_read_section", "read one section, open"),
    ("plain_read_page", "read a 32 KB page, not open"),
    ("live_read_page", "read a 32 KB page, open"),
]


class Bench:
    def __init__(self, server: LiveServer, client: Any, docs: list[Doc]) -> None:
        self.server = server
        self.client = client
        self.docs = docs
        self.editors: dict[int, Editor] = {}
        self.revision: dict[str, str] = {}
        self.applied: dict[str, list[str]] = {}  # path -> the text each edit left
        self.stats: dict[int, dict[str, Series]] = {d.n: {k: Series() for k, _ in ROWS} for d in docs}
        self.cpu: dict[int, dict[str, list[float]]] = {d.n: {} for d in docs}
        self.ratios: dict[int, dict[str, list[float]]] = {d.n: {} for d in docs}

    @staticmethod
    def path(doc: Doc, live: bool) -> str:
        return f"{'open' if live else 'plain'}-{doc.n // 1000}k.md"

    async def edit(self, doc: Doc, live: bool, k: int) -> dict[str, float]:
        path = self.path(doc, live)
        before, target, after = doc.anchors[k]
        expected = before + target + "X" + after
        op = {"op": "anchored", "text": target, "before": before, "after": after, "replacement": target + "X"}
        editor = self.editors[doc.n] if live else None
        if editor is not None:
            editor.changed.clear()
        on_disk = self.server.root / path
        c0 = self.server.cpu()
        t0 = time.perf_counter()
        result = await self.client.call_tool(
            "document", {"action": "edit", "path": path, "edits": [op], "expected_revision": self.revision[path]}
        )
        t1 = time.perf_counter()
        sc = result.structured_content or {}
        if result.is_error or not sc.get("changed"):
            raise RuntimeError(f"the edit on {path} did not apply: {sc}")
        self.revision[path] = sc["revision"]
        self.applied.setdefault(path, []).append(expected)
        out = {"result": t1 - t0}
        async with asyncio.timeout(10):
            while expected not in on_disk.read_text(encoding="utf-8"):  # noqa: ASYNC110 - another process writes it
                await asyncio.sleep(0.001)
            out["disk"] = time.perf_counter() - t0
            if editor is not None:
                await editor.changed.wait()
                out["editor"] = editor.at - t0
        out["cpu"] = self.server.cpu() - c0
        if editor is not None and expected not in editor.text():
            raise RuntimeError(f"the editor's text of {path} does not have edit {k}")
        return out

    async def read(self, doc: Doc, live: bool, page: bool) -> float:
        args: dict[str, Any] = {"action": "read", "path": self.path(doc, live)}
        if page:
            args["maxBytes"] = PAGE_BYTES
        else:
            args["section"] = doc.section_id
        t0 = time.perf_counter()
        result = await self.client.call_tool("document", args)
        took = time.perf_counter() - t0
        if result.is_error:
            raise RuntimeError(f"read failed: {result.structured_content}")
        return took

    def keep_cpu(self, n: int, key: str, value: float) -> None:
        self.cpu[n].setdefault(key, []).append(value)

    def keep_ratio(self, n: int, key: str, live: float, plain: float) -> None:
        self.ratios[n].setdefault(key, []).append(live / plain)

    async def pair(self, doc: Doc, i: int, record: bool) -> None:
        """One edit on each copy, then one read of each kind; ABBA by ``i``."""
        order = (True, False) if i % 4 in (0, 3) else (False, True)
        # Different anchors on the two copies (swapped every other pair), so their texts differ:
        # otherwise the second edit of a pair would find the first one's structure cached.
        anchor = {True: 2 * i + i % 2, False: 2 * i + 1 - i % 2}
        edits = {live: await self.edit(doc, live, anchor[live]) for live in order}
        reads = {(live, page): await self.read(doc, live, page) for page in (False, True) for live in order}
        if not record:
            return
        st = self.stats[doc.n]
        live, plain = edits[True], edits[False]
        st["plain_result"].samples.append(plain["result"])
        st["plain_disk"].samples.append(plain["disk"])
        st["live_result"].samples.append(live["result"])
        st["live_editor"].samples.append(live["editor"])
        st["live_disk"].samples.append(live["disk"])
        st["editor_after_result"].samples.append(live["editor"] - live["result"])
        for page, name in ((False, "read_section"), (True, "read_page")):
            st[f"plain_{name}"].samples.append(reads[False, page])
            st[f"live_{name}"].samples.append(reads[True, page])
            self.keep_ratio(doc.n, name, reads[True, page], reads[False, page])
        self.keep_ratio(doc.n, "edit_result", live["result"], plain["result"])
        self.keep_ratio(doc.n, "edit_disk", live["disk"], plain["disk"])
        self.keep_cpu(doc.n, "plain_edit", plain["cpu"])
        self.keep_cpu(doc.n, "live_edit", live["cpu"])

    async def first_revisions(self) -> None:
        for doc in self.docs:
            for live in (True, False):
                path = self.path(doc, live)
                r = await self.client.call_tool("document", {"action": "read", "path": path, "maxBytes": 256})
                sc = r.structured_content or {}
                if r.is_error:
                    raise RuntimeError(f"read failed: {sc}")
                self.revision[path] = sc["revision"]

    def check(self) -> None:
        """Every edit is on disk, and the editor's text is its file's."""
        for doc in self.docs:
            for live in (True, False):
                path = self.path(doc, live)
                on_disk = (self.server.root / path).read_text(encoding="utf-8")
                missing = sum(1 for x in self.applied[path] if x not in on_disk)
                if missing:
                    raise RuntimeError(f"{path}: {missing} of {len(self.applied[path])} edits are not on disk")
                if live and self.editors[doc.n].text() != on_disk:
                    raise RuntimeError(f"{path}: the editor's text differs from the file on disk")


async def run(docs: list[Doc], pairs: int, warmup: int, keep: bool) -> dict[str, Any]:
    import httpx

    server = LiveServer()
    started = time.perf_counter()
    try:
        for doc in docs:
            for live in (True, False):
                (server.root / Bench.path(doc, live)).write_text(doc.text, encoding="utf-8", newline="")
        server.start()
        await server.wait_ready()
        async with contextlib.AsyncExitStack() as stack:
            client = await open_client(stack, server.url, server.headers, server.proc)
            http = await stack.enter_async_context(httpx.AsyncClient(timeout=30))
            up = time.perf_counter() - started
            bench = Bench(server, client, docs)
            opened = {}
            for doc in docs:
                bench.editors[doc.n], opened[doc.n] = await open_in_editor(
                    stack, http, server, Bench.path(doc, True), doc.text
                )
            await bench.first_revisions()
            log_from = (server.tmp / "server.log").stat().st_size  # start-up messages are not ours
            for i in range(warmup + pairs):
                for doc in docs if i % 2 == 0 else docs[::-1]:
                    await bench.pair(doc, i, record=i >= warmup)
            bench.check()
            # What the server logged at warning level or above while we measured.
            warnings = [
                line
                for line in (server.tmp / "server.log").read_bytes()[log_from:].decode(errors="replace").splitlines()
                if line.startswith(("[W ", "[E ", "[C ")) or "Traceback" in line
            ]
    finally:
        server.close(keep=keep)
    return {
        "startup_s": up,
        "seconds": time.perf_counter() - started,
        "opened_ms": {n: s * 1000 for n, s in opened.items()},
        "stats": bench.stats,
        "cpu": bench.cpu,
        "ratios": bench.ratios,
        "warnings": warnings,
        "pairs": pairs,
    }


def _range(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}x (p5-p95 {percentile(xs, 5):.2f}-{percentile(xs, 95):.2f})"


def report(res: dict[str, Any], head: dict[str, str], docs: list[Doc]) -> None:
    w = 20
    sizes = [d.n for d in docs]
    print()
    print(f"live documents - {head['date']}")
    load_now = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {head['machine']}; load average {head['load']} at start, {load_now} at the end")
    print(f"code: {head['code']}")
    print("documents: " + ", ".join(f"{d.n:,} lines = {d.size:,} bytes" for d in docs))
    print(
        f"{res['pairs']} edits per size per side (one anchored op each), live and plain alternated ABBA; "
        f"ms from the call"
    )
    print(f"{'':52}" + "".join(f"{f'{n:,} lines':>{w}}" for n in sizes))
    print(f"{'':52}" + "".join(f"{'median /    p95':>{w}}" for _ in sizes))
    for key, label in ROWS:
        cells = []
        for n in sizes:
            s = res["stats"][n][key]
            cells.append(f"{s.med:7.1f} / {s.p95:6.1f}")
        print(f"{label:<52}" + "".join(f"{c:>{w}}" for c in cells))
    print()
    print("in-run ratio open / not open, median of per-pair ratios (p5-p95 of the pairs):")
    for key, label in (
        ("edit_result", "edit, to the tool result"),
        ("edit_disk", "edit, until on disk"),
        ("read_section", "read one section"),
        ("read_page", "read a 32 KB page"),
    ):
        print(f"  {label:<30}" + "   ".join(f"{n:>6,}: {_range(res['ratios'][n][key])}" for n in sizes))
    print(
        "server CPU per edit, mean ms (not open / open): "
        + ", ".join(
            f"{n:,}: {statistics.fmean(res['cpu'][n]['plain_edit']) * 1000:.1f} / "
            f"{statistics.fmean(res['cpu'][n]['live_edit']) * 1000:.1f}"
            for n in sizes
        )
    )
    print(
        "opening each file in the editor (session + websocket + sync): "
        + ", ".join(f"{n:,}: {res['opened_ms'][n]:.0f} ms" for n in sizes)
    )
    if res["warnings"]:
        print(f"the server logged {len(res['warnings'])} warning line(s) while measured: {res['warnings'][0][:160]}")
    else:
        print("the server logged no warnings while measured")
    print(f"server up in {res['startup_s']:.1f} s; wall time {head['wall']}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a short smoke run (~8 s)")
    p.add_argument("--pairs", type=int, help="edits per size per side (default 40; 12 with --quick)")
    p.add_argument("--keep", action="store_true", help="keep the server's temporary directory and log")
    args = p.parse_args(argv)
    pairs = args.pairs or (12 if args.quick else 40)
    warmup = 2 if args.quick else 4

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    started = time.monotonic()
    docs = [make_doc(n, anchors=2 * (pairs + warmup) + 8) for n in SIZES]
    for d in docs:
        if len(d.anchors) < 2 * (pairs + warmup):
            raise SystemExit(f"{d.n} lines: only {len(d.anchors)} anchors for {2 * (pairs + warmup)} edits")
    head = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}",
        "code": code_version(),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    try:
        res = asyncio.run(run(docs, pairs, warmup, args.keep))
    except KeyboardInterrupt:
        print("interrupted; server stopped", file=sys.stderr)
        return 130
    head["wall"] = f"{time.monotonic() - started:.0f} s"
    report(res, head, docs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
