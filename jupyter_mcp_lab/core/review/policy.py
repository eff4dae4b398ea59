"""Who is changing a document, and whether their change applies or waits for a person."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Mode = Literal["apply", "suggest", "dryRun"]
Policy = Literal["suggest", "auto"]


@dataclass(frozen=True)
class Author:
    """An agent (its MCP client's name and session) acting for a Jupyter user, or a person."""

    name: str
    user: str
    session: str = ""


def effective_mode(requested: Mode, policy: Policy, *, granted: bool) -> Mode:
    """The mode a change really runs in.

    The server's policy wins over the agent: under ``suggest`` an agent's ``apply`` is
    staged unless a person granted that agent direct apply on this document. ``dryRun``
    is always honoured (it changes nothing); ``suggest`` is honoured under any policy.
    """
    if requested != "apply":
        return requested
    if policy == "auto" or granted:
        return "apply"
    return "suggest"
