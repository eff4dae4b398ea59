#!/usr/bin/env python
"""Speed of folding a big outline in the two tree views, in Debian's headless Chromium.

A generated 5,000-row OPML file (``benchmarks/outline.py``'s ``opml(n)``, seeded):

- the JupyterLab tree view (labext ``outline_tree_view.ts``): a real ``jupyter lab`` with the
  built extension, the file opened from the file browser; a top-level row (the first, the
  second and the middle one in turn) is folded and unfolded by a click on its twisty;
- the kernel widget (``kernel_tools/widgets/static/outline.js``): its ``render`` on a page of
  its own with the widget's stylesheets and a small stand-in for the anywidget model (``get``,
  ``set``, ``on``, ``save_changes``; ``set`` fires ``change:<name>`` at once, as Backbone
  does), its ``nodes`` made by ``outline_model.tree`` from the same rows; a one-row update
  (the ``nodes`` sent again, one row's checkbox changed, the list made before the clock
  starts) and Collapse all / Expand all too.

Both are timed as they are now and as they were at ``--baseline`` (a git revision) in the same
run: the widget's module read from git; the extension built from ``git archive <baseline>
labext`` into a temporary directory (``tsc`` and ``jupyter-builder``, with this checkout's
``node_modules``; about a minute) and put first on ``JUPYTER_PATH`` for a second ``jupyter lab``
(the server side is this checkout's for both). ``--no-lab-baseline`` skips that build.

Each figure is click → the next animation frame (the script's work, what the issue asks
for) and click → the frame painted (a task queued from that frame's callback: style, layout
and paint included); median and max over ``--rounds`` folds and as many unfolds.

Run from the repository root (the extension built, ``jlpm build:prod``)::

    .venv/bin/python benchmarks/outline_view.py               # 2-3 minutes
    .venv/bin/python benchmarks/outline_view.py --rows 1000 --rounds 3
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if sys.path and Path(sys.path[0] or ".").resolve() == HERE:
    sys.path.pop(0)
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.outline import _shape, opml  # noqa: E402
from kernel_tools.widgets.outline_model import tree  # noqa: E402
from tests.labext.conftest import CHROMIUM, CHROMIUM_ARGS, start_lab  # noqa: E402
from tests.labext.test_outline_browser import open_file  # noqa: E402

STATIC = REPO / "kernel_tools" / "widgets" / "static"
BASELINE = "1ad6e77"  # before the keyed rows (issue #16)
TARGET_MS = 50.0

# Runs `act()` (a click) and times it to the next animation frame and to the frame painted.
TIMED = """
async (act) => {
  const t0 = performance.now();
  act();
  const frame = await new Promise(r => requestAnimationFrame(() => r(performance.now())));
  const painted = await new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));
  return [frame - t0, painted - t0];
}
"""


def _rows(n: int) -> list[dict[str, Any]]:
    """The rows ``GET outline`` gives for ``opml(n)``: id, topic, note, state, level, parent, children."""
    rows: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for i, (depth, topic, note, state) in enumerate(_shape(n)):
        del stack[depth:]
        parent = stack[-1] if stack else None
        row: dict[str, Any] = {"id": f"r{i}", "topic": topic, "note": note, "state": state or "none", "level": depth}
        row.update(parent=parent["id"] if parent else None, children=[])
        if parent:
            parent["children"].append(row["id"])
        rows.append(row)
        stack.append(row)
    return rows


def _summary(samples: list[list[float]]) -> str:
    frame = [s[0] for s in samples]
    painted = [s[1] for s in samples]
    return (
        f"frame {statistics.median(frame):7.1f} ms (max {max(frame):7.1f}) · "
        f"painted {statistics.median(painted):7.1f} ms (max {max(painted):7.1f})"
    )


def _timed(page: Any, act: str) -> list[float]:
    return page.evaluate(f"() => ({TIMED})(() => {{ {act} }})")


def bench_lab(page: Any, n: int, rounds: int) -> dict[str, list[list[float]]]:
    """Fold / unfold top-level rows of the lab's tree view."""
    tree = ".jp-McpLab-tree"
    open_file(page, "big.opml")
    page.locator(f"{tree} .jp-McpLab-treeRow").nth(n - 1).wait_for(state="attached", timeout=120_000)
    tops = page.evaluate(
        f"() => [...document.querySelectorAll('{tree} .jp-McpLab-treeRow[aria-level=\"1\"]')].map(r => r.id)"
    )
    targets = [tops[0], tops[1], tops[len(tops) // 2]]
    out: dict[str, list[list[float]]] = {"fold": [], "unfold": []}
    for r in range(rounds):
        rid = targets[r % len(targets)]
        click = f"document.getElementById({rid!r}).querySelector('.jp-McpLab-treeTwisty').click();"
        out["fold"].append(_timed(page, click))
        out["unfold"].append(_timed(page, click))
    return out


def _widget_page(js: str) -> str:
    """A page that renders the widget's module (``cards.js``, ``keyed.js``, ``js``) with a stand-in model."""
    # keyed.js as it is now (the widget before it did not use it: harmless there).
    module = "\n".join((STATIC / n).read_text(encoding="utf-8") for n in ("cards.js", "keyed.js")) + "\n" + js
    css = "\n".join((STATIC / n).read_text(encoding="utf-8") for n in ("common.css", "outline.css"))
    module = module.replace("export default { render };", "window.widgetRender = render;")
    body = f"<div id=host></div><script type=module>{module}</script>"
    return f"<!doctype html><html><head><style>{css}</style></head><body>{body}</body></html>"


# The anywidget model the render function sees; `set` fires change events at once.
FAKE_MODEL = """
(state) => {
  const handlers = {};
  const model = {
    get: (k) => state[k],
    set: (k, v) => { state[k] = v; for (const f of handlers[`change:${k}`] || []) f(); },
    on: (e, f) => { (handlers[e] ||= []).push(f); },
    off: (e, f) => { handlers[e] = (handlers[e] || []).filter(g => g !== f); },
    save_changes: () => {},
    send: () => {},
  };
  window.benchModel = model;
  window.widgetRender({ model, el: document.getElementById('host') });
}
"""


def bench_widget(page: Any, js: str, nodes: list[dict[str, Any]], rounds: int) -> dict[str, list[list[float]]]:
    page.set_content(_widget_page(js))
    page.wait_for_function("() => typeof window.widgetRender === 'function'")
    state: dict[str, Any] = {"nodes": nodes, "collapsed": [], "query": "", "matches": [], "shown": [], "busy": {}}
    state.update(errors={}, loaded=True, path="big.opml", counts={"rows": len(nodes), "pending": 0})
    page.evaluate(FAKE_MODEL, state)
    page.locator(".mcpw-row").nth(len(nodes) - 1).wait_for(state="attached")
    tops = [x["id"] for x in nodes if x["level"] == 0]
    targets = [tops[0], tops[1], tops[len(tops) // 2]]
    out: dict[str, list[list[float]]] = {"fold": [], "unfold": [], "one-row update": [], "collapse all": []}
    out["expand all"] = []
    for r in range(rounds):
        sel = f'.mcpw-row[data-id="{targets[r % len(targets)]}"] .mcpw-twisty'
        click = f"document.querySelector({sel!r}).click();"
        out["fold"].append(_timed(page, click))
        out["unfold"].append(_timed(page, click))
        # The kernel sends `nodes` again (a fresh list) with one row's state changed: made
        # before the clock starts (the kernel's message is decoded before the view sees it).
        page.evaluate(f"""() => {{ const ns = structuredClone(window.benchModel.get('nodes'));
            const x = ns[{(r * 37) % len(nodes)}]; x.state = x.state === 'checked' ? 'unchecked' : 'checked';
            window.nextNodes = ns; }}""")
        update = "window.benchModel.set('nodes', window.nextNodes);"
        out["one-row update"].append(_timed(page, update))
        tool = "[...document.querySelectorAll('.mcpw-outline-tools button')].find(b => b.textContent === '{}').click();"
        out["collapse all"].append(_timed(page, tool.format("Collapse all")))
        out["expand all"].append(_timed(page, tool.format("Expand all")))
    return out


def build_lab_baseline(rev: str, tmp: Path) -> Path:
    """The extension as it was at ``rev``, built under ``tmp``: a ``JUPYTER_PATH`` entry."""
    src = tmp / "src"
    (src / "jupyter_mcp_lab").mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev, "labext"], cwd=REPO, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    labext = src / "labext"
    (labext / "node_modules").symlink_to(REPO / "labext" / "node_modules")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for cmd in (["node_modules/.bin/tsc"], ["jupyter-builder", "build", "."]):
        subprocess.run(cmd, cwd=labext, env=env, check=True, capture_output=True)
    path = tmp / "jupyter-path"
    (path / "labextensions").mkdir(parents=True)
    (path / "labextensions" / "jupyter-mcp-lab").symlink_to(src / "jupyter_mcp_lab" / "labextension")
    return path


@contextlib.contextmanager
def lab_page(page: Any, tmp: Path, n: int, jupyter_path: Path | None) -> Iterator[None]:
    """A ``jupyter lab`` (its extension found first on ``jupyter_path`` when given) with the
    outline in its root, open in ``page``."""
    tmp.mkdir()
    saved = os.environ.get("JUPYTER_PATH")
    if jupyter_path is not None:
        os.environ["JUPYTER_PATH"] = str(jupyter_path)
    try:
        lab_cm = start_lab(tmp)
        lab = lab_cm.__enter__()
    finally:
        if jupyter_path is not None:
            if saved is None:
                os.environ.pop("JUPYTER_PATH", None)
            else:
                os.environ["JUPYTER_PATH"] = saved
    try:
        (lab.root / "big.opml").write_text(opml(n), encoding="utf-8")
        page.goto(f"{lab.base}/lab?token={lab.token}")
        page.wait_for_selector(".jp-LabShell", timeout=60_000)
        yield
    finally:
        lab_cm.__exit__(None, None, None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=6, help="folds (and as many unfolds) per view")
    parser.add_argument("--baseline", default=BASELINE, help="git revision of outline.js to compare the widget with")
    parser.add_argument("--skip-lab", action="store_true", help="only the widget (no jupyter lab)")
    parser.add_argument("--skip-widget", action="store_true", help="only the lab view")
    parser.add_argument("--no-lab-baseline", action="store_true", help="the lab view as built only")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    nodes = tree(_rows(args.rows), [])
    old_js = subprocess.run(
        ["git", "show", f"{args.baseline}:kernel_tools/widgets/static/outline.js"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    print(f"{args.rows} rows, {args.rounds} folds and unfolds each; target: a fold under {TARGET_MS:.0f} ms")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page(viewport={"width": 1366, "height": 768})
        widgets = [(f"widget at {args.baseline}", old_js), ("widget now", (STATIC / "outline.js").read_text())]
        for name, js in [] if args.skip_widget else widgets:
            for what, samples in bench_widget(page, js, nodes, args.rounds).items():
                print(f"{name:>18} {what:>15}: {_summary(samples)}", flush=True)
        if not args.skip_lab:
            with tempfile.TemporaryDirectory(prefix="mcp-lab-outline-view-") as tmp:
                labs: list[tuple[str, Path | None]] = [("lab now", None)]
                if not args.no_lab_baseline:
                    print(f"building the extension as it was at {args.baseline}…", flush=True)
                    labs.insert(0, (f"lab at {args.baseline}", build_lab_baseline(args.baseline, Path(tmp))))
                for i, (name, jupyter_path) in enumerate(labs):
                    with lab_page(page, Path(tmp) / f"lab-{i}", args.rows, jupyter_path):
                        for what, samples in bench_lab(page, args.rows, args.rounds).items():
                            print(f"{name:>18} {what:>15}: {_summary(samples)}", flush=True)
        chromium.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
