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
Direction = Literal["to-fullwidth", "to-halfwidth"]
Spacing = Literal["add", "remove"]


class TransformParams(MutationParams):
    kind: TransformKind = Field(
        description="cjk-spacing: a space between CJK and Latin/digits; cjk-punctuation: ASCII "
        "punctuation beside CJK to full width; cjk-format: both, and tidy spacing."
    )
    direction: Direction = Field(
        "to-fullwidth", description="cjk-punctuation: to-halfwidth turns full-width punctuation into ASCII."
    )
    spacing: Spacing = Field("add", description="cjk-spacing: remove deletes those spaces instead.")


class TransformResult(MutationResult):
    count: int = Field(description="How many places change (applied, staged or shown).")


def transform_edits(
    kind: TransformKind, text: str, direction: Direction = "to-fullwidth", spacing: Spacing = "add"
) -> list[TextEdit]:
    if kind == "cjk-spacing":
        return cjk_spacing(text, spacing)
    if kind == "cjk-punctuation":
        return cjk_punctuation(text, direction.replace("-", "_"))
    return cjk_format(text)


@operation("document.transform", title="Transform document")
async def transform(ctx: OpContext, params: TransformParams) -> TransformResult:
    """Apply a deterministic rewrite to a markdown document; code, math, links and front
    matter are left alone. Only the bytes that change are touched."""
    count = [0]

    def change(text: str) -> str:
        edits = transform_edits(params.kind, text, params.direction, params.spacing)
        count[0] = len(edits)
        return apply_edits(text, edits)

    option = {"cjk-spacing": f" {params.spacing}", "cjk-punctuation": f" {params.direction}"}.get(params.kind, "")
    r = await change_document(ctx, params, change, label=params.kind + option, kinds=("markdown", "text"))
    return TransformResult(**r.model_dump(), count=count[0])
