"""Whole-document changes to a tab: content for an empty document, CJK punctuation and spacing
(VMark's document_set_content, cjk_punctuation_convert, cjk_spacing_fix).

Setting the content is refused on a document that has any: an agent changes existing text
with targeted edits a person can review, never by replacing everything. The CJK rewrites
touch prose only (code, math, links and front matter stay as they are) and are staged as
one suggestion under the server's review policy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import Field

from ...core.errors import DomainError
from ...core.markdown.cjk import cjk_punctuation, cjk_spacing
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import DONE, EditResult, MutationResult, mutate_as_asked, require_kind
from .editor import EditorEditParams, tab_for


class RewriteResult(EditResult):
    count: int = Field(description="How many places changed (or would change).")


async def _rewrite(
    ctx: OpContext, params: EditorEditParams, label: str, edits: Callable[[str], list[TextEdit]], *kinds: str
) -> tuple[MutationResult, int]:
    tab = await tab_for(ctx, params)
    if kinds:
        require_kind(tab.doc, *kinds)
    count = [0]

    def change(before: str) -> str:
        made = edits(before)
        count[0] = len(made)
        return apply_edits(before, made)

    r = await mutate_as_asked(ctx, tab.doc, params, change, save=params.save, label=label)
    return r, count[0]


def _result(r: MutationResult, count: int, done: str, nothing: str) -> RewriteResult:
    message = f"{DONE[r.mode]}: {done}" if r.changed else f"Nothing to change: {nothing}"
    return RewriteResult(
        message=message,
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


@operation("document.set_content", title="Set content of an empty document")
async def set_content(ctx: OpContext, params: SetContentParams) -> RewriteResult:
    """Give an EMPTY document its content. A document with any content (beyond whitespace)
    is refused: change it with insert or selection tools, which a person can review."""

    def edits(before: str) -> list[TextEdit]:
        if before.strip():
            raise DomainError(
                "CONFLICT",
                f"the document is not empty ({len(before)} characters): set_content only fills an empty "
                "document; use document_insert_at_cursor, selection_replace or document_replace instead",
                characters=len(before),
            )
        return [TextEdit(0, len(before), params.content)]

    r, _ = await _rewrite(ctx, params, "set content", edits)
    return _result(r, 1 if r.changed else 0, f"set content ({len(params.content)} characters)", "it is that already")


class PunctuationParams(EditorEditParams):
    direction: Literal["to-fullwidth", "to-halfwidth"] = Field(
        description="to-fullwidth: ASCII punctuation , . : ; ! ? ( ) beside CJK becomes full width; "
        "to-halfwidth: full-width punctuation becomes ASCII."
    )


@operation("document.cjk_punctuation", title="Convert CJK punctuation")
async def punctuation(ctx: OpContext, params: PunctuationParams) -> RewriteResult:
    """Convert punctuation in the document's prose between half width and full width (beside
    CJK text); code, math, links and front matter are left alone."""
    direction = params.direction.replace("-", "_")
    r, n = await _rewrite(
        ctx, params, f"cjk punctuation {params.direction}", lambda t: cjk_punctuation(t, direction), "markdown", "text"
    )
    way = params.direction
    return _result(r, n, f"converted punctuation {way} in {n} places", f"no punctuation to convert {way}")


class SpacingParams(EditorEditParams):
    action: Literal["add", "remove"] = Field(
        description="add: one space between CJK and Latin letters or digits; remove: delete such spaces."
    )


@operation("document.cjk_spacing", title="Fix CJK spacing")
async def spacing(ctx: OpContext, params: SpacingParams) -> RewriteResult:
    """Add or remove the spaces between CJK characters and Latin letters or digits in the
    document's prose; code, math, links and front matter are left alone."""
    r, n = await _rewrite(
        ctx, params, f"cjk spacing {params.action}", lambda t: cjk_spacing(t, params.action), "markdown", "text"
    )
    done = f"{'added' if params.action == 'add' else 'removed'} spacing in {n} places"
    return _result(r, n, done, f"no spacing to {params.action}")
