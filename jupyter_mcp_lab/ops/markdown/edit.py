"""Precise edits: several at once, by offset, by anchor, by node id or by section,
all computed against the same revision and applied atomically (or not at all)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ...core.errors import ArgumentError
from ...core.jsonschema import compact
from ...core.markdown import blocks, blocks_edit, inserts, lists, marks, tables
from ...core.markdown import edits as md
from ...core.markdown.structure import Structure, structure_of
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import MutationParams, MutationResult, change_document


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Insert(_Op):
    op: Literal["insert"]
    at: int = Field(ge=0, description="Code point offset to insert at.")
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
    match: md.MatchPolicy = Field("error_if_multiple", description="first | all | nth | error_if_multiple")
    nth: int | None = Field(None, ge=0, description="0-based match index for match='nth'.")
    caseSensitive: bool = True
    regex: bool = False


class Anchored(_Op):
    op: Literal["anchored"]
    text: str = Field(description="The exact text to replace.")
    replacement: str
    before: str = Field("", description="Text right before it (disambiguates).")
    after: str = Field("", description="Text right after it.")


class UpdateBlock(_Op):
    op: Literal["update_block"]
    nodeId: str
    content: str


class InsertBlock(_Op):
    op: Literal["insert_block"]
    after: str | None = Field(None, description="Node id to insert after (none: at the top).")
    content: str


class DeleteBlock(_Op):
    op: Literal["delete_block"]
    nodeId: str


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
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    mark: Literal["bold", "italic", "code", "strike", "underline", "highlight", "clear"] = Field(
        description="Toggles the mark on the range (off when already marked); clear removes marks and links."
    )


class Link(_Op):
    op: Literal["link"]
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    url: str | None = Field(None, description="Link target; none removes the link around the range.")
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
    kind: Literal["bullet", "ordered", "task"] | None = Field(None, description="Toggle this list kind on the range.")
    indent: int | None = Field(None, description="+1 indents, -1 outdents the items in the range.")


TEXT_OPS: tuple[type[_Op], ...] = (Insert, Replace, Delete, FindReplace, Anchored)
MARKDOWN_ONLY: tuple[type[_Op], ...] = (
    UpdateBlock,
    InsertBlock,
    DeleteBlock,
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
_BLOCK_TYPES = {"codeBlock": "code", "bulletList": "bullet", "orderedList": "ordered", "taskList": "task"}


def _target(node_id: str) -> str | int:
    return int(node_id) if node_id.isdigit() else node_id


def _special(text: str, op: InsertSpecial) -> list[TextEdit]:
    if op.op == "insert_hr":
        return blocks_edit.insert_horizontal_rule(text, op.at)
    if op.op == "insert_math":
        return inserts.insert_math_inline(text, op.at, op.text)
    if op.op == "insert_math_block":
        return inserts.insert_math_block(text, op.at, op.text)
    if op.op == "insert_mermaid":
        return inserts.insert_mermaid(text, op.at, op.text)
    return inserts.insert_wiki_link(text, op.at, op.text, op.alias, op.heading)


def _table(text: str, op: Table) -> list[TextEdit]:
    if op.nodeId is None:
        if op.at is None or op.rows is None or op.cols is None:
            raise ArgumentError("a new table needs at, rows and cols (or give nodeId)", "nodeId")
        return tables.insert_table(text, op.at, op.rows, op.cols, op.header)
    return tables.batch(text, _target(op.nodeId), op.operations)


def _list(text: str, op: ListEdit) -> list[TextEdit]:
    if op.kind is not None or op.indent is not None:
        if op.start is None or op.end is None:
            raise ArgumentError("kind and indent work on a range: give start and end", "start")
        if op.kind is not None:
            return lists.toggle_list(text, op.start, op.end, op.kind)
        if op.indent and op.indent < 0:
            return lists.outdent_items(text, op.start, op.end)
        return lists.indent_items(text, op.start, op.end)
    if op.nodeId is None:
        raise ArgumentError("list operations need nodeId", "nodeId")
    return lists.batch(text, _target(op.nodeId), op.operations)


def flat_schema(members: tuple[type[BaseModel], ...]) -> dict[str, Any]:
    """One object schema for the union: ``op`` plus every field any op takes.

    Agents read this far more easily (and for a fraction of the bytes) than a oneOf of
    seventeen objects; the union itself still validates every edit exactly.
    """
    ops: list[str] = []
    props: dict[str, Any] = {}
    for model in members:
        schema = model.model_json_schema()
        ops.extend(schema["properties"]["op"].get("enum") or [schema["properties"]["op"]["const"]])
        for name, prop in schema["properties"].items():
            if name != "op":
                props.setdefault(name, compact(prop))
    return {"type": "object", "properties": {"op": {"type": "string", "enum": ops}, **props}, "required": ["op"]}


EDITS_SCHEMA = {"type": "array", "minItems": 1, "items": flat_schema(TEXT_OPS + MARKDOWN_ONLY)}


def text_edits(s: Structure, op: _Op) -> list[TextEdit]:
    match op:
        case Insert():
            return [TextEdit(op.at, op.at, op.text)]
        case Replace():
            return [TextEdit(op.start, op.end, op.text)]
        case Delete():
            return [TextEdit(op.start, op.end, "")]
        case FindReplace():
            found = md.find_matches(s, op.find, case_sensitive=op.caseSensitive, regex=op.regex)
            return md.replace_matches(md.pick(found, op.match, op.nth, repr(op.find)), op.replace)
        case Anchored():
            m = md.anchored(s, op.text, op.before, op.after)
            return [TextEdit(m.start, m.end, op.replacement)]
        case UpdateBlock():
            return [blocks.update_block(s.text, blocks.resolve_block(s, op.nodeId, None), op.content)]
        case InsertBlock():
            after = None if op.after is None else blocks.resolve_block(s, op.after, None)
            return [blocks.insert_after(s.text, after, op.content)]
        case DeleteBlock():
            return [blocks.delete_block(s.text, blocks.resolve_block(s, op.nodeId, None))]
        case UpdateSection():
            return [md.update_section(s, op.nodeId, op.content, keep_heading=op.keepHeading)]
        case InsertSection():
            return [md.insert_section(s, op.after, op.level, op.title, op.content)]
        case MoveSection():
            return md.move_section(s, op.nodeId, op.after)
        case Format():
            if op.mark == "clear":
                return marks.clear_marks(s.text, op.start, op.end)
            return marks.toggle_mark(s.text, op.start, op.end, op.mark)
        case Link():
            if op.url is None:
                return marks.remove_link(s.text, (op.start, op.end))
            return marks.set_link(s.text, op.start, op.end, op.url, op.title)
        case BlockType():
            kind = _BLOCK_TYPES.get(op.type, op.type)
            return blocks_edit.set_block_type(s.text, _target(op.nodeId), kind, op.level, op.language)
        case InsertSpecial():
            return _special(s.text, op)
        case Table():
            return _table(s.text, op)
        case ListEdit():
            return _list(s.text, op)
    raise AssertionError(op)


class EditParams(MutationParams):
    edits: Annotated[list[EditOp], WithJsonSchema(EDITS_SCHEMA)] = Field(
        min_length=1, description="Edits against the same revision, applied together."
    )


@operation("document.edit", title="Edit document", destructive=True)
async def edit(ctx: OpContext, params: EditParams) -> MutationResult:
    """Apply edits that change only the bytes they target: insert/replace/delete by offset,
    find_replace with a match policy, anchored (text + before/after context); on markdown also
    update/insert/delete a block by node id, update/insert/move a section, format (bold,
    italic, code, strike, underline, highlight, clear) and link a range, change a block's type,
    insert a rule, math, mermaid or a wiki link, and edit tables and lists. All positions and
    node ids refer to the revision you read (pass it as expected_revision); the edits must
    not overlap; they apply together or not at all."""

    def change(text: str) -> str:
        s = structure_of(text)
        out: list[TextEdit] = []
        for op in params.edits:
            out.extend(text_edits(s, op))
        return apply_edits(text, out)

    markdown = any(isinstance(op, MARKDOWN_ONLY) for op in params.edits)
    return await change_document(ctx, params, change, label="edit", kinds=("markdown",) if markdown else (), split=True)
