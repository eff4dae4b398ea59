"""What the notebook widgets share: their static files, background work, and a few helpers.

A widget's button handler runs in the kernel's main thread and must return at once (the
kernel hears the next click only then), so anything that waits on the server goes through
``Tasks``: the work runs in a small worker pool, never in the kernel's thread and never in
the client loop's thread (where a synchronous ``Lab`` call would wait on itself), and the
widget sets its traitlets when it is done. ``tasks.wait()`` lets tests and cells wait for it.
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
_pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="mcp-lab-widget")


def static(name: str) -> Path:
    """A file of ``widgets/static/`` (an ES module, a stylesheet)."""
    return STATIC / name


def esm(*names: str) -> str:
    """ES modules of ``widgets/static/`` joined into one, for a widget's ``_esm``: shared
    helpers (``cards.js``, ``loader.js``) first, then the widget's own module; no build step."""
    return "\n".join(static(n).read_text(encoding="utf-8") for n in names)


def css(*names: str) -> str:
    """Stylesheets of ``widgets/static/`` joined, for a widget's ``_css`` (``common.css`` first)."""
    return "\n".join(static(n).read_text(encoding="utf-8") for n in names)


class Tasks:
    """Background work of one widget: ``run(fn, then)``, ``after(future, then)``, ``wait()``."""

    def __init__(self, on_error: Callable[[str], None] | None = None) -> None:
        self._running: set[concurrent.futures.Future[Any]] = set()
        self._lock = threading.Condition()
        self._on_error = on_error

    def run(self, work: Callable[[], T], then: Callable[[T], None] | None = None) -> concurrent.futures.Future[Any]:
        """Run ``work()`` in the pool, then ``then(result)`` there too."""

        def job() -> None:
            result = work()
            if then is not None:
                then(result)

        return self._track(_pool.submit(self._guard, job))

    def after(
        self, future: concurrent.futures.Future[T], then: Callable[[concurrent.futures.Future[T]], None]
    ) -> concurrent.futures.Future[Any]:
        """When ``future`` (a ``lab.start`` call) is done, ``then(future)`` in the pool."""
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._track(done)

        def handle(f: concurrent.futures.Future[T]) -> None:
            try:
                self._guard(lambda: then(f))
            finally:
                done.set_result(None)

        def finished(f: concurrent.futures.Future[T]) -> None:
            _pool.submit(handle, f)  # called in the client loop's thread: hand over at once

        future.add_done_callback(finished)
        return done

    def _guard(self, job: Callable[[], None]) -> None:
        try:
            job()
        except Exception:
            if self._on_error is not None:
                self._on_error(traceback.format_exc(limit=4))
            else:
                # Most of these futures are never read: without this a failure left no trace.
                log.exception("A widget's background work failed")
                raise

    def _track(self, future: concurrent.futures.Future[Any]) -> concurrent.futures.Future[Any]:
        with self._lock:
            self._running.add(future)

        def untrack(f: concurrent.futures.Future[Any]) -> None:
            with self._lock:
                self._running.discard(f)
                self._lock.notify_all()

        future.add_done_callback(untrack)
        return future

    @property
    def busy(self) -> bool:
        return bool(self._running)

    def wait(self, timeout: float = 30) -> bool:
        """Wait until no work is running (including work started meanwhile); ``False`` on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._running:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True


def lab_name(lab: Any, default: str = "lab") -> str:
    """The name a notebook gave the client (``lab``, ``demo``…), for code the person copies."""
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        return default
    if shell is None:
        return default
    names = [k for k, v in shell.user_ns.items() if v is lab and not k.startswith("_")]
    return default if not names or default in names else sorted(names, key=len)[0]


def settled() -> concurrent.futures.Future[None]:
    """A future already done: what a second click gets while the first one's work runs."""
    done: concurrent.futures.Future[None] = concurrent.futures.Future()
    done.set_result(None)
    return done


def with_entry(entries: dict[str, str], key: str, value: str) -> dict[str, str]:
    """A copy of ``entries`` with ``key`` set to ``value``, or without ``key`` when ``value`` is
    empty: a widget's errors or busy verbs per button, as a new dict so that the trait syncs."""
    out = dict(entries)
    if value:
        out[key] = value
    else:
        out.pop(key, None)
    return out


def first_line(text: str | None, limit: int = 160) -> str:
    line = (text or "").strip().split("\n", 1)[0].strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


def error_text(exc: BaseException) -> str:
    """An exception in one line, the way the widgets show it (the SDK's groups unwrapped)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    message = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {message}" if not message.startswith(type(exc).__name__) else message
