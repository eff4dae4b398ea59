"""What this server can do, and a document's revision for optimistic locking (VMark's
protocol tools)."""

from __future__ import annotations

import hashlib
import time
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field

from ...core.documents import OpenDocument
from ..base import operation
from ..context import OpContext
from .session import SUPPORTED_KINDS
from .windows import WINDOW_ID, document_of_window

NODE_TYPES = [
    "heading",
    "paragraph",
    "codeBlock",
    "blockquote",
    "bulletList",
    "orderedList",
    "taskList",
    "listItem",
    "taskItem",
    "table",
    "tableRow",
    "tableHeader",
    "tableCell",
    "horizontalRule",
    "mathBlock",
    "htmlBlock",
    "frontmatter",
    "footnoteDefinition",
]


class CapabilitiesParams(BaseModel):
    """A surface passes its own tool and resource names (they are not the agent's to set)."""

    model_config = ConfigDict(extra="forbid")
    tools: list[str] = Field(default_factory=list, description="The tools of the calling profile.")
    resources: list[str] = Field(default_factory=list, description="The resources of the calling profile.")


class Features(BaseModel):
    suggestions: bool = Field(description="Edits can be staged as suggestions a person accepts or rejects.")
    approval: str = Field(description="'suggest': a person reviews agents' edits; 'auto': they apply.")
    autoApprove: bool = Field(description="True when edits apply without review (approval 'auto').")
    modes: list[str] = Field(description="Modes of the mutation tools.")
    matchPolicies: list[str]
    revisionTracking: bool
    nodeIds: bool = Field(description="Blocks have ids (h-0, p-3, …) valid for the revision they were read at.")
    readOnly: bool
    supportedKinds: list[str]


class Limits(BaseModel):
    maxResponseBytes: int


class CapabilitiesResult(BaseModel):
    version: str = Field(description="jupyter-mcp-lab server version.")
    protocolVersion: str | None = Field(description="The MCP protocol version of this session.")
    tools: list[str]
    resources: list[str]
    features: Features
    supportedNodeTypes: list[str]
    limits: Limits


@operation("protocol.capabilities", title="Capabilities", read_only=True)
async def capabilities(ctx: OpContext, params: CapabilitiesParams) -> CapabilitiesResult:
    """The server's version, its tools and resources, and features: suggestions and the
    approval policy, mutation modes, match policies, revisions, node ids, limits."""
    s = ctx.settings
    return CapabilitiesResult(
        version=ctx.services.version,
        protocolVersion=ctx.protocol_version,
        tools=params.tools,
        resources=params.resources,
        features=Features(
            suggestions=True,
            approval=s.approval,
            autoApprove=s.approval == "auto",
            modes=["apply", "suggest", "dryRun"],
            matchPolicies=["first", "all", "nth", "error_if_multiple"],
            revisionTracking=True,
            nodeIds=True,
            readOnly=s.read_only,
            supportedKinds=list(SUPPORTED_KINDS),
        ),
        supportedNodeTypes=NODE_TYPES,
        limits=Limits(maxResponseBytes=s.max_response_bytes),
    )


class RevisionParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    windowId: str | None = WINDOW_ID


class RevisionResult(BaseModel):
    revision: str = Field(description="Pass it as baseRevision: a mutation on a changed document answers STALE.")
    hash: str = Field(description="SHA-256 of the document's text (UTF-8), hex.")
    timestamp: int = Field(
        description="When this server saw the document take this revision, in milliseconds since the epoch."
    )
    filePath: str | None
    isDirty: bool


# Per document: the revision last reported and when it was first seen (a return to an older one is new).
_SEEN: WeakKeyDictionary[OpenDocument, tuple[str, float]] = WeakKeyDictionary()


@operation("protocol.revision", title="Document revision", read_only=True)
async def revision(ctx: OpContext, params: RevisionParams) -> RevisionResult:
    """The current revision of the document a window shows, for optimistic locking: pass it
    as baseRevision to the mutation tools."""
    doc, _ = await document_of_window(ctx, params.windowId)
    text = doc.text
    current = doc.revision
    seen = _SEEN.get(doc)
    if seen is None or seen[0] != current:
        seen = _SEEN[doc] = (current, time.time())
    return RevisionResult(
        revision=current,
        hash=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        timestamp=round(seen[1] * 1000),
        filePath=doc.path,
        isDirty=doc.dirty,
    )
