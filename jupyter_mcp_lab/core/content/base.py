"""What every kind of document is to the rest of the server: addressed text parts.

A document is stored as text (markdown, YAML, a notebook's JSON, an OPML file) and
edited as parts: a markdown file is one part, a notebook is one part per cell (addressed
by its nbformat cell id), an outline one part per row (by row id). Edits, suggestions and
their mapping through later changes work on a part's text, so they survive changes
elsewhere in the document: a suggestion on a cell follows that cell when others are
inserted above it, and becomes a conflict only when that cell itself changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..errors import DomainError
from ..kinds import DocumentKind
from ..revision import revision_of

WHOLE = ""  # the part id of a document that is one text


@dataclass(frozen=True)
class Part:
    """One addressed text of a document: a cell's source, a row's topic, a whole file."""

    id: str
    text: str
    type: str  # "text", "markdown", "code", "raw", "row"…

    @property
    def revision(self) -> str:
        return revision_of(self.text)


class DocumentContent(Protocol):
    """A parsed document of one kind. Immutable: a change returns a new content."""

    @property
    def kind(self) -> DocumentKind: ...

    def parts(self) -> list[Part]: ...

    def part(self, part_id: str) -> Part:
        """The part with this id (``NOT_FOUND`` when the document has none)."""
        ...

    def with_part(self, part_id: str, text: str) -> DocumentContent:
        """This content with one part's text replaced; the rest byte-identical."""
        ...

    def serialize(self) -> str:
        """The text stored for this content."""
        ...


def no_part(kind: str, part_id: str) -> DomainError:
    return DomainError("NOT_FOUND", f"this {kind} has no part {part_id!r}", part=part_id)


def find_part(parts: list[Part], kind: str, part_id: str) -> Part:
    for p in parts:
        if p.id == part_id:
            return p
    raise no_part(kind, part_id)
