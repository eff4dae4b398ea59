"""MCP progress notifications shown as a progress bar in the cell that made the call.

Make the bar in the caller's thread (it keeps the caller's context).

The bar appears with the first notification (most calls never send one), as an ipywidgets
bar in a kernel with a front end, else as a line of text. It is updated from the client
loop's thread: widget updates travel on IOPub, which does not wait for the cell.
"""

from __future__ import annotations

import contextvars
import sys
from typing import Any


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


class ProgressBar:
    """``await bar(progress, total, message)``: the SDK's progress callback."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.updates: list[tuple[float, float | None, str | None]] = []  # what arrived, for tests and replays
        self._bar: Any = None
        self._text: Any = None
        # The cell's context (ipykernel routes output by it): the bar shows in the cell that
        # made the call even though the notifications arrive on the client loop's thread.
        self._context = contextvars.copy_context()

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.updates.append((progress, total, message))
        self._context.run(self._show, progress, total, message)

    def _show(self, progress: float, total: float | None, message: str | None) -> None:
        caption = f"{self.label}: {message or ''}".rstrip(": ")
        if _in_kernel():
            try:
                self._show_widget(progress, total, caption)
                return
            except ImportError:
                pass
        done = f"{progress:g}/{total:g}" if total else f"{progress:g}"
        print(f"\r{caption} [{done}]", end="", file=sys.stderr, flush=True)

    def _show_widget(self, progress: float, total: float | None, caption: str) -> None:
        import ipywidgets as w
        from IPython.display import display

        if self._bar is None:
            self._bar = w.FloatProgress(min=0.0, max=float(total or 1.0), layout=w.Layout(width="40%"))
            self._text = w.Label()
            display(w.HBox([self._bar, self._text]))
        if total:
            self._bar.max = float(total)
            self._bar.value = float(progress)
        else:
            self._bar.bar_style = "info"
            self._bar.value = min(self._bar.max, float(progress))
        self._text.value = caption + (f" ({progress:g}/{total:g})" if total else f" ({progress:g})")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.bar_style = "success"
        elif self.updates:
            print(file=sys.stderr)
