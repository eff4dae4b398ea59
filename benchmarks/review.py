#!/usr/bin/env python
"""What review costs: staging edits as suggestions and accepting them, against applying
the same edits directly, on the generated 10K-line markdown document (~0.5 MB).

In process (no Jupyter, no MCP transport), real files and a real SQLite store under a
temporary directory. One round:

* **apply**: N anchored edits through ``targets.mutate`` under the ``auto`` policy (each
  saved and checkpointed): the baseline, what an agent pays without review;
* **suggest**: the same N edits under the ``suggest`` policy (staged: a diff per edit, rows
  in SQLite, the base text stored once per revision);
* **accept-all**: a person accepts all N in one step (mapped, applied in document order,
  saved, one checkpoint);
* **accept-all after a person's edit**: the same, after the file was edited elsewhere, so
  every suggestion is mapped through that change.

Rounds alternate apply/suggest order (ABBA) because this machine's speed drifts; the
figures are medians, and the ratio suggest+accept / apply is taken per round.

    .venv/bin/python benchmarks/review.py            # ~30-60 s
    .venv/bin/python benchmarks/review.py --quick    # smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from markdown import make_doc

from jupyter_mcp_lab.core.markdown import edits as md
from jupyter_mcp_lab.core.markdown.structure import structure_of
from jupyter_mcp_lab.core.text import TextEdit, apply_edits
from jupyter_mcp_lab.ops.context import Caller, OpContext, Services, Settings
from jupyter_mcp_lab.ops.targets import mutate


def _services(tmp: Path, policy: str, text: str) -> Services:
    root = tmp / "root"
    shutil.rmtree(tmp, ignore_errors=True)
    root.mkdir(parents=True)
    (root / "doc.md").write_text(text)
    return Services(settings=Settings(root_dir=root, data_dir=tmp / "data", approval=policy))  # type: ignore[arg-type]


def _ctx(services: Services) -> OpContext:
    caller = Caller("bench", "bench", "bench-agent", "1", "session-1", "lab")
    return OpContext(services=services, caller=caller)


def _edit(before: str, target: str, after: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        m = md.anchored(structure_of(text), target, before, after)
        return apply_edits(text, [TextEdit(m.start, m.end, target + " (edited)")])

    return change


async def _run_edits(services: Services, anchors: list[tuple[str, str, str]]) -> list[str]:
    ctx = _ctx(services)
    doc = await services.docs.open("doc.md")
    ids: list[str] = []
    for before, target, after in anchors:
        change = _edit(before, target, after)
        r = await mutate(ctx, doc, change, expected_revision=None, mode="apply", save=True, label="edit")
        ids += r.suggestionIds or []
    return ids


def _db_bytes(services: Services) -> float:
    data = services.settings.data_dir
    return float(sum(p.stat().st_size for p in data.glob("suggestions.sqlite3*")))


async def one_round(tmp: Path, text: str, anchors: list[tuple[str, str, str]], order: int) -> dict[str, float]:
    out: dict[str, float] = {}

    async def apply() -> None:
        services = _services(tmp / "apply", "auto", text)
        t = time.perf_counter()
        await _run_edits(services, anchors)
        out["apply"] = time.perf_counter() - t
        services.close()
        out["apply_db_bytes"] = _db_bytes(services)

    async def suggest() -> None:
        services = _services(tmp / "suggest", "suggest", text)
        t = time.perf_counter()
        ids = await _run_edits(services, anchors)
        out["suggest"] = time.perf_counter() - t
        assert len(ids) == len(anchors), (len(ids), len(anchors))
        t = time.perf_counter()
        r = await services.reviews.accept_all(by="person", path="doc.md")
        out["accept_all"] = time.perf_counter() - t
        assert len(r.accepted) == len(anchors) and not r.conflicts
        services.close()
        out["suggest_db_bytes"] = _db_bytes(services)
        # Again, with a person's edit at the top of the file before accepting.
        services = _services(tmp / "suggest2", "suggest", text)
        await _run_edits(services, anchors)
        root = services.settings.root_dir
        (root / "doc.md").write_text("# A note the person added\n\n" + text)
        t = time.perf_counter()
        r = await services.reviews.accept_all(by="person", path="doc.md")
        out["accept_all_mapped"] = time.perf_counter() - t
        assert len(r.accepted) == len(anchors) and not r.conflicts
        services.close()

    for job in (apply, suggest) if order % 2 == 0 else (suggest, apply):
        await job()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 2 if args.quick else args.rounds
    doc = make_doc(10_000)
    anchors = doc.anchors[: args.edits]
    rows: dict[str, list[float]] = {}
    ratios: list[float] = []
    with tempfile.TemporaryDirectory(prefix="mcp-lab-review-") as tmp:
        asyncio.run(one_round(Path(tmp), doc.text, anchors[:5], 0))  # warm up
        for i in range(rounds):
            r = asyncio.run(one_round(Path(tmp), doc.text, anchors, i))
            for k, v in r.items():
                rows.setdefault(k, []).append(v)
            ratios.append((r["suggest"] + r["accept_all"]) / r["apply"])
    n = len(anchors)
    print(f"{n} anchored edits on {doc.name}: {len(doc.text.splitlines()):,} lines, {len(doc.text.encode()):,} bytes")
    print(f"{'':38}{'median ms':>10}{'per edit ms':>13}")
    labels = {
        "apply": "apply directly (auto policy, baseline)",
        "suggest": "stage as suggestions (suggest policy)",
        "accept_all": "accept all, one step",
        "accept_all_mapped": "accept all after a person's edit",
    }
    for key, label in labels.items():
        med = statistics.median(rows[key]) * 1000
        print(f"{label:<38}{med:>10.1f}{med / n:>13.2f}")
    print(
        f"store size after the round: apply {statistics.median(rows['apply_db_bytes']) / 1e6:.1f} MB "
        f"(a checkpoint keeps each after-text for reverts), "
        f"suggest + accept {statistics.median(rows['suggest_db_bytes']) / 1e6:.1f} MB"
    )
    print(
        f"ratio (suggest + accept all) / apply, per round, median: {statistics.median(ratios):.2f} "
        f"(range {min(ratios):.2f}-{max(ratios):.2f}, {rounds} rounds)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
