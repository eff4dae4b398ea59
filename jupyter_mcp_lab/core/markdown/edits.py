"""Text and section edits on markdown: each returns TextEdits on the original text, so
everything an edit does not target stays byte-for-byte as it was (whole blocks: ``blocks``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import ArgumentError, DomainError
from ..text import TextEdit, newline_of
from .structure import Block, Section, Structure

MatchPolicy = Literal["first", "all", "nth", "error_if_multiple"]


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    line: int
    text: str


def find_spans(text: str, query: str, *, case_sensitive: bool = True, regex: bool = False) -> list[tuple[int, int]]:
    """Where ``query`` (literal, or a regular expression) occurs in ``text``: the non-empty,
    non-overlapping matches in order. Any text, not only markdown."""
    if not query:
        raise ArgumentError("the search text is empty", "query")
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        pattern = re.compile(query if regex else re.escape(query), flags | re.MULTILINE)
    except re.error as exc:
        raise ArgumentError(f"not a valid regular expression: {exc}", "query") from None
    return [m.span() for m in pattern.finditer(text) if m.end() > m.start()]


def find_matches(s: Structure, query: str, *, case_sensitive: bool = True, regex: bool = False) -> list[Match]:
    spans = find_spans(s.text, query, case_sensitive=case_sensitive, regex=regex)
    return [Match(a, z, s.lines.line_of(a), s.text[a:z]) for a, z in spans]


def pick(matches: list[Match], policy: MatchPolicy, nth: int | None, what: str) -> list[Match]:
    if not matches:
        raise DomainError("NOT_FOUND", f"{what} was not found in the document", match_count=0)
    if policy == "first":
        return matches[:1]
    if policy == "all":
        return matches
    if policy == "nth":
        if nth is None or not 0 <= nth < len(matches):
            raise ArgumentError(f"nth must be 0..{len(matches) - 1} ({len(matches)} matches)", "nth")
        return [matches[nth]]
    if len(matches) > 1:
        lines = ", ".join(str(m.line) for m in matches[:10])
        raise DomainError(
            "CONFLICT",
            f"{what} occurs {len(matches)} times (lines {lines}); add context or choose a match policy",
            match_count=len(matches),
        )
    return matches


def replace_matches(matches: Sequence[Match], replacement: str) -> list[TextEdit]:
    return [TextEdit(m.start, m.end, replacement) for m in matches]


def anchored(s: Structure, text: str, before: str = "", after: str = "") -> Match:
    """The one occurrence of ``text`` preceded by ``before`` and followed by ``after``.

    Context is matched exactly first, then with whitespace runs treated as equal (agents
    often re-wrap context). Several candidates or none is an error that says how many.
    """
    if not text:
        raise ArgumentError("anchor.text is empty", "anchor.text")
    exact = _anchor_candidates(s.text, re.escape(before), re.escape(text), re.escape(after))
    found = exact or _anchor_candidates(s.text, _loose(before), re.escape(text), _loose(after))
    if not found:
        raise DomainError("NOT_FOUND", "the anchor text with that context is not in the document")
    if len(found) > 1:
        lines = ", ".join(str(s.lines.line_of(a)) for a, _ in found[:10])
        raise DomainError(
            "CONFLICT",
            f"the anchor matches {len(found)} places (lines {lines}); give more context before or after it",
            match_count=len(found),
        )
    a, z = found[0]
    return Match(a, z, s.lines.line_of(a), s.text[a:z])


def _loose(context: str) -> str:
    if not context.strip():
        return ""
    # Whitespace at the edges counts too: "fox " must still be followed by whitespace.
    lead, trail = (r"\s+" if c.isspace() else "" for c in (context[0], context[-1]))
    return lead + r"\s+".join(re.escape(part) for part in context.split()) + trail


def _anchor_candidates(source: str, before: str, text: str, after: str) -> list[tuple[int, int]]:
    pattern = re.compile(f"(?:{before})({text})(?={after})" if before else f"({text})(?={after})")
    out = []
    pos = 0
    seen: set[tuple[int, int]] = set()
    while (m := pattern.search(source, pos)) is not None:
        if m.span(1) not in seen:
            seen.add(m.span(1))
            out.append(m.span(1))
        pos = m.start() + 1  # overlapping candidates count too (their context may overlap)
    return out


# --------------------------------------------------------------------------- sections


def section(s: Structure, node_id: str) -> Section:
    sec = s.section(node_id)
    if sec is None or (sec.heading is None and node_id != "preamble"):
        raise DomainError("NOT_FOUND", f"no section {node_id!r}; headings have ids h-0, h-1, …", node_id=node_id)
    return sec


def update_section(s: Structure, node_id: str, content: str, *, keep_heading: bool = False) -> TextEdit:
    """Replace a section's text (heading and body, or with ``keep_heading`` the body only).

    The blank lines that separate the section from the next heading are kept.
    """
    sec = section(s, node_id)
    nl = newline_of(s.text)
    end = _trim_trailing_blank(s.text, sec.start, sec.end)
    body = content.strip("\r\n")
    if keep_heading and sec.heading is not None:
        return TextEdit(sec.heading.end, end, (nl + nl + body) if body else "")
    return TextEdit(sec.start, end, body)


def _trim_trailing_blank(text: str, start: int, end: int) -> int:
    """``end`` moved back over the blank lines before it (they separate sections)."""
    while end > start and text[end - 1] in "\r\n":
        end -= 1
    return end


def _place(s: Structure, after: str) -> Section | Block:
    """The section (id or title) or else the block ``after`` names: where a section goes."""
    found = s.section(after) or s.by_id.get(after)
    if found is None:
        raise DomainError("NOT_FOUND", f"no section or block {after!r}", argument="after")
    return found


def insert_section(s: Structure, after: str | None, level: int, title: str, content: str = "") -> TextEdit:
    """A new section after the section (or block) ``after``; None puts it at the end."""
    if not 1 <= level <= 6:
        raise ArgumentError("level must be 1..6", "level")
    if "\n" in title or "\r" in title:
        raise ArgumentError("a heading title is one line", "title")
    nl = newline_of(s.text)
    new = "#" * level + " " + title.strip()
    if content.strip():
        new += nl + nl + content.strip("\r\n")
    if after is None:
        at = _trim_trailing_blank(s.text, 0, len(s.text))
    else:
        place = _place(s, after)
        at = _trim_trailing_blank(s.text, 0, place.end) if isinstance(place, Section) else place.end
    lead = (nl + nl) if at > 0 else ""
    trail = nl if at == len(s.text) or not s.text[at:].startswith(nl) else ""
    return TextEdit(at, at, lead + new + trail)


def move_section(s: Structure, node_id: str, after: str | None) -> list[TextEdit]:
    """Cut a section and paste it after section (or block) ``after``; None: to the end.

    Sections keep one blank line between them wherever they land.
    """
    text = s.text
    dest_sec = None
    if after is None:
        dest = len(text)
    else:
        place = _place(s, after)
        dest_sec = place if isinstance(place, Section) else None
        # After a block: where its text ends (the section follows after a blank line).
        dest = place.end
    sec = section(s, node_id)
    if dest == sec.end or dest == sec.start:
        return []  # already there
    if sec.start < dest < sec.end:
        raise ArgumentError("cannot move a section into itself", "after")
    nl = newline_of(text)
    body = text[sec.start : _trim_trailing_blank(text, sec.start, sec.end)]
    cut = TextEdit(sec.start, sec.end, "")
    if sec.end == len(text) and sec.start > 0:
        # The last section leaves: so do the blank lines that set it apart.
        keep = _trim_trailing_blank(text, 0, sec.start)
        cut = TextEdit(min(keep + len(nl), sec.start), sec.end, "")
    if dest < len(text) and dest_sec is None:
        return [cut, TextEdit(dest, dest, nl + nl + body)]
    if dest < len(text):
        # dest is the start of a heading line: the section goes before it, then a blank line.
        return [cut, TextEdit(dest, dest, body + nl + nl)]
    # At the end: whatever ended the text before, exactly one blank line, then the section.
    before = text[: sec.start] + text[sec.end :] if sec.end == len(text) else text
    tail = before[len(before.rstrip("\r\n")) :]
    lead = nl + nl if not tail else (nl if tail.count("\n") + tail.count("\r") - tail.count("\r\n") == 1 else "")
    end_break = nl if text.endswith(("\n", "\r")) else ""
    return [cut, TextEdit(dest, dest, lead + body + end_break)]
