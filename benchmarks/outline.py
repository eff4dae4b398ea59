#!/usr/bin/env python
"""Speed of outlines: the outliner profile's ``get_outline_structure`` and ``search_outline``
on 1,000 / 5,000 / 10,000-row outlines (OPML files and markdown documents) through the
endpoint, and a row edit on a 10,000-row outline in the core.

Outlines are generated deterministically (seeded): top-level sections, three parts each,
three to eight rows under each part (checkboxes on some, a nested row under some, notes on
the parts), non-ASCII words. The OPML file and the markdown document of a size have the
same number of rows (the markdown one as ``#`` / ``##`` headings and list items).

Endpoint: a real ``jupyter server`` with the extension (profiles lab and outliner, a
response limit large enough for the whole structure), the official SDK client
(``mcp.client.Client`` over ``streamable_http_client``). Outliner tools act on the caller's
focused tab, so one client program opens the file through the lab profile and calls the
outliner tools under the same client name (the sessionless protocol: one program is one
agent). Each round visits every (format, size) in turn (alternating order) and makes a few
calls of each tool; p50 and p95 are nearest-rank over all calls. The first call on a
document (parse included) is reported apart.

Core (in this process): a row edit on a 10,000-row outline (a checkbox, a topic, an insert,
a move): OPML through ``core.content.outline_edit.apply_row_edit`` (when present), markdown
through ``core.markdown.outline_edits.row_edit`` and ``apply_edits`` on the parsed outline
(what an edit does after the read that found the row), and the same with the new text's
outline parsed again (what the next read costs).

Run from the repository root::

    .venv/bin/python benchmarks/outline.py            # 1-3 min
    .venv/bin/python benchmarks/outline.py --quick    # smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if sys.path and Path(sys.path[0] or ".").resolve() == HERE:
    sys.path.pop(0)
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import open_client, percentile  # noqa: E402
from benchmarks.markdown import JupyterServer  # noqa: E402

SIZES = (1_000, 5_000, 10_000)
SEED = 20_260_116
ANCHOR_S = 0.4  # the reference server: 7,367 rows
TARGET_5K_MS = 100.0  # get_outline_structure, 5,000 rows, end to end
TARGET_EDIT_MS = 20.0  # a row edit on 10,000 rows, core
_WORDS = ["plan", "ship", "review", "draft", "research", "notes", "design", "sync", "launch", "tag", "build"]
_WORDS += ["deploy", "data", "model", "query", "index", "café", "résumé", "東京", "straße"]


def _words(r: random.Random, lo: int, hi: int) -> str:
    return " ".join(r.choice(_WORDS) for _ in range(r.randint(lo, hi)))


def _shape(n: int, seed: int = SEED) -> list[tuple[int, str, str | None, str | None]]:
    """(depth, topic, note, state) of ``n`` rows in document order."""
    r = random.Random(seed)
    rows: list[tuple[int, str, str | None, str | None]] = []
    sec = 0
    while len(rows) < n:
        rows.append((0, f"Section {sec} {_words(r, 1, 3)}", None, None))
        sec += 1
        for part in range(3):
            if len(rows) >= n:
                break
            rows.append((1, f"Part {sec}.{part} {_words(r, 1, 3)}", _words(r, 4, 10), None))
            for _ in range(r.randint(3, 8)):
                if len(rows) >= n:
                    break
                state = r.choice([None, "checked", "unchecked"])
                rows.append((2, f"Item {len(rows)} {_words(r, 2, 6)}", None, state))
                if r.random() < 0.2 and len(rows) < n:
                    rows.append((3, f"Sub {len(rows)} {_words(r, 2, 5)}", None, state))
    return rows


def opml(n: int) -> str:
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<opml version="2.0">', "  <head><title>Bench</title></head>"]
    out.append("  <body>")
    open_depth = -1
    for depth, topic, note, state in _shape(n):
        while open_depth >= depth:
            out.append("  " * (open_depth + 2) + "</outline>")
            open_depth -= 1
        attrs = f' text="{escape(topic)}"' + (f' _note="{escape(note)}"' if note else "")
        attrs += f' _status="{state}"' if state else ""
        out.append("  " * (depth + 2) + f"<outline{attrs}>")
        open_depth = depth
    while open_depth >= 0:
        out.append("  " * (open_depth + 2) + "</outline>")
        open_depth -= 1
    return "\n".join([*out, "  </body>", "</opml>", ""])


def markdown(n: int) -> str:
    out: list[str] = []
    for depth, topic, note, state in _shape(n):
        if depth < 2:
            out += ["", "#" * (depth + 1) + " " + topic, ""] + ([note, ""] if note else [])
        else:
            box = {"checked": "[x] ", "unchecked": "[ ] "}.get(state or "", "")
            out.append("  " * (depth - 2) + f"- {box}{topic}")
    return "\n".join(out).lstrip("\n") + "\n"


# --------------------------------------------------------------------------- core


CORE_CPU: dict[str, list[float]] = {}  # the same measurements in CPU seconds (load-independent)


def _clock(fn: Callable[[], Any], reps: int, name: str = "") -> list[float]:
    out, cpu = [], []
    for _ in range(reps):
        c, t = time.process_time(), time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    CORE_CPU[name] = cpu
    return out


def bench_core(reps: int) -> dict[str, Any]:
    from jupyter_mcp_lab.core.content.outline import OutlineContent
    from jupyter_mcp_lab.core.content.part_edits import PartEdit
    from jupyter_mcp_lab.core.markdown import outline_rows, structure
    from jupyter_mcp_lab.core.markdown.outline_edits import row_edit
    from jupyter_mcp_lab.core.markdown.outline_rows import markdown_outline
    from jupyter_mcp_lab.core.text import apply_edits

    n = 10_000
    res: dict[str, Any] = {}
    md = markdown(n)
    outline = markdown_outline(md)
    rows = outline.rows
    mid = rows[len(rows) // 2]
    item = next(r for r in rows[len(rows) // 2 :] if r.status != "none")
    section = next(r for r in rows[len(rows) // 2 :] if r.parent is None)
    edits = {
        "check": PartEdit(item.id, "set", fields={"state": "checked" if item.status == "unchecked" else "unchecked"}),
        "topic": PartEdit(mid.id, "set", fields={"topic": mid.text + " (edited)"}),
        "insert": PartEdit("new", "insert", after=item.id, fields={"parent": item.parent, "topic": "A new row"}),
        "move": PartEdit(item.id, "move", after=None, fields={"parent": section.children[0]}),
    }
    for name, edit in edits.items():
        res[f"markdown {name}"] = _clock(
            partial(lambda e: apply_edits(md, row_edit(outline, e)), edit), reps, f"markdown {name}"
        )

        def and_parse(e: PartEdit = edit) -> None:
            # The new text's outline as the next read makes it: every revision-level cache
            # cleared, the chunks and lists that did not change still parsed.
            structure._STRUCTURES.clear()
            outline_rows._OUTLINES.clear()
            markdown_outline(apply_edits(md, row_edit(outline, e)))

        and_parse()  # once: the first parse of a new text parses its changed chunk and list
        res[f"markdown {name} + parse"] = _clock(and_parse, max(3, reps // 4), f"markdown {name} + parse")
        markdown_outline(md)
    try:
        from jupyter_mcp_lab.core.content.outline_edit import apply_row_edit
    except ImportError:
        return res
    text = opml(n)
    content = OutlineContent.parse("outline", text).with_ids()
    orows = content.rows
    oitem = next(r for r in orows[len(orows) // 2 :] if r.status != "none")
    osection = next(r for r in orows[len(orows) // 2 :] if r.parent is None)
    oedits = {
        "check": PartEdit(oitem.id, "set", fields={"state": "checked"}),
        "topic": PartEdit(oitem.id, "set", fields={"topic": oitem.text + " (edited)"}),
        "insert": PartEdit("r-new", "insert", after=oitem.id, fields={"parent": oitem.parent, "topic": "A new row"}),
        "move": PartEdit(oitem.id, "move", after=None, fields={"parent": osection.children[0]}),
    }
    for name, edit in oedits.items():
        res[f"opml {name}"] = _clock(partial(apply_row_edit, content, edit, content), reps, f"opml {name}")
    return res


# --------------------------------------------------------------------------- endpoint


class OutlineServer(JupyterServer):
    def extra_args(self) -> list[str]:
        return ['--MCPLabApp.profiles=["lab","outliner"]', "--MCPLabApp.max_response_bytes=16000000"]


async def _client(stack: contextlib.AsyncExitStack, url: str, headers: dict[str, str], name: str) -> Any:
    from mcp.types import Implementation

    info = Implementation(name=name, version="1")
    return await open_client(stack, url, headers, None, client_options={"mode": "auto", "client_info": info})


CPU: dict[str, list[float]] = {}  # "<key> <tool> server|client" -> CPU seconds per call


async def _call(
    client: Any, tool: str, args: dict[str, Any], server: JupyterServer | None = None, key: str = ""
) -> tuple[float, dict[str, Any], int]:
    s0, c0 = server.cpu() if server else 0.0, time.process_time()
    t = time.perf_counter()
    result = await client.call_tool(tool, args)
    wall = time.perf_counter() - t
    if server is not None and key:
        CPU.setdefault(f"{key} {tool} server", []).append(server.cpu() - s0)
        CPU.setdefault(f"{key} {tool} client", []).append(time.process_time() - c0)
    if result.is_error:
        raise RuntimeError(f"{tool} {args}: {result.content}")
    size = sum(len(getattr(c, "text", "").encode()) for c in result.content)
    return wall, result.structured_content or {}, size


async def bench_endpoint(rounds: int, calls: int) -> dict[str, Any]:
    server = OutlineServer()
    docs = {(fmt, n): f"outline-{n}.{'opml' if fmt == 'opml' else 'md'}" for fmt in ("opml", "markdown") for n in SIZES}
    try:
        for (fmt, n), name in docs.items():
            (server.root / name).write_text(opml(n) if fmt == "opml" else markdown(n), encoding="utf-8")
        server.start()
        await server.wait_ready()
        res: dict[str, Any] = {}
        async with contextlib.AsyncExitStack() as stack:
            lab = await _client(stack, server.url, server.headers, "outline-bench")
            base = server.url.rsplit("/mcp", 1)[0]
            out = await _client(stack, f"{base}/mcp-lab/outliner/mcp", server.headers, "outline-bench")
            order = list(docs)
            for r in range(rounds):
                for key in order if r % 2 == 0 else order[::-1]:
                    fmt, n = key
                    await lab.call_tool("workspace", {"action": "open", "filePath": docs[key]})
                    slot = res.setdefault(f"{fmt} {n}", {"structure": [], "search": [], "bytes": 0, "rows": 0})
                    if r == 0:  # the first call on the document: parsed then
                        wall, sc, size = await _call(out, "get_outline_structure", {})
                        slot["first"] = wall
                    k = f"{fmt} {n}"
                    for _ in range(calls):
                        wall, sc, size = await _call(out, "get_outline_structure", {}, server, k)
                        slot["structure"].append(wall)
                        slot["bytes"], slot["rows"] = size, len(sc["rows"])
                        query = {"query": "東京 plan", "maxResults": 50}
                        wall, sc, _ = await _call(out, "search_outline", query, server, k)
                        slot["search"].append(wall)
                        slot["matches"] = sc["totalMatches"]
        for label, samples in CPU.items():
            kind, rows, tool, side = label.split(" ")
            res[f"{kind} {rows}"].setdefault("cpu", {})[f"{tool} {side}"] = samples
        return res
    finally:
        server.close()


# --------------------------------------------------------------------------- report


def _ms(samples: list[float]) -> str:
    return f"{percentile(samples, 50) * 1000:7.1f} {percentile(samples, 95) * 1000:7.1f}"


def report(core: dict[str, Any], endpoint: dict[str, Any]) -> None:
    import os

    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if endpoint:
        print("\nEndpoint (SDK client, real jupyter server), ms: p50 p95")
        print(
            f"{'outline':16} {'rows':>6} {'bytes':>9}  {'first':>7}  {'structure p50/p95':>17}  {'search p50/p95':>15}"
        )
        for key, s in endpoint.items():
            print(
                f"{key:16} {s['rows']:6d} {s['bytes']:9d}  {s.get('first', 0) * 1000:7.1f}  "
                f"{_ms(s['structure']):>17}  {_ms(s['search']):>15}"
            )
        print("\nCPU per call, ms (median): the server process, the client process (load-independent)")
        print(f"{'outline':16} {'structure server':>16} {'client':>7}  {'search server':>13} {'client':>7}")
        for key, s in endpoint.items():
            c = {k: percentile(v, 50) * 1000 for k, v in s.get("cpu", {}).items()}
            st_s, st_c = c.get("get_outline_structure server", 0), c.get("get_outline_structure client", 0)
            se_s, se_c = c.get("search_outline server", 0), c.get("search_outline client", 0)
            print(f"{key:16} {st_s:16.1f} {st_c:7.1f}  {se_s:13.1f} {se_c:7.1f}")
        for fmt in ("opml", "markdown"):
            s = endpoint.get(f"{fmt} 5000")
            if s:
                p50 = percentile(s["structure"], 50) * 1000
                cpu = s.get("cpu", {})
                both = sum(
                    percentile(cpu.get(f"get_outline_structure {side}", [0]), 50) for side in ("server", "client")
                )
                verdict = "met" if p50 <= TARGET_5K_MS else "MISSED"
                print(
                    f"target {fmt}: structure of 5,000 rows p50 {p50:.1f} ms <= {TARGET_5K_MS:.0f} ms: {verdict} "
                    f"(CPU server + client {both * 1000:.0f} ms)"
                )
        print(f"anchor: the reference server needed {ANCHOR_S * 1000:.0f} ms for 7,367 rows")
    if core:
        print("\nCore, a row edit on a 10,000-row outline, ms: wall p50 p95, CPU p50")
        for key, samples in core.items():
            cpu = CORE_CPU.get(key)
            print(f"{key:28} {_ms(samples)} {percentile(cpu, 50) * 1000 if cpu else float('nan'):7.1f}")
        edits = [k for k in core if not k.endswith("+ parse")]
        worst = max(percentile(core[k], 50) for k in edits) * 1000
        worst_cpu = max(percentile(CORE_CPU[k], 50) for k in edits if k in CORE_CPU) * 1000
        for what, value in (("wall", worst), ("CPU", worst_cpu)):
            verdict = "met" if value <= TARGET_EDIT_MS else "MISSED"
            print(f"target: every row edit {what} p50 <= {TARGET_EDIT_MS:.0f} ms (worst {value:.1f} ms): {verdict}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a short smoke run")
    p.add_argument("--rounds", type=int, default=None, help="endpoint rounds (default 6)")
    p.add_argument("--core-only", action="store_true")
    p.add_argument("--endpoint-only", action="store_true")
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    args = p.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 6)
    calls = 2 if args.quick else 4
    core = {} if args.endpoint_only else bench_core(5 if args.quick else 40)
    endpoint = {} if args.core_only else asyncio.run(bench_endpoint(rounds, calls))
    report(core, endpoint)
    if args.json:
        args.json.write_text(json.dumps({"core": core, "endpoint": endpoint}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
