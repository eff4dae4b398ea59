"""The JSON bodies the API takes: which suggestions to decide at once, a re-application, a new grant."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import MISSING, BaseModel, ConfigDict, Field, field_validator

from ....core.review.grants import MAX_GRANT_MINUTES

# What the server accepts, said in the schema so clients (and the fuzzer) know: the store
# refuses a NUL or a ".." segment in a scope with INVALID_PATH (see suggestions.model).
SCOPE_SCHEMA: dict[str, Any] = {"pattern": "^[^\\x00]*$", "not": {"pattern": "(^|/)\\.\\.(/|$)"}}


class Selection(BaseModel):
    """A document's pending suggestions (`path`), the ones named (`ids`), or the named ones on that document (both)."""

    model_config = ConfigDict(strict=True, extra="forbid", json_schema_extra={"minProperties": 1})
    path: str | MISSING = Field(MISSING, min_length=1)
    ids: list[Annotated[str, Field(min_length=1)]] | MISSING = Field(MISSING, min_length=1, max_length=1000)

    @field_validator("path", "ids", mode="before")
    @classmethod
    def _no_null(cls, value: Any) -> Any:
        # Leave a key out to mean "any"; an explicit null is more likely a client bug.
        if value is None:
            raise ValueError("must not be null (leave it out instead)")
        return value


class Reapply(BaseModel):
    """Re-apply a suggestion; with `expectedRevision` only onto the text a preview showed."""

    model_config = ConfigDict(strict=True, extra="forbid")
    expectedRevision: str | MISSING = Field(
        MISSING, min_length=1, description="STALE (409) when the document is no longer at this revision."
    )


class NewGrant(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    scope: str = Field(
        max_length=4096,
        description='Root-relative file or folder ("notes/": everything below it), or "" for the whole '
        'workspace. A leading "/" is ignored; ".." segments are refused.',
        json_schema_extra=SCOPE_SCHEMA,
    )
    agent: str = Field(
        min_length=1,
        max_length=512,
        description="An MCP session id (agentKind session), or an agent key's name (agentKind client; for a "
        "session the person's own Jupyter credential opened, the MCP client's name).",
    )
    agentKind: Literal["session", "client"]
    minutes: float = Field(gt=0, le=MAX_GRANT_MINUTES, allow_inf_nan=False)
