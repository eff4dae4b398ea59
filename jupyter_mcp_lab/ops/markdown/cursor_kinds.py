"""The changes ``cursor.edit`` makes at a tab's cursor or selection, one model per ``kind``.

Text (insert, replace, delete) works in any document; the rest is markdown. Positions are
the cursor's (the selection's head) or the selection's, never offsets an agent computes,
except ``insert`` with ``at``.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ...core.jsonschema import flat_union
from ...core.markdown.at_cursor import BlockKind, ListKind, Side

MAX_ROWS, MAX_COLS = 1000, 100


class _Kind(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Insert(_Kind):
    kind: Literal["insert"]
    text: str = Field(description="Text to insert (markdown source, verbatim) or the replacement.")
    at: int | None = Field(None, ge=0, description="insert: a code point offset instead of the cursor.")


class Replace(_Kind):
    """The selected text becomes ``text`` (nothing selected: ``text`` goes in at the cursor)."""

    kind: Literal["replace"]
    text: str


class Delete(_Kind):
    kind: Literal["delete"]


class Format(_Kind):
    kind: Literal["format"]
    mark: Literal["bold", "italic", "code", "strike", "underline", "highlight", "clear"] = Field(
        description="Toggled on the selection; clear removes marks and links."
    )


class Link(_Kind):
    kind: Literal["link"]
    url: str | None = Field(None, description="link: the target; none removes the links there.")
    title: str | None = None


class Block(_Kind):
    kind: Literal["block"]
    type: BlockKind
    level: int | None = Field(None, ge=1, le=6)
    language: str | None = None
    toggle: bool = Field(False, description="block: back to a paragraph when it already has the type.")


class ListToggle(_Kind):
    kind: Literal["list"]
    type: ListKind


class Indent(_Kind):
    kind: Literal["indent", "outdent"]


class Table(_Kind):
    kind: Literal["table"]
    change: Literal["insert", "delete", "add_row", "delete_row", "add_column", "delete_column", "toggle_header_row"]
    rows: int | None = Field(None, ge=1, le=MAX_ROWS, description="insert: rows (a header row counts).")
    cols: int | None = Field(None, ge=1, le=MAX_COLS)
    header: bool = Field(True, description="insert: the first row is a header row.")
    side: Side = Field("after", description="add_row, add_column: of the cursor's row or column.")


class Rule(_Kind):
    kind: Literal["rule"]


class Math(_Kind):
    kind: Literal["math"]
    latex: str = Field(description="Without dollar signs.")
    display: bool = Field(False, description="math: a block ($$ on lines of its own), not inline.")


class Mermaid(_Kind):
    kind: Literal["mermaid"]
    code: str


class WikiLink(_Kind):
    kind: Literal["wikilink"]
    target: str
    alias: str | None = None


KINDS: tuple[type[_Kind], ...] = (
    Insert,
    Replace,
    Delete,
    Format,
    Link,
    Block,
    ListToggle,
    Indent,
    Table,
    Rule,
    Math,
    Mermaid,
    WikiLink,
)
CursorEdit = Annotated[
    Insert | Replace | Delete | Format | Link | Block | ListToggle | Indent | Table | Rule | Math | Mermaid | WikiLink,
    Field(discriminator="kind"),
]
assert set(get_args(get_args(CursorEdit)[0])) == set(KINDS)


# The published schema of a change: one flat object (core.jsonschema.flat_union), without
# descriptions or bounds: the tool that publishes it says which kind takes what, and the
# union itself still validates each change exactly, bounds included.
SCHEMA = flat_union(
    (m.model_json_schema() for m in KINDS), "kind", drop=frozenset({"description", "minimum", "maximum"})
)
