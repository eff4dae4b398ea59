"""VMark's protocol tools: the server's capabilities (``get_capabilities``) and a document's
revision for optimistic locking (``get_document_revision``), as adapters over the
session's state and ``workspace.document_info``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ...ops.context import OpContext
from ...ops.workspace import info as info_op
from ...ops.workspace import session
from ..adapter import adapter
from .windows import WindowParams, info, state

# VMark's names of the block types this server's documents have (get_capabilities).
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
MODES = ["apply", "suggest", "dryRun"]  # of the mutation tools
MATCH_POLICIES = ["first", "all", "nth", "error_if_multiple"]  # of apply_diff


class CapabilitiesParams(BaseModel):
    """The profile passes its own tool and resource names (they are not the agent's to set)."""

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


@adapter(session.get_state, title="Capabilities")
async def capabilities(ctx: OpContext, params: CapabilitiesParams) -> CapabilitiesResult:
    """The server's version, its tools and resources, and features: suggestions and the
    approval policy, mutation modes, match policies, revisions, node ids, limits."""
    caps = (await state(ctx)).capabilities
    return CapabilitiesResult(
        version=caps.version,
        protocolVersion=caps.mcpProtocol,
        tools=params.tools,
        resources=params.resources,
        features=Features(
            suggestions=True,
            approval=caps.approval,
            autoApprove=caps.approval == "auto",
            modes=MODES,
            matchPolicies=MATCH_POLICIES,
            revisionTracking=True,
            nodeIds=True,
            readOnly=caps.readOnly,
            supportedKinds=list(caps.supportedKinds),
        ),
        supportedNodeTypes=NODE_TYPES,
        limits=Limits(maxResponseBytes=caps.maxResponseBytes),
    )


class RevisionResult(BaseModel):
    revision: str = Field(description="Pass it as baseRevision: a mutation on a changed document answers STALE.")
    hash: str = Field(description="SHA-256 of the document's text (UTF-8), hex.")
    timestamp: int = Field(
        description="When this server saw the document take this revision, in milliseconds since the epoch."
    )
    filePath: str | None
    isDirty: bool


@adapter(info_op.document_info, title="Document revision")
async def revision(ctx: OpContext, params: WindowParams) -> RevisionResult:
    """The current revision of the document a window shows, for optimistic locking."""
    d = await info(ctx, None, params.windowId)
    return RevisionResult(
        revision=d.revision, hash=d.hash, timestamp=d.revisionSeen, filePath=d.filePath, isDirty=d.dirty
    )
