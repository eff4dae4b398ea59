"""The one agent-decision gate: when an agent may decide what a person reviews.

A person decides in JupyterLab (or through the REST API). Accepting a suggestion,
rejecting someone else's, or reverting a checkpoint changes what the person reviews, so
under the ``suggest`` policy an agent needs the person's grant on that document
(APPROVAL_REQUIRED otherwise); under ``auto`` agents decide. An agent may always withdraw
(reject) its own suggestions. An agent's say-so never replaces the person.
"""

from __future__ import annotations

from typing import Any, Literal

from ...core.errors import DomainError
from ..context import OpContext

Rule = Literal["auto", "grant"]


def allowed_by(ctx: OpContext, path: str) -> Rule | None:
    """Which rule lets this agent decide on ``path`` without the person: the ``auto``
    policy, or the person's grant on it (``path`` "" : a grant on the whole workspace);
    None when neither does."""
    if ctx.settings.approval == "auto":
        return "auto"
    return "grant" if ctx.services.reviews.grant_for(path, ctx.caller.author) is not None else None


def may_decide(ctx: OpContext, path: str) -> bool:
    """Whether this agent may decide on ``path`` without the person."""
    return allowed_by(ctx, path) is not None


def require_decision(ctx: OpContext, path: str, what: str, **details: Any) -> None:
    """APPROVAL_REQUIRED unless this agent may decide on ``path``; ``what`` is what the person
    does instead ("accept sug-1")."""
    if not may_decide(ctx, path):
        raise DomainError(
            "APPROVAL_REQUIRED",
            f"A person reviews changes on this server: they {what} in JupyterLab's MCP Lab panel (or grant you "
            "direct apply on this document). Wait for their decision rather than retrying.",
            **details,
        )
