"""Markdown structure and edits, from markdown-it-py tokens with their line maps."""

from .structure import Block, Section, Structure, structure_of

__all__ = ["Block", "Section", "Structure", "structure_of"]
