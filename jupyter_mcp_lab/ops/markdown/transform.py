"""Deterministic rewrites of a whole document (CJK spacing and punctuation)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...core.markdown.cjk import cjk_format, cjk_punctuation, cjk_spacing
from ...core.text import TextEdit, apply_edits
from ..base import operation
from ..context import OpContext
from ..targets import MutationParams, MutationResult, change_document

TransformKind = Literal["cjk-format", "cjk-spacing", "cjk-punctuation"]


class TransformParams(MutationParams):
    kind: TransformKind = Field(
        description="cjk-spacing: a space between CJK and Latin/digits; cjk-punctuation: ASCII "
        "punctuation beside CJK to full width; cjk-format: both, and tidy spacing."
    )


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
    return await change_document(
        ctx,
        params,
        lambda text: apply_edits(text, transform_edits(params.kind, text)),
        label=params.kind,
        kinds=("markdown", "text"),
    )
