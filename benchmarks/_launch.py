"""Diagnostics for the benchmark's server processes (not used by a plain run).

``python benchmarks/_launch.py -m jupyter_server ARGS`` runs Jupyter with, from the
environment:

* ``BENCH_GC_FREEZE=1``: ``gc.collect(); gc.freeze()`` just before the event loop starts
  (every extension loaded), so full collections stop walking the start-up heap: the
  what-if behind ``latency.py --subject-gc-freeze``;
* ``BENCH_GC_STATS=FILE``: time every garbage collection; on SIGUSR2 append one JSON line
  ``{"gc": {gen: [collections, seconds]}, "objects": N, "frozen": N}`` to FILE.
* ``BENCH_THREADS=FILE``: count the OS threads the process starts; on SIGUSR2 append one
  JSON line ``{"threads_started": N}`` to FILE (a thread per call shows as N growing with calls;
  SIGUSR1 is Jupyter's own).

The floor (``latency.py --serve-floor``) calls :func:`setup` itself.
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import signal
import sys
import threading
import time
from typing import Any

_stats: dict[int, list[float]] = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
_started = [0.0]


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
    else:
        s = _stats[info["generation"]]
        s[0] += 1
        s[1] += time.perf_counter() - _started[0]


def freeze(log: Any = None) -> None:
    gc.collect()
    gc.freeze()
    if log is not None:
        log.info("benchmark: froze %d start-up objects (gc.freeze)", gc.get_freeze_count())


def _count_threads(path: str) -> None:
    started = [0]
    start = threading.Thread.start

    def counted_start(self: threading.Thread) -> None:
        started[0] += 1
        start(self)

    threading.Thread.start = counted_start  # type: ignore[method-assign]

    def dump(signum: int, frame: Any) -> None:
        with open(path, "a") as f:
            f.write(json.dumps({"threads_started": started[0]}) + "\n")

    _on_usr2.append(dump)


_on_usr2: list[Any] = []


def setup() -> None:
    threads = os.environ.get("BENCH_THREADS")
    if threads:
        _count_threads(threads)
    _gc_stats()
    if _on_usr2:
        signal.signal(signal.SIGUSR2, lambda signum, frame: [dump(signum, frame) for dump in _on_usr2])


def _gc_stats() -> None:
    path = os.environ.get("BENCH_GC_STATS")
    if path:
        gc.callbacks.append(_on_gc)

        def dump(signum: int, frame: Any) -> None:
            line = {"gc": _stats, "objects": len(gc.get_objects()), "frozen": gc.get_freeze_count()}
            with open(path, "a") as f:
                f.write(json.dumps(line) + "\n")

        _on_usr2.append(dump)


def gc_freeze_wanted() -> bool:
    return os.environ.get("BENCH_GC_FREEZE", "") not in ("", "0")


def _patch_jupyter() -> None:
    from jupyter_server.serverapp import ServerApp

    start_ioloop = ServerApp.start_ioloop

    def frozen_start_ioloop(self: ServerApp) -> None:
        freeze(self.log)
        start_ioloop(self)

    ServerApp.start_ioloop = frozen_start_ioloop  # type: ignore[method-assign]


if __name__ == "__main__":
    if sys.argv[1:2] != ["-m"] or len(sys.argv) < 3:
        raise SystemExit("usage: _launch.py -m MODULE [ARGS]")
    setup()
    if gc_freeze_wanted():
        _patch_jupyter()
    module = sys.argv[2]
    sys.argv = [module, *sys.argv[3:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
