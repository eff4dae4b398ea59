"""The review widgets' model, as pure functions: API answers → compact card dicts.

No widgets, no I/O: the suggestion review widget, the document view and the Panel board
build what they show from these, and the tests check them without a browser. A card is
what the front end draws for one suggestion; its ``diff`` is a word diff of the original
text and the new one, ``[[op, text], ...]`` with ``op`` one of ``=``, ``-``, ``+``.
"""

from __future__ import annotations

import re
import time
from difflib import SequenceMatcher
from typing import Any

Segment = list[str]  # [op, text]

# Above this many characters (original + new), a word diff is too slow: diff whole lines.
WORD_DIFF_CHARS = 20_000
# Unchanged runs longer than this keep their ends only (the change is what the person reads).
CONTEXT_CHARS = 40
# A card's diff shows at most this much text; the full diff is one click away.
CARD_DIFF_CHARS = 3_000

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Words, runs of white space and single punctuation marks (they join back to ``text``)."""
    return _TOKEN.findall(text)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def word_diff(original: str, new: str) -> list[Segment]:
    """``original`` → ``new`` as ``[[op, text], ...]``: ``=`` kept, ``-`` deleted, ``+`` inserted.

    Words are the unit (a line diff when the texts are long); adjacent segments of one kind
    are merged, and a deletion comes before the insertion that replaces it.
    """
    split = tokens if len(original) + len(new) <= WORD_DIFF_CHARS else _lines
    a, b = split(original), split(new)
    out: list[Segment] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1][1] += text
        else:
            out.append([op, text])

    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            add("=", "".join(a[i1:i2]))
        else:
            add("-", "".join(a[i1:i2]))
            add("+", "".join(b[j1:j2]))
    return _regroup(out)


def _regroup(segments: list[Segment]) -> list[Segment]:
    """Between two kept runs, all deletions first, then all insertions ("a b" → "c d" reads
    as -a b +c d, not -a +c = -b +d, when only white space is shared)."""
    out: list[Segment] = []
    i = 0
    while i < len(segments):
        if segments[i][0] == "=" and not (segments[i][1].isspace() and _changed_around(segments, i)):
            out.append(segments[i])
            i += 1
            continue
        dels, ins = [], []
        while i < len(segments) and not (
            segments[i][0] == "=" and not (segments[i][1].isspace() and _changed_around(segments, i))
        ):
            op, text = segments[i]
            if op in ("-", "="):
                dels.append(text)
            if op in ("+", "="):
                ins.append(text)
            i += 1
        if dels:
            out.append(["-", "".join(dels)])
        if ins:
            out.append(["+", "".join(ins)])
    return out


def _changed_around(segments: list[Segment], i: int) -> bool:
    """A white-space run with changes on both sides belongs to the change."""
    return 0 < i < len(segments) - 1 and segments[i - 1][0] != "=" and segments[i + 1][0] != "="


def compact(segments: list[Segment], context: int = CONTEXT_CHARS, limit: int = CARD_DIFF_CHARS) -> list[Segment]:
    """Long unchanged runs keep ``context`` characters at each end (``…`` between); at most
    ``limit`` characters in all, the rest replaced by one ``["…", "N more characters"]``."""
    out: list[Segment] = []
    last = len(segments) - 1
    for i, (op, text) in enumerate(segments):
        if op == "=" and len(text) > 2 * context + 1:
            head = text[:context] if i > 0 else ""
            tail = text[-context:] if i < last else ""
            text = f"{head}…{tail}"
        out.append([op, text])
    shown, cut = 0, []
    for op, text in out:
        if shown + len(text) > limit:
            cut.append([op, text[: max(limit - shown, 0)]])
            rest = sum(len(t) for _, t in out) - limit
            cut.append(["…", f"{rest} more characters"])
            return [s for s in cut if s[1]]
        cut.append([op, text])
        shown += len(text)
    return cut


def line_range(suggestion: dict[str, Any]) -> str:
    """``line 3`` or ``lines 3-5`` (with an en dash, as the JupyterLab panel writes it)."""
    start, end = suggestion.get("lineStart") or 1, suggestion.get("lineEnd") or 1
    return f"lines {start}\u2013{end}" if end > start else f"line {start}"


def age_text(seconds: float) -> str:
    """``just now``, ``40 s ago``, ``3 min ago``, ``2 h ago``, ``5 d ago``."""
    if seconds < 10:
        return "just now"
    if seconds < 60:
        return f"{int(seconds)} s ago"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} d ago"


CONFLICT_REASON = "The original text changed since this was suggested; nothing was applied."


def card(suggestion: dict[str, Any], parts: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """What the front end draws for one suggestion (a conflict keeps its ``reason``).

    A change to one part of a document (a notebook cell, an outline row) also has ``part``:
    what happens to that part, in words (``parts``: the document's parts as they are now,
    :func:`cell_changes.cell_index` or :func:`outline_model.row_index`, when known)."""
    original, new = suggestion.get("original") or "", suggestion.get("new") or ""
    status = suggestion.get("status", "pending")
    part = describe_part(suggestion, parts) if suggestion.get("part") else None
    if part is not None and not part.pop("text", True):
        original = new = ""  # a move or a field change: the part's text is the same on both sides
    out = {
        "id": suggestion["id"],
        "path": suggestion.get("path", ""),
        "author": suggestion.get("author") or "an agent",
        "rationale": suggestion.get("rationale") or "",
        "created": float(suggestion.get("created") or 0),
        "lines": line_range(suggestion),
        "line": int(suggestion.get("lineStart") or 1),
        "start": int(suggestion.get("start") or 0),
        "status": status,
        "diff": compact(word_diff(original, new)),
    }
    if part is not None:
        if "order" in part:
            out["line"] = int(part.pop("order")) + 1  # sorted by the part's position in the document
        out["part"] = part
        out["lines"] = part["label"]
    if status == "conflict":
        out["reason"] = suggestion.get("reason") or CONFLICT_REASON
    return out


def describe_part(suggestion: dict[str, Any], parts: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
    """A part's change in words: a notebook's cell (``.ipynb``), else an outline's row; with
    ``text``: whether the card's word diff of the part's text says anything."""
    if str(suggestion.get("path", "")).endswith(".ipynb"):
        from . import cell_changes as words
    else:
        from . import outline_model as words  # type: ignore[no-redef]
    return {**words.describe(suggestion, parts), "text": words.shows_text(suggestion)}


def sort_key(c: dict[str, Any]) -> tuple[str, int, int, float]:
    """Documents by path, then suggestions in document order."""
    return (c["path"], c["line"], c["start"], c["created"])


def counts(cards: list[dict[str, Any]]) -> dict[str, int]:
    """The header's numbers: pending, conflicts, documents with pending suggestions."""
    pending = [c for c in cards if c["status"] == "pending"]
    return {
        "pending": len(pending),
        "conflict": sum(1 for c in cards if c["status"] == "conflict"),
        "documents": len({c["path"] for c in pending}),
    }


class ReviewState:
    """The pending suggestions (of ``path``, or all) and the conflicts seen, by id.

    Every update is absolute (a suggestion with its status), so replaying events already
    reflected in a fetched list changes nothing: the state converges whatever the order of
    a fetch and the events around it.
    """

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self.pending: dict[str, dict[str, Any]] = {}
        self.conflicts: dict[str, dict[str, Any]] = {}
        self.dismissed: set[str] = set()
        # Documents with part changes: their parts as they are now (path → id → info), and
        # the part suggestions as the server gave them, so new parts redraw their cards.
        self.parts: dict[str, dict[str, dict[str, Any]]] = {}
        self._part_suggestions: dict[str, dict[str, Any]] = {}

    def load(self, answer: dict[str, Any]) -> None:
        """A ``GET suggestions?status=pending`` answer replaces the pending ones."""
        mine = [s for s in answer.get("suggestions", []) if self._mine(s)]
        self._part_suggestions = {s["id"]: s for s in mine if s.get("part")}
        self.pending = {s["id"]: self._card(s) for s in mine}
        for sid in self.pending:
            self.conflicts.pop(sid, None)

    def part_paths(self) -> set[str]:
        """The documents whose pending cards name parts (their parts are worth reading)."""
        return {s["path"] for sid, s in self._part_suggestions.items() if sid in self.pending}

    def set_parts(self, path: str, parts: dict[str, dict[str, Any]]) -> bool:
        """The parts of ``path`` as they are now; True if a card changed."""
        if self.parts.get(path) == parts:
            return False
        self.parts[path] = parts
        changed = False
        for sid, s in self._part_suggestions.items():
            if s.get("path") == path and sid in self.pending:
                self.pending[sid] = self._card(s)
                changed = True
        return changed

    def _card(self, suggestion: dict[str, Any]) -> dict[str, Any]:
        return card(suggestion, self.parts.get(suggestion.get("path", "")))

    def apply(self, suggestion: dict[str, Any]) -> bool:
        """One suggestion as it is now (an event's, or an accept's answer); True if it changed anything."""
        if not self._mine(suggestion):
            return False
        sid, status = suggestion["id"], suggestion.get("status")
        if status == "pending":
            if suggestion.get("part"):
                self._part_suggestions[sid] = suggestion
            self.pending[sid] = self._card(suggestion)
            return True
        self._part_suggestions.pop(sid, None)
        changed = self.pending.pop(sid, None) is not None
        if status == "conflict" and sid not in self.dismissed:
            self.conflicts[sid] = self._card(suggestion)
            return True
        return changed

    def dismiss(self, sid: str) -> bool:
        """Hide a conflict the person has read."""
        self.dismissed.add(sid)
        return self.conflicts.pop(sid, None) is not None

    def cards(self) -> list[dict[str, Any]]:
        """Conflicts first (they need reading), then the pending ones, each in document order."""
        return sorted(self.conflicts.values(), key=sort_key) + sorted(self.pending.values(), key=sort_key)

    def ids(self, path: str | None = None) -> list[str]:
        """The pending ones shown (of ``path``): what "Accept all" means to the person."""
        return [c["id"] for c in sorted(self.pending.values(), key=sort_key) if path is None or c["path"] == path]

    def _mine(self, suggestion: dict[str, Any]) -> bool:
        return self.path is None or suggestion.get("path") == self.path


def now() -> float:
    """The kernel's clock (Unix time), sent beside the cards so ages stay right in any browser."""
    return time.time()
