"""Driving a widget's model the way its JavaScript does, and the test MCP server on stdio.

The browser sets traitlets (``set_state``, what ``model.set`` + ``save_changes`` arrive as)
and sends custom messages (``_handle_custom_msg``, what ``model.send`` arrives as); these
helpers do exactly that, so model tests go through the same handlers as a person's clicks.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SERVER = Path(__file__).with_name("widget_server.py")


def browser_sets(widget: Any, **state: Any) -> None:
    """What ``model.set(name, value); model.save_changes()`` does in the browser."""
    widget.set_state(state)


def browser_sends(widget: Any, **content: Any) -> None:
    """What ``model.send(content)`` does in the browser."""
    widget._handle_custom_msg(content, [])


def until(predicate: Callable[[], Any], timeout: float = 20, what: str = "the condition") -> Any:
    """Wait for ``predicate()`` to be truthy; its value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")


@contextmanager
def stdio_server(cwd: Path | None = None) -> Iterator[Any]:
    """A ``Lab`` on the test server (``widget_server.py``) started on stdio; closed after."""
    from kernel_tools import connect

    lab = connect(f"stdio:{sys.executable} {SERVER}", cwd=cwd, quiet=True, timeout=60)
    try:
        yield lab
    finally:
        lab.close()
