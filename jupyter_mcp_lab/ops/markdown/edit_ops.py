"""The edits ``document.edit`` takes, one model each, and the flat schema it publishes."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ...core.jsonschema import flat_union
from ...core.markdown import edits as md


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Insert(_Op):
    op: Literal["insert"]
    at: int = Field(ge=0)
    text: str


class Replace(_Op):
    op: Literal["replace"]
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class Delete(_Op):
    op: Literal["delete"]
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class FindReplace(_Op):
    op: Literal["find_replace"]
    find: str
    replace: str
    match: md.MatchPolicy = "error_if_multiple"
    nth: int | None = Field(None, ge=0, description="0-based.")
    caseSensitive: bool = True
    regex: bool = False
    optional: bool = Field(False, description="No match: no NOT_FOUND.")


class Anchored(_Op):
    op: Literal["anchored"]
    text: str = Field(description="The exact text to replace.")
    replacement: str
    before: str = ""  # text just before it, to tell it from other occurrences
    after: str = ""


class UpdateBlock(_Op):
    op: Literal["update_block"]
    nodeId: str
    content: str
    keepHeading: bool = Field(
        False,
        description="Keep the heading (update_section: replace the body only).",
    )


class InsertBlock(_Op):
    op: Literal["insert_block"]
    after: str | None = Field(None, description="Node id to insert after (none: at the top).")
    content: str


class DeleteBlock(_Op):
    op: Literal["delete_block"]
    nodeId: str


class MoveBlock(_Op):
    op: Literal["move_block"]
    nodeId: str
    after: str | None = Field(None, description="Node id to move it after (none: to the top).")


class UpdateSection(_Op):
    op: Literal["update_section"]
    nodeId: str = Field(description="The section's heading id (h-2) or title.")
    content: str
    keepHeading: bool = Field(False, description="Replace the body only.")


class InsertSection(_Op):
    op: Literal["insert_section"]
    after: str | None = Field(None, description="Section or block id to insert after (none: at the end).")
    level: int = Field(ge=1, le=6)
    title: str
    content: str = ""


class MoveSection(_Op):
    op: Literal["move_section"]
    nodeId: str
    after: str | None = Field(None, description="Section or block id to move after (none: to the end).")


class Format(_Op):
    op: Literal["format"]
    start: int | None = Field(None, ge=0)
    end: int | None = Field(None, ge=0)
    nodeId: str | None = Field(None, description="Instead of start/end: a paragraph's text or a heading's title.")
    text: str | None = Field(None, description="With nodeId: the part of the node to format.")
    mark: Literal["bold", "italic", "code", "strike", "underline", "highlight", "clear"] = Field(
        description="Toggled on the range; clear removes marks and links."
    )


class Link(_Op):
    op: Literal["link"]
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    url: str | None = Field(None, description="None: unlink the range.")
    title: str | None = None


class BlockType(_Op):
    op: Literal["block_type"]
    nodeId: str = Field(description="Block id (or an offset inside the block, as a string of digits).")
    type: Literal["paragraph", "heading", "blockquote", "codeBlock", "bulletList", "orderedList", "taskList"]
    level: int | None = Field(None, ge=1, le=6)
    language: str | None = None


class InsertSpecial(_Op):
    op: Literal["insert_hr", "insert_math", "insert_math_block", "insert_mermaid", "insert_wikilink"]
    at: int = Field(ge=0)
    text: str = Field("", description="LaTeX, mermaid code, or the wiki link target.")
    alias: str | None = None
    heading: str | None = None


class Table(_Op):
    op: Literal["table"]
    nodeId: str | None = Field(None, description="The table (none with rows/cols: insert a new one at `at`).")
    operations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="add_row {index?, cells?}, delete_row {row}, add_column {index?, header?, cells?}, "
        "delete_column {col}, set_cell {row, col, value}, toggle_header_row.",
    )
    at: int | None = Field(None, ge=0)
    rows: int | None = Field(None, ge=1)
    cols: int | None = Field(None, ge=1)
    header: list[str] | None = None


class ListEdit(_Op):
    op: Literal["list"]
    nodeId: str | None = Field(None, description="The list for operations.")
    operations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="add_item {index, text}, delete_item {index}, set_text {index, text}, set_checked "
        "{index, checked}, move_item {from, to}, indent {index}, outdent {index}.",
    )
    start: int | None = Field(None, ge=0, description="With kind or indent: the range of lines to change.")
    end: int | None = Field(None, ge=0)
    kind: Literal["bullet", "ordered", "task"] | None = Field(None, description="Toggled on the range.")
    indent: int | None = Field(None, description="+1 indents, -1 outdents the range.")


TEXT_OPS: tuple[type[_Op], ...] = (Insert, Replace, Delete, FindReplace, Anchored)
MARKDOWN_ONLY: tuple[type[_Op], ...] = (
    UpdateBlock,
    InsertBlock,
    DeleteBlock,
    MoveBlock,
    UpdateSection,
    InsertSection,
    MoveSection,
    Format,
    Link,
    BlockType,
    InsertSpecial,
    Table,
    ListEdit,
)
EditOp = Annotated[
    Insert
    | Replace
    | Delete
    | FindReplace
    | Anchored
    | UpdateBlock
    | InsertBlock
    | DeleteBlock
    | MoveBlock
    | UpdateSection
    | InsertSection
    | MoveSection
    | Format
    | Link
    | BlockType
    | InsertSpecial
    | Table
    | ListEdit,
    Field(discriminator="op"),
]
assert set(get_args(get_args(EditOp)[0])) == set(TEXT_OPS + MARKDOWN_ONLY)
# Changes that only make sense whole: staged as one suggestion, never one per hunk.
WHOLE: tuple[type[_Op], ...] = (MoveBlock, MoveSection, Table, ListEdit)


# Published as one flat object per edit (core.jsonschema.flat_union): agents read it far more
# easily than a oneOf of every edit's object; the union still validates every edit exactly.
EDITS_SCHEMA = {
    "type": "array",
    "minItems": 1,
    "items": flat_union((m.model_json_schema() for m in TEXT_OPS + MARKDOWN_ONLY), "op"),
}
