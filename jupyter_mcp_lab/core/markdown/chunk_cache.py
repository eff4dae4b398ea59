"""Parsed chunks by their text, so an edit re-parses only the chunk it changed."""

from __future__ import annotations

import threading
from collections import OrderedDict

from .block_parser import block_parser
from .raw_blocks import RawBlock, parse_chunk

Parsed = tuple[list[RawBlock], bool]


class ChunkCache:
    """Bounded and thread-safe (the parser is not)."""

    def __init__(self, max_chunks: int = 20_000) -> None:
        self._md_first = block_parser()
        self._md_rest = block_parser(front_matter=False)  # front matter only counts at the very start
        self._cache: OrderedDict[str, Parsed] = OrderedDict()
        self._lock = threading.Lock()
        self.max_chunks = max_chunks

    @staticmethod
    def _key(chunk: str, first: bool) -> str:
        return ("F" if first else "R") + chunk

    def blocks(self, chunk: str, first: bool) -> Parsed:
        """The chunk's blocks, and whether a ``$$`` in it was left open at its end."""
        key = self._key(chunk, first)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
            return self._put(key, parse_chunk(self._md_first if first else self._md_rest, chunk))

    def _put(self, key: str, parsed: Parsed) -> Parsed:
        self._cache[key] = parsed
        while len(self._cache) > self.max_chunks:
            self._cache.popitem(last=False)
        return parsed

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()


CHUNKS = ChunkCache()
