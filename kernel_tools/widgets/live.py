"""Coalesced updates for the review widgets and the Panel board, and how they show errors.

The event stream's thread must never wait on the network or a redraw. A burst of events
(an agent staging a whole document as hunks) becomes one update after a short quiet spell
instead of hundreds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

# Events closer together than this are one burst: one update after the last.
COALESCE_SECONDS = 0.08
# ...but a steady stream still shows progress this often.
MAX_DELAY_SECONDS = 0.5


class Coalescer:
    """``poke()`` from any thread; ``fn()`` runs once per burst, on a timer thread."""

    def __init__(self, fn: Callable[[], None], quiet: float = COALESCE_SECONDS, most: float = MAX_DELAY_SECONDS):
        self._fn, self._quiet, self._most = fn, quiet, most
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._first: float | None = None
        self._last_fire = float("-inf")
        self._closed = False

    def poke(self) -> None:
        with self._lock:
            if self._closed:
                return
            now = time.monotonic()
            if self._first is None:
                self._first = now
            if self._timer is not None:
                if now - self._first >= self._most:
                    return  # let the pending timer fire: a steady stream still shows progress
                self._timer.cancel()
                delay = self._quiet
            else:
                # A lone event (none pending, none just drawn) is drawn at once; only the rest
                # of a burst waits for the quiet spell.
                delay = 0.0 if now - self._last_fire >= self._quiet else self._quiet
            self._timer = threading.Timer(delay, self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            self._timer, self._first = None, None
            self._last_fire = time.monotonic()
            if self._closed:
                return
        self._fn()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


def error_text(error: BaseException) -> str:
    """What the person reads when a call failed: the server's message, not a traceback."""
    from ..errors import ApiError

    if isinstance(error, ApiError):
        body = error.body
        message = body.get("message") if isinstance(body, dict) else None
        return f"{error.code}: {message}" if message else str(error)
    return f"{type(error).__name__}: {error}"
