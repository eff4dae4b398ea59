"""The last few things made from a text, found again by its revision (agents read, then
edit, then read the same text: its structure and its outline are not made twice)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from ..revision import revision_of

T = TypeVar("T")


class TextMemo(Generic[T]):
    def __init__(self, make: Callable[[str], T], source: Callable[[T], str], size: int) -> None:
        """``make(text)`` builds; ``source(made)`` is the text it was built from (a hit is
        checked against it, so a hash collision never answers another text's result)."""
        self._make, self._source, self._size = make, source, size
        self._items: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, text: str) -> T:
        key = revision_of(text)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None and self._source(hit) == text:
                self._items.move_to_end(key)
                return hit
        made = self._make(text)  # outside the lock: another text's reader need not wait
        with self._lock:
            self._items[key] = made
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return made

    def clear(self) -> None:
        """Forget everything (benchmarks time a first parse)."""
        with self._lock:
            self._items.clear()
