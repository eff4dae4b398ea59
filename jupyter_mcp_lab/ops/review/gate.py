"""The one agent-decision gate: when an agent may decide what a person reviews.

A person decides in JupyterLab (or through the REST API). Accepting a suggestion,
rejecting someone else's, or reverting a checkpoint changes what the person reviews, so
under the ``suggest`` policy an agent needs the person's grant on that document
(APPROVAL_REQUIRED otherwise); under ``auto`` agents decide. An agent may always withdraw
(reject) its own suggestions. An agent's say-so never replaces the person.

One change applies without either: a whole-content write into an empty document the same
agent created (``fills_own_new_document``), VMark's rule for ``document_set_content``. There
is no text of the person's to review yet; the change is still a checkpoint they can revert.
"""

from __future__ import annotations

from typing import Any, Literal
from weakref import WeakKeyDictionary

from ...core.documents import OpenDocument
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


# Documents agents created (workspace.new), with who created each: (agent, user) as the
# author of their changes is named. Untitled documents live as long as their tab.
_CREATORS: WeakKeyDictionary[OpenDocument, tuple[str, str]] = WeakKeyDictionary()


def created(ctx: OpContext, doc: OpenDocument) -> None:
    """Note that this agent created ``doc``."""
    who = ctx.caller.author
    _CREATORS[doc] = (who.name, who.user)


def fills_own_new_document(ctx: OpContext, doc: OpenDocument) -> bool:
    """Whether a whole-content write into ``doc`` applies at once under any policy: the same
    agent created it and it is empty (nothing but whitespace, as VMark counts it)."""
    who = ctx.caller.author
    return _CREATORS.get(doc) == (who.name, who.user) and not doc.text.strip()
