"""Deterministic rewrites of a whole document (CJK spacing and punctuation)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.markdown.cjk import cjk_format, cjk_punctuation, cjk_spacing
from ..core.text import TextEdit, apply_edits
from .base import operation
from .context import OpContext
from .document import SAVE
from .targets import EXPECTED, MODE, PATH, TAB_ID, Mode, MutationResult, document_for, mutate, require_kind

TransformKind = Literal["cjk-format", "cjk-spacing", "cjk-punctuation"]


class TransformParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: TransformKind = Field(
        description="cjk-spacing: a space between CJK and Latin/digits; cjk-punctuation: ASCII "
        "punctuation beside CJK to full width; cjk-format: both, and tidy spacing."
    )
    tabId: str | None = TAB_ID
    path: str | None = PATH
    expected_revision: str | None = EXPECTED
    mode: Mode = MODE
    save: bool | None = SAVE


def transform_edits(kind: TransformKind, text: str) -> list[TextEdit]:
    if kind == "cjk-spacing":
        return cjk_spacing(text)
    if kind == "cjk-punctuation":
        return cjk_punctuation(text)
    return cjk_format(text)


@operation("document.transform", title="Transform document")
async def transform(ctx: OpContext, params: TransformParams) -> MutationResult:
    """Apply a deterministic rewrite to a markdown document; code, math, links and front
    matter are left alone. Only the bytes that change are touched."""
    doc, tab = await document_for(ctx, params.tabId, params.path)
    require_kind(doc, "markdown", "text")
    return await mutate(
        ctx,
        doc,
        lambda text: apply_edits(text, transform_edits(params.kind, text)),
        expected_revision=params.expected_revision,
        mode=params.mode,
        save=params.save if params.save is not None else tab is None,
        label=params.kind,
    )
