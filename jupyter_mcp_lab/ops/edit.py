"""Precise edits: several at once, by offset, by anchor, by node id or by section,
all computed against the same revision and applied atomically (or not at all)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.markdown import edits as md
from ..core.markdown.structure import Structure, structure_of
from ..core.text import TextEdit, apply_edits
from .base import operation
from .context import OpContext
from .document import SAVE
from .targets import EXPECTED, MODE, PATH, TAB_ID, Mode, MutationResult, document_for, mutate, require_kind


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
    | MoveSection,
    Field(discriminator="op"),
]
MARKDOWN_ONLY = (UpdateBlock, InsertBlock, DeleteBlock, UpdateSection, InsertSection, MoveSection)


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
            return [md.update_block(s, op.nodeId, op.content)]
        case InsertBlock():
            return [md.insert_block_after(s, op.after, op.content)]
        case DeleteBlock():
            return [md.delete_block(s, op.nodeId)]
        case UpdateSection():
            return [md.update_section(s, op.nodeId, op.content, keep_heading=op.keepHeading)]
        case InsertSection():
            return [md.insert_section(s, op.after, op.level, op.title, op.content)]
        case MoveSection():
            return md.move_section(s, op.nodeId, op.after)
    raise AssertionError(op)


class EditParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edits: list[EditOp] = Field(min_length=1, description="Edits against the same revision, applied together.")
    tabId: str | None = TAB_ID
    path: str | None = PATH
    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    save: bool | None = SAVE


@operation("document.edit", title="Edit document", destructive=True)
async def edit(ctx: OpContext, params: EditParams) -> MutationResult:
    """Apply edits that change only the bytes they target: insert/replace/delete by offset,
    find_replace with a match policy, anchored (text + before/after context), and on markdown
    update/insert/delete a block by node id, update/insert/move a section. All positions and
    node ids refer to the revision you read (pass it as expected_revision); the edits must
    not overlap; they apply together or not at all."""
    doc, tab = await document_for(ctx, params.tabId, params.path)
    if any(isinstance(op, MARKDOWN_ONLY) for op in params.edits):
        require_kind(doc, "markdown")

    def change(text: str) -> str:
        s = structure_of(text)
        out: list[TextEdit] = []
        for op in params.edits:
            out.extend(text_edits(s, op))
        return apply_edits(text, out)

    return await mutate(
        ctx,
        doc,
        change,
        expected_revision=params.expected_revision,
        mode=params.mode,
        save=params.save if params.save is not None else tab is None,
        label="edit",
    )
