"""Markdown, YAML and plain text: the whole file is one part."""

from __future__ import annotations

from dataclasses import dataclass

from ..kinds import DocumentKind
from .base import WHOLE, Part, no_part


@dataclass(frozen=True)
class TextContent:
    kind: DocumentKind
    text: str

    @classmethod
    def parse(cls, kind: DocumentKind, text: str) -> TextContent:
        return cls(kind, text)

    def parts(self) -> list[Part]:
        return [Part(WHOLE, self.text, "markdown" if self.kind == "markdown" else "text")]

    def part(self, part_id: str) -> Part:
        if part_id != WHOLE:
            raise no_part(self.kind, part_id)
        return self.parts()[0]

    def with_part(self, part_id: str, text: str) -> TextContent:
        if part_id != WHOLE:
            raise no_part(self.kind, part_id)
        return TextContent(self.kind, text)

    def serialize(self) -> str:
        return self.text
