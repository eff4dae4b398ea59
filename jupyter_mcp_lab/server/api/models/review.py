"""Suggestions, checkpoints and grants: the records a person reviews, and their lists."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import MISSING, Field

from .base import Body, Count, Line, Offset


class PartChange(Body):
    """A structural change of one part: a notebook cell or outline row inserted, deleted, moved, or fields set."""

    op: Literal["insert", "delete", "move", "set"]
    after: str | None = Field(
        description="insert, move: the part it goes after (a row: the sibling under its parent); null: first."
    )
    index: int = Field(
        description="insert, move: the position used when `after` is gone (a row: among its parent's children)."
    )
    fields: dict[str, Any] = Field(
        description="A cell's: insert: the new cell (its outputs as `outputCount`); set: the fields set "
        "(`cell_type`, `metadata`, outputs as `outputCount`). A row's (the part is its id): `topic` (set: the new "
        "one, when it changes; else the row's); insert and move: `parent` (the parent row's id, null: the top "
        "level); insert: `note`, `state` and `children` (nested rows, each with `id`, `topic`, `note`, `state`, "
        "`children`); set: `note` (empty: removed) and `state` (checked, unchecked, mixed, none)."
    )


class SuggestedCell(Body):
    """The notebook cell a suggestion changes, as the suggestion's base revision has it."""

    index: int = Field(description="Its 0-based position among the notebook's cells.")
    cellType: Literal["code", "markdown", "raw"]
    outputCount: int = Field(description="How many outputs it has (0 for markdown and raw cells).")
    tags: list[str] = Field(description="Its `metadata.tags`.")


class Suggestion(Body):
    """A change an agent proposed: `original` (`start`..`end` of the base text) becomes `new`."""

    id: str
    path: str = Field(description="The document: a root-relative path, or an untitled key.")
    kind: str = Field(description="insert, replace, delete, move, ...")
    start: Offset = Field(description="Code point offset in the base revision.")
    end: Offset
    original: str
    new: str
    baseRevision: str
    author: str = Field(description="The MCP client's name.")
    user: str
    session: str
    rationale: str
    operation: str
    group: str | None = Field(description="Set when one change was split into hunks.")
    created: float
    status: Literal["pending", "accepted", "rejected", "conflict"]
    decided: float | None
    decidedBy: str | None
    resultRevision: str | None
    reason: str | None = Field(description="Why it conflicted.")
    lineStart: Line
    lineEnd: Line
    part: str | None = Field(
        None,
        description="Set for a change to one part of a structured document: the notebook cell or outline row id. "
        "Then `start`, `end`, `original`, `new`, `lineStart`, `lineEnd`, `currentStart` and `currentEnd` are in "
        "that part's text (a row's: its topic), and `change` (when set) is a structural change of that part.",
    )
    change: PartChange | None = Field(None, description="A part's structural change; null for a text change.")
    currentStart: Offset | MISSING | None = Field(
        MISSING,
        description="Only in a list answered with `locate=true`: the code point offset of its original text in "
        "the document as the server reads it now (the list's `revision` with `path`); null when it is not "
        "pending or cannot be placed (its text changed: accepting it would conflict).",
    )
    currentEnd: Offset | MISSING | None = Field(MISSING, description="With `currentStart`: the end (exclusive).")
    contextBefore: str | MISSING | None = Field(
        MISSING,
        description="Only in a list answered with `context=N`: the text from the start of the line N lines "
        "above the change to the change (so `contextBefore + original + contextAfter` are whole lines). It is the "
        "current text where a list answered with `locate=true` placed the suggestion (`currentStart`), else the "
        "base text; null once the base text is gone.",
    )
    contextAfter: str | MISSING | None = Field(
        MISSING,
        description="With `contextBefore`: the same text from the change to the end of the line N lines below it "
        "(its line break included).",
    )
    cell: SuggestedCell | MISSING | None = Field(
        MISSING,
        description="Only in a list answered with `context=N` and in `suggestions/{id}`, for a notebook cell's "
        'change: that cell as the base revision has it (a reviewer reads "cell 3, code, 2 outputs"); null for '
        "an inserted cell (`change.fields` is the new cell), for other documents, or once the base text is gone.",
    )


class SuggestionDetail(Suggestion):
    diff: str | None = Field(
        description="Unified diff (3 lines of context) against its base text; null once that text is gone."
    )


class SuggestionList(Body):
    suggestions: list[Suggestion]
    count: Count
    revision: str | MISSING | None = Field(
        MISSING,
        description="Only with `locate=true`: the revision of the text of `path` that `currentStart` and "
        "`currentEnd` index into; null without `path`, or when that document cannot be read (no such file, "
        "not UTF-8 text: then nothing is placed).",
    )
    counts: dict[str, dict[str, Count]] = Field(
        description="Every document's suggestions by status, {path: {status: n}}, whatever the filters."
    )


class ReapplyPreview(Body):
    """Where re-applying a suggestion would stage its change in the current text, and what it would put there."""

    suggestionId: str
    path: str
    revision: str = Field(description="The document's revision the preview was made against.")
    start: Offset = Field(description="Code point offset in that revision.")
    end: Offset
    lineStart: Line
    lineEnd: Line
    current: str = Field(description="The text there now: what the new suggestion would replace.")
    new: str = Field(description="What it would put there.")
    clean: bool = Field(
        description="True when the person's edits there and the suggestion's change were both kept; false when "
        "they overlap and the suggestion's version of that stretch replaces the person's."
    )
    contextBefore: str = Field(description="The current text from the start of the line 2 lines above.")
    contextAfter: str = Field(description="The current text to the end of the line 2 lines below.")


class ReapplyResult(Body):
    previous: Suggestion = Field(description="The suggestion re-applied, now rejected (its reason names the new one).")
    suggestion: Suggestion = Field(description="The new pending suggestion against the current text.")


class AcceptAllResult(Body):
    accepted: list[Suggestion]
    conflicts: list[Suggestion]
    revision: str | None = Field(description="The last changed document's revision; null when nothing was applied.")


class RejectAllResult(Body):
    rejected: list[Suggestion]


class CheckpointCellChange(Body):
    """One cell a notebook checkpoint changed, in the shape of a cell suggestion's fields."""

    part: str = Field(description="The cell's id.")
    change: PartChange | None = Field(
        description="insert (`fields`: the new cell, its source cut), delete, move (`index`: where it went), set "
        "(`fields`: `cell_type`, `metadata` as its `tags`, `outputCount` and `execution_count` when outputs "
        "changed); null for a source edit."
    )
    cell: SuggestedCell | None = Field(description="The cell before the change; null for an added one.")
    original: str = Field(description="A source edit's changed lines before (a removed cell: its source).")
    new: str = Field(description="A source edit's changed lines after.")
    lineStart: Line = Field(description="A source edit's first changed line in the cell.")
    lineEnd: Line
    contextBefore: str = Field(description="The lines before the changed ones (up to 2).")
    contextAfter: str = Field(description="The lines after them (up to 2).")


class CheckpointCells(Body):
    """A notebook checkpoint's change told by cell, in notebook order."""

    changes: list[CheckpointCellChange] = Field(description="At most 20; texts cut at 4,000 characters.")
    more: Count = Field(description="How many more cell changes there were.")


class CheckpointRecord(Body):
    """An applied agent change as stored (and as `checkpoint` events carry it)."""

    id: str
    path: str
    beforeRevision: str
    afterRevision: str
    start: Offset = Field(description="Code point offset of the change (of its first place) in the text before it.")
    old: str = Field(
        description="The text the change replaced. A change in several places far apart in a long document "
        'lists each place\'s text, joined by "\\n…\\n" (the diff of `checkpoints/{id}` shows them in context).'
    )
    new: str = Field(description="The text it put there (several places joined the same way).")
    author: str
    user: str
    session: str
    source: Literal["auto", "accepted", "grant", "revert", "person"]
    suggestionId: str | None
    grantId: str | None
    created: float
    revertedBy: str | None = Field(description="The checkpoint that reverted this one.")
    label: str
    rationale: str = Field(description="The agent's rationale (an accepted suggestion's); \"\" when none was recorded.")
    cells: CheckpointCells | None = Field(
        description="A notebook's change told by cell (added, removed, moved, source edited, type, tags or outputs "
        "set); null for other documents, a change to no cell, and checkpoints made before cells were recorded.",
    )


class Checkpoint(CheckpointRecord):
    """An applied agent change with the lines it touched."""

    lineStart: Line | None = Field(
        description="First line the change touched (in the text after it); null once the stored texts are pruned."
    )
    lineEnd: Line | None


class CheckpointDetail(Checkpoint):
    diff: str = Field(description="Unified diff of old → new (with context while the text is stored).")


class CheckpointList(Body):
    checkpoints: list[Checkpoint]
    count: Count


class GrantRecord(Body):
    """A trust grant as stored (and as `grant` events carry it)."""

    id: str
    scope: str = Field(description='A file, a folder ending in "/", or "" for the whole workspace.')
    agent: str
    agentKind: Literal["session", "client"]
    created: float
    expires: float
    createdBy: str
    revoked: float | None


class Grant(GrantRecord):
    """A trust grant and whether it is active now."""

    active: bool


class GrantList(Body):
    grants: list[Grant]
