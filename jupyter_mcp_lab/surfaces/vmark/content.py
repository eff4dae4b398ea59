"""VMark's whole-document tools on the tab a window shows: search and replace, content for an
empty document, CJK punctuation and spacing. Adapters over ``document.search``,
``document.edit`` (find_replace), ``document.read`` + ``document.write`` and
``document.transform``, with VMark's result shapes (``from``/``to``, ``message``, one
``suggestionId``) and its rules.
"""

from __future__ import annotations

from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import ArgumentError
from ...ops.context import OpContext
from ...ops.document import search as search_op
from ...ops.document import text
from ...ops.markdown import transform as transform_op
from ...ops.markdown.edit import EditParams, EditResult, edit
from ...ops.markdown.edit_ops import FindReplace
from ...ops.targets import Mode, MutationResult
from ..adapter import adapter
from .errors import plain_error
from .shapes import DONE, EditorEditParams, EditorParams
from .shapes import EditResult as ChangeResult

# --------------------------------------------------------------------------- search and replace


class SearchParams(EditorParams):
    query: str = Field(min_length=1, description="Text to search for (literal).")
    caseSensitive: bool = Field(False, description="Case-sensitive search (default false).")


class Match(BaseModel):
    model_config = ConfigDict(validate_by_name=True)
    from_: int = Field(alias="from", description="Start (code point offset).")
    to: int = Field(description="End (exclusive).")
    line: int = Field(description="1-based line of the start.")
    column: int = Field(description="1-based column of the start, in code points.")
    text: str = Field(description="The matched text (its case as in the document).")
    context: str = Field(description="The line around the match.")


class SearchResult(BaseModel):
    matches: list[Match]
    count: int = Field(description="How many occurrences there are (matches lists the first 300).")
    truncated: bool
    revision: str


@adapter(search_op.search)
async def search(ctx: OpContext, params: SearchParams) -> SearchResult:
    """Find every occurrence of a text in the document (literal)."""
    found = search_op.SearchParams(
        tabId=params.tabId, windowId=params.windowId, query=params.query, caseSensitive=params.caseSensitive
    )
    r = cast(search_op.SearchResult, await search_op.search(ctx, found))
    matches = [
        Match(from_=m.start, to=m.end, line=m.line, column=m.column, text=m.text, context=m.context) for m in r.matches
    ]
    return SearchResult(matches=matches, count=r.count, truncated=r.truncated, revision=r.revision)


class ReplaceParams(EditorEditParams):
    search: str = Field(min_length=1, description="Text to find (literal, case-sensitive).")
    replace: str = Field(description="Replacement text (markdown source, inserted verbatim).")
    all: bool = Field(False, description="Replace every occurrence (default: only the first).")


class ReplaceResult(BaseModel):
    count: int = Field(description="Occurrences replaced (or staged, or shown by a dry run).")
    message: str
    applied: bool = Field(description="True when the document changed; false when staged or a dry run.")
    suggestionIds: list[str] | None = Field(None, description="The staged suggestions (a person decides).")
    mode: Mode = Field(description="The mode the change really ran in (the server's policy decides).")
    revision: str
    checkpointId: str | None = None
    diff: str | None = None


def _change(params: EditorEditParams) -> dict[str, object]:
    """The target and how the agent asked for its change, as the operations take them."""
    return {
        "tabId": params.tabId,
        "windowId": params.windowId,
        "expected_revision": params.expected_revision,
        "mode": params.mode,
        "rationale": params.rationale,
        "save": params.save,
    }


@adapter(edit, title="Replace text", destructive=False)
async def replace(ctx: OpContext, params: ReplaceParams) -> ReplaceResult:
    """Replace the first occurrence of a text (or all of them): a find_replace edit; count 0
    when the text does not occur."""
    if params.search == params.replace:
        raise ArgumentError("search and replace are the same text: nothing would change", "replace")
    match = "all" if params.all else "first"
    find = FindReplace(op="find_replace", find=params.search, replace=params.replace, match=match, optional=True)
    r = cast(EditResult, await edit(ctx, EditParams.model_validate({**_change(params), "edits": [find]})))
    n = (r.edits[0].replacedCount or 0) if r.edits else 0
    what = f"{n} occurrence{'s' if n != 1 else ''} of {params.search!r}"
    return ReplaceResult(
        count=n,
        message=f"{DONE[r.mode]}: replaced {what}" if n else f"No occurrences of {params.search!r}: nothing changed",
        applied=r.applied,
        suggestionIds=r.suggestionIds or None,
        mode=r.mode,
        revision=r.revision,
        checkpointId=r.checkpointId,
        diff=r.diff,
    )


# --------------------------------------------------------------------------- whole-document rewrites


class RewriteResult(ChangeResult):
    count: int = Field(description="How many places changed (or would change).")


def _rewritten(r: MutationResult, count: int, done: str, nothing: str) -> RewriteResult:
    return RewriteResult(
        message=f"{DONE[r.mode]}: {done}" if r.changed else f"Nothing to change: {nothing}",
        count=count,
        applied=r.applied,
        suggestionId=r.suggestionIds[0] if r.suggestionIds else None,
        mode=r.mode,
        revision=r.revision,
        checkpointId=r.checkpointId,
        diff=r.diff,
    )


class SetContentParams(EditorEditParams):
    content: str = Field(description="The document's content (markdown source, stored verbatim).")


# VMark's refusal in its words: its MCP server's prefix before the editor's message.
NOT_EMPTY = (
    "Failed to set document content: document_set_content is only allowed on empty documents. "
    "Use document_insert_at_cursor, document_replace, or selection_replace for non-empty documents."
)


@adapter(text.read, text.write, title="Set content of an empty document", destructive=False)
async def set_content(ctx: OpContext, params: SetContentParams) -> RewriteResult:
    """Give an EMPTY document its content (VMark's rule: read it, refuse one with any content
    beyond whitespace, then write with the revision read). Into a new document this agent
    created the write applies at once, as in VMark (document.write's rule); into another
    empty document it goes through the approval policy."""
    read = cast(text.ReadResult, await text.read(ctx, text.ReadParams(tabId=params.tabId, windowId=params.windowId)))
    fresh = params.expected_revision in (None, read.revision)  # else the write answers STALE
    if fresh and read.content.strip():
        raise plain_error("CONFLICT", NOT_EMPTY, characters=len(read.content), truncated=read.truncated)
    write = text.WriteParams.model_validate(
        {**_change(params), "expected_revision": params.expected_revision or read.revision, "content": params.content}
    )
    r = cast(MutationResult, await text.write(ctx, write))
    n = len(params.content)
    return _rewritten(r, 1 if r.changed else 0, f"set content ({n} characters)", "it is that already")


class PunctuationParams(EditorEditParams):
    direction: Literal["to-fullwidth", "to-halfwidth"] = Field(
        description="to-fullwidth: ASCII punctuation , . : ; ! ? ( ) beside CJK becomes full width; "
        "to-halfwidth: full-width punctuation becomes ASCII."
    )


async def _transform(ctx: OpContext, params: EditorEditParams, **options: str) -> transform_op.TransformResult:
    p = transform_op.TransformParams.model_validate({**_change(params), **options})
    return cast(transform_op.TransformResult, await transform_op.transform(ctx, p))


@adapter(transform_op.transform, title="Convert CJK punctuation")
async def punctuation(ctx: OpContext, params: PunctuationParams) -> RewriteResult:
    """Convert punctuation in the document's prose between half width and full width."""
    r = await _transform(ctx, params, kind="cjk-punctuation", direction=params.direction)
    way, n = params.direction, r.count
    return _rewritten(r, n, f"converted punctuation {way} in {n} places", f"no punctuation to convert {way}")


class SpacingParams(EditorEditParams):
    action: Literal["add", "remove"] = Field(
        description="add: one space between CJK and Latin letters or digits; remove: delete such spaces."
    )


@adapter(transform_op.transform, title="Fix CJK spacing")
async def spacing(ctx: OpContext, params: SpacingParams) -> RewriteResult:
    """Add or remove the spaces between CJK characters and Latin letters or digits."""
    r = await _transform(ctx, params, kind="cjk-spacing", spacing=params.action)
    n = r.count
    done = f"{'added' if params.action == 'add' else 'removed'} spacing in {n} places"
    return _rewritten(r, n, done, f"no spacing to {params.action}")
