"""IRPatch: the patch objects of ``workflow.apply_patch`` (vmark2), validated with pydantic."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from ..errors import DomainError

Name = Annotated[str, Field(min_length=1)]
Index = Annotated[int, Field(ge=0)]


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("numbers must be finite")
    for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
        _finite(item)
    return value


class _Patch(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Valued(_Patch):
    value: JsonValue

    @field_validator("value")
    @classmethod
    def _value_finite(cls, v: Any) -> Any:
        return _finite(v)


class _Pathed(_Valued):
    path: list[Name] = Field(min_length=1, description="dotted string ('env.FOO') or list of keys")

    @field_validator("path", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = v.split(".")
        if not isinstance(v, list):
            raise ValueError("path must be a dotted string such as 'env.FOO' or a list of keys")
        if "<<" in v:
            raise ValueError("path cannot name a merge key (<<)")
        return v


class WorkflowSet(_Pathed):
    kind: Literal["workflow.set"]


class JobSet(_Pathed):
    kind: Literal["job.set"]
    jobId: Name


class StepSet(_Pathed):
    kind: Literal["step.set"]
    jobId: Name
    stepIndex: Index


class WithSet(_Valued):
    kind: Literal["with.set"]
    jobId: Name
    stepIndex: Index
    key: Name


class WithRemove(_Patch):
    kind: Literal["with.remove"]
    jobId: Name
    stepIndex: Index
    key: Name


class _NeedsPatch(_Patch):
    jobId: Name
    needs: Name | None = None
    value: Name | None = Field(default=None, description="alias of needs")

    @model_validator(mode="after")
    def _one(self) -> _NeedsPatch:
        if self.needs is None and self.value is None:
            raise ValueError("needs (the job id to add or remove) is required")
        if self.needs is not None and self.value is not None and self.needs != self.value:
            raise ValueError("needs and value name different jobs; give one")
        return self

    @property
    def dep(self) -> str:
        return self.needs if self.needs is not None else str(self.value)


class NeedsAdd(_NeedsPatch):
    kind: Literal["needs.add"]


class NeedsRemove(_NeedsPatch):
    kind: Literal["needs.remove"]


class TriggerSetFilters(_Patch):
    kind: Literal["trigger.setFilters"]
    event: Name
    filter: Name
    value: list[str]


IRPatch = Annotated[
    WorkflowSet | JobSet | StepSet | WithSet | WithRemove | NeedsAdd | NeedsRemove | TriggerSetFilters,
    Field(discriminator="kind"),
]
KINDS = [
    "workflow.set", "job.set", "step.set", "with.set", "with.remove", "needs.add", "needs.remove",
    "trigger.setFilters",
]  # fmt: skip
_ADAPTER: TypeAdapter[Any] = TypeAdapter(IRPatch)


def parse_patches(patches: Any) -> list[Any]:
    """Validate every patch's shape; INVALID_PATCH names the first bad one (index and field)."""
    if not isinstance(patches, list):
        raise DomainError("INVALID_PATCH", "patches must be a list of IRPatch objects", field="patches")
    out = []
    for i, raw in enumerate(patches):
        if not isinstance(raw, dict):
            raise DomainError("INVALID_PATCH", f"patch {i} must be an object with a kind", index=i)
        try:
            out.append(_ADAPTER.validate_python(raw))
        except ValidationError as exc:
            raise _shape_error(i, raw, exc) from None
    return out


def _shape_error(i: int, raw: dict[str, Any], exc: ValidationError) -> DomainError:
    kind = raw.get("kind")
    errors = exc.errors()
    first = errors[0]
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        what = f"unknown kind {kind!r}" if "kind" in raw else "missing kind"
        return DomainError(
            "INVALID_PATCH", f"patch {i}: {what}; expected one of {', '.join(KINDS)}", index=i, field="kind"
        )
    parts = []
    fields = []
    for err in errors:
        loc = [str(x) for x in err["loc"][1:] if not str(x).startswith("function-")]
        field = loc[0] if loc else "needs"
        fields.append(field)
        field += "".join(f"[{x}]" for x in loc[1:2])
        if err["type"] == "missing":
            parts.append(f"missing field '{field}'")
        elif err["type"] == "extra_forbidden":
            parts.append(f"unknown field '{field}'")
        else:
            msg = str(err["msg"]).removeprefix("Value error, ")
            parts.append(f"field '{field}': {msg}")
    return DomainError("INVALID_PATCH", f"patch {i} ({kind}): " + "; ".join(parts), index=i, field=fields[0])
