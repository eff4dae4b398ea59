"""``GET status``, ``GET activity``, ``GET outline`` and ``GET openapi.json``: the panel's own views."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import MISSING, BaseModel, ConfigDict, Field

from ....core.kinds import DocumentKind
from .base import Body, Count, Line
from .storage import Recovery, Store


class ClientConfig(Body):
    client: Literal["claude-code", "claude-desktop", "vscode", "cursor"]
    label: str = Field(description="The client's name as people know it, e.g. VS Code.")
    where: str = Field(description="Where the text goes, e.g. .vscode/mcp.json.")
    text: str = Field(description="A shell command or a JSON file's content, pasted as is.")


class Endpoint(Body):
    """One MCP surface the server serves (one per profile)."""

    profile: str
    path: str
    url: str
    configs: list[ClientConfig] = Field(
        description="Ready-to-paste configurations of this endpoint, one per MCP client."
    )


class Agent(Body):
    """An MCP session with tool calls in the last 30 minutes."""

    session: str = Field(description="The MCP session id (what a session grant names).")
    client: str = Field(
        description="The agent's identity (what a client grant names): its agent key's name, or the MCP "
        "client's own name when the person's Jupyter credential opened the session."
    )
    label: str | MISSING = Field(
        MISSING, description="What the MCP client calls itself (shown, not trusted); absent from older servers."
    )
    user: str
    lastActivity: float = Field(description="Unix time of its last tool call.")
    calls: int = Field(ge=1)


class Status(Body):
    """The server's endpoints (with client configs), policy and version; who is working now."""

    version: str
    running: bool = Field(description="Whether the MCP endpoints are serving.")
    approval: Literal["suggest", "auto"]
    read_only: bool
    base_url: str
    endpoints: list[Endpoint]
    tokenPlaceholder: str | None = Field(
        description="The text standing in for the credential in the configs, which the person replaces with "
        "an agent key (POST keys answers the configs with a new key in them). The configs never carry the "
        "server's token; null only from servers older than agent keys, whose configs carried it."
    )
    activity: Count = Field(description="Tool calls in the activity log.")
    agents: list[Agent] = Field(description="MCP sessions with tool calls in the last 30 minutes, most recent first.")
    pending: Count = Field(description="Pending suggestions on all documents.")
    store: Store
    recovery: Recovery


class ActivityEntry(Body):
    """One tool call an agent made, or one decision the person made in JupyterLab (`actor`)."""

    seq: int = Field(ge=1, description="Numbers the calls in the order they ended.")
    time: float = Field(description="Unix time the call ended.")
    profile: str = Field(description="The MCP surface called (lab, vmark, ...).")
    tool: str
    client: str = Field(description="The agent's identity: its agent key's name, or the MCP client's own name.")
    label: str | MISSING = Field(
        MISSING, description="What the MCP client calls itself (shown, not trusted); absent from older servers."
    )
    user: str
    session: str = Field(description="The MCP session id.")
    arguments: str = Field(description="One-line summary (`key='value', ...`); long strings are cut.")
    status: str = Field(description="`ok`, or the error code the call answered (NOT_FOUND, ...).")
    durationMs: float = Field(ge=0)
    actor: Literal["agent", "person"] = Field(
        description="`agent`: an MCP tool call; `person`: a decision made in JupyterLab (accept, reject, reopen, "
        "revert, grant, revoke, Allow/Deny), with the person as `client` and `user` and no session."
    )
    fullArguments: str = Field(
        description="The arguments as JSON, whole up to 4 KB; past that long strings are cut (`…(N chars)`), "
        "then the text (no longer JSON)."
    )
    result: str = Field(
        description="What it answered, up to 1 KB: the start of a success's JSON, or `CODE: message` for an error."
    )


class ActivityList(Body):
    entries: list[ActivityEntry]
    count: Count
    latest: Count = Field(description="The seq of the newest call in the log (0 when empty).")


class Heading(Body):
    id: str = Field(description="The heading's node id (h-0, h-1, ...).")
    level: int = Field(ge=1, le=6)
    title: str
    line: Line = Field(description="The heading's line (1-based).")
    lineEnd: Line = Field(
        description="The last line of its section (before the next heading of the same or a higher level)."
    )


class OutlineRow(Body):
    """One row of an OPML outline or of a markdown document's outline view, as the outline tools read it."""

    id: str = Field(description="The row's id: stable across edits (a suggestion's `part` names it).")
    topic: str
    note: str | None = Field(description="The row's note; null when it has none.")
    state: Literal["checked", "unchecked", "mixed", "none"] = Field(
        description="Its checkbox (mixed: derived from children that differ); none: no checkbox."
    )
    level: int = Field(ge=0, description="0 for a top-level row.")
    parent: str | None = Field(description="The parent row's id; null at the top level.")
    children: list[str] = Field(description="The ids of its children, in order.")


class Outline(Body):
    """A document's kind, headings (markdown) and rows (OPML outlines, markdown outline views) at its revision."""

    path: str = Field(description="The document's root-relative path.")
    revision: str = Field(description="Node ids, row ids and lines are valid for this revision.")
    kind: DocumentKind
    headings: list[Heading] = Field(description="In document order; empty for a kind other than markdown.")
    rows: list[OutlineRow] = Field(
        description="An OPML outline's rows, or a markdown document's (its headings and list items, "
        "task items with their checkbox), in document order (each before its children, so a flat list "
        "however deep it nests); empty for a kind other than outline and markdown.",
    )


class OpenAPIDocument(BaseModel):
    """This API's OpenAPI document."""

    model_config = ConfigDict(extra="allow")
    openapi: str
    info: dict[str, Any]
    paths: dict[str, Any]
