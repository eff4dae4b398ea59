"""Agent keys: the listed record (never its secret), a new key's request, and the one answer
that carries a secret (with the client configs that use it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ....core.keys.model import NAME
from ....surfaces import PROFILES
from .base import Body
from .status import Endpoint

MAX_KEY_DAYS = 10 * 365
ProfileName = Annotated[str, Field(json_schema_extra={"enum": list(PROFILES)})]


class AgentKey(Body):
    """A key a person issued to one agent: it opens the MCP endpoints, and nothing else."""

    name: str = Field(description="The agent's identity: authorship, activity and grants go by it.")
    id: str = Field(description="Public part of the key (its secret starts jml_<id>_).")
    created: float
    createdBy: str
    expires: float | None = Field(description="Unix time it stops working; null: never.")
    profiles: list[str] | None = Field(description="The MCP profiles it opens; null: every one this server serves.")
    lastUsed: float | None = Field(description="Unix time of its last use (written every 30 s or so).")
    revoked: float | None
    state: Literal["active", "expired", "revoked"]


class KeyList(Body):
    keys: list[AgentKey] = Field(description="Oldest first.")


class IssuedKey(Body):
    """A new key: its secret is in this answer and nowhere else (stored hashed)."""

    key: AgentKey
    secret: str = Field(description="Send it as `Authorization: Bearer <secret>`. Shown once.")
    replaced: AgentKey | None = Field(description="The key of that name it replaced (now revoked), if any.")
    endpoints: list[Endpoint] = Field(description="Each endpoint with client configs carrying this key.")


class NewKey(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    name: str = Field(
        pattern=f"^{NAME.pattern}$",
        description="The agent's name, e.g. claude-code: 1-64 letters, digits, '.', '_' or '-'.",
    )
    days: float | None = Field(
        None, gt=0, le=MAX_KEY_DAYS, allow_inf_nan=False, description="Days until it expires; leave out: never."
    )
    profiles: list[ProfileName] | None = Field(
        None, max_length=len(PROFILES), description="The MCP profiles it opens; leave out: every one."
    )
    replace: bool = Field(False, description="Replace (revoke) a live key of that name instead of answering 409.")

    @field_validator("profiles")
    @classmethod
    def _known(cls, value: Any) -> Any:
        unknown = [p for p in value or () if p not in PROFILES]
        if unknown:
            raise ValueError(f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}")
        return value
