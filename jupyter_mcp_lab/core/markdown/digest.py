"""Counts that sum a markdown document up: words, lines, blocks per type, sections.

One digest for every surface: each maps it onto its own result shape (field names, type
names). Words are counted by ``text.word_count``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

from ..text import word_count
from .structure import Block, Structure


def line_count(s: Structure) -> int:
    """Lines of text: a final line break ends the last line, it does not start another."""
    return s.lines.line_count - (1 if s.text.endswith(("\n", "\r")) else 0)


@dataclass(frozen=True)
class Digest:
    title: str | None  # the first level-1 heading
    lines: int
    characters: int
    words: int
    block_counts: dict[str, int]  # by the type names ``document_digest`` was given
    headings: int
    paragraphs: int
    front_matter: bool
    list_kinds: dict[str, int]  # lists by kind: bullet, ordered, task


@dataclass(frozen=True)
class SectionDigest:
    id: str
    level: int
    title: str
    start: int
    end: int
    line_start: int
    line_end: int
    words: int


def document_digest(s: Structure, type_name: Callable[[Block], str] | None = None) -> Digest:
    """The document's counts; ``type_name`` names block types in ``block_counts`` (default:
    the structure's own names)."""
    counts: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for b in s.blocks:
        counts[b.type] = counts.get(b.type, 0) + 1
        if b.type == "list":
            kind = "task" if b.task else "ordered" if b.ordered else "bullet"
            kinds[kind] = kinds.get(kind, 0) + 1
    named = counts
    if type_name is not None:
        named = {}
        for b in s.blocks:
            name = type_name(b)
            named[name] = named.get(name, 0) + 1
    return Digest(
        title=next((b.title for b in s.headings if b.level == 1), None),
        lines=line_count(s),
        characters=len(s.text),
        words=word_count(s.text),
        block_counts=named,
        headings=counts.get("heading", 0),
        paragraphs=counts.get("paragraph", 0),
        front_matter="front_matter" in counts,
        list_kinds=kinds,
    )


def section_digests(s: Structure) -> list[SectionDigest]:
    """Every section (the preamble too) with its range and word count.

    Sections nest, so counting each one's text would read a deep document several times
    over. Each stretch between two consecutive section starts is counted once (a start is a
    line start, so no word straddles two stretches) and a section sums the stretches it spans.
    """
    sections = s.sections
    if not sections:
        return []
    starts = [x.start for x in sections]
    bounds = [*starts[1:], len(s.text)]
    prefix = [0]
    for a, b in zip(starts, bounds, strict=True):
        prefix.append(prefix[-1] + word_count(s.text[a:b]))
    out = []
    for i, x in enumerate(sections):
        j = bisect_left(starts, x.end, lo=i + 1)  # the first section starting at or after its end
        words = prefix[j] - prefix[i] - (word_count(s.text[x.end : bounds[j - 1]]) if x.end < bounds[j - 1] else 0)
        out.append(SectionDigest(x.id, x.level, x.title, x.start, x.end, x.line_start, x.line_end, words))
    return out
