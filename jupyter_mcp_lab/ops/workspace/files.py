"""Documents in tabs: new, open, save, save as, close.

Saving over an existing file and discarding unsaved work are changes a person decides
under the ``suggest`` policy: they are staged as suggestions on that file.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field

from ...core.documents import OpenDocument
from ...core.errors import DomainError
from ...core.kinds import DocumentKind
from ...core.paths import to_api_path
from .. import documents
from ..base import operation
from ..context import OpContext
from ..documents import TabTarget
from ..review import gate
from ..targets import policy_mode

# Titles given to untitled documents; once saved, a document takes its file's name.
_TITLES: WeakKeyDictionary[OpenDocument, str] = WeakKeyDictionary()


def title_of(doc: OpenDocument) -> str:
    return _TITLES.get(doc) or doc.title


WINDOW_LABEL = Field(None, description="Target window (default: the focused one).")


class NewParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: DocumentKind = Field("markdown", description='Kind of the new untitled document ("markdown" default).')
    windowLabel: str | None = WINDOW_LABEL
    title: str | None = Field(None, description="Title of the untitled document (until it is saved as a file).")


class TabResult(BaseModel):
    tabId: str
    filePath: str | None = None
    revision: str | None = None
    kind: DocumentKind | None = None


@operation("workspace.new", title="New document")
async def new(ctx: OpContext, params: NewParams) -> TabResult:
    """Create a new untitled tab (save it with save_as)."""
    services = ctx.services
    window = documents.window(ctx, params.windowLabel, "windowLabel")
    doc = services.docs.new_untitled(params.kind)
    if params.title and params.title.strip():
        _TITLES[doc] = params.title.strip()
    gate.created(ctx, doc)  # its first content applies at once (gate.fills_own_new_document)
    tab = services.workspace.show(doc, window, ctx.caller.session_id)
    return TabResult(tabId=tab.id, revision=doc.revision, kind=doc.kind)


class OpenParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    filePath: str = Field(description="File to open, relative to the workspace root.")
    windowLabel: str | None = WINDOW_LABEL


@operation("workspace.open", title="Open document", read_only=True)  # changes no document
async def open_(ctx: OpContext, params: OpenParams) -> TabResult:
    """Open a file from the workspace in a tab (the existing tab if it is open) and focus it."""
    services = ctx.services
    api = to_api_path(services.settings.root_dir, params.filePath)
    window = documents.window(ctx, params.windowLabel, "windowLabel")
    try:
        doc = await services.docs.open(api)
    except DomainError as exc:
        if exc.code == "NOT_FOUND":
            raise DomainError("INVALID_PATH", f"cannot open {params.filePath!r}: {exc.message}", path=api) from None
        raise
    tab = services.workspace.show(doc, window, ctx.caller.session_id)
    return TabResult(tabId=tab.id, filePath=doc.path, revision=doc.revision, kind=doc.kind)


class SaveParams(TabTarget):
    pass


class SaveResult(BaseModel):
    filePath: str
    revision: str


@operation("workspace.save", title="Save", idempotent=True)
async def save(ctx: OpContext, params: SaveParams) -> SaveResult:
    """Save a tab to its file (atomic write). Refuses (CONFLICT) when the file changed on disk
    since it was read, rather than overwrite someone else's change."""
    tab = documents.tab(ctx, params.tabId, params.windowId)
    revision = await ctx.services.docs.save(tab.doc)
    assert tab.doc.path is not None
    return SaveResult(filePath=tab.doc.path, revision=revision)


class SaveAsParams(TabTarget):
    filePath: str = Field(description="New file path, relative to the workspace root.")
    overwrite: bool = Field(False, description="Replace the file if it exists (otherwise: CONFLICT).")


class SaveAsResult(BaseModel):
    revision: str
    filePath: str
    tabId: str
    applied: bool = Field(True, description="False when overwriting was staged for a person's approval.")
    suggestionIds: list[str] | None = None


def _needs_approval(ctx: OpContext, key: str) -> bool:
    """Whether the server's policy stages this agent's destructive step on ``key``."""
    return policy_mode(ctx, key, "apply")[0] == "suggest"


@operation("workspace.save_as", title="Save as", destructive=True)
async def save_as(ctx: OpContext, params: SaveAsParams) -> SaveAsResult:
    """Save a tab's content to a new file; the tab then shows that file."""
    services = ctx.services
    tab = documents.tab(ctx, params.tabId, params.windowId)
    api = to_api_path(services.settings.root_dir, params.filePath)
    old = tab.doc
    if params.overwrite and api != old.path and await services.docs.storage.exists(api) and _needs_approval(ctx, api):
        # Overwriting a file is a change to that file: stage it as one, for a person to accept.
        target = await services.docs.open(api)
        staged = services.reviews.stage(
            target, target.text, old.text, ctx.caller.author, operation="workspace.save_as", split=False
        )
        return SaveAsResult(
            revision=target.revision, filePath=api, tabId=tab.id, applied=False, suggestionIds=[x.id for x in staged]
        )
    doc = await services.docs.save_as(old, api, overwrite=params.overwrite)
    tab.doc = doc
    if old.path is not None and not services.workspace.is_shown(old):
        # Its unsaved changes went to the new file; the old file stays as it is on disk.
        services.docs.close(old)
    return SaveAsResult(revision=doc.revision, filePath=api, tabId=tab.id)


class CloseParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tabId: str = Field(description="The tab to close.")
    force: bool = Field(False, description="Discard unsaved changes.")


class CloseResult(BaseModel):
    closed: bool
    reason: str | None = Field(
        None,
        description='"DIRTY" when unsaved changes kept the tab open; "SUGGESTED" when discarding them was '
        "staged for a person's approval (accept it, then close again).",
    )
    suggestionIds: list[str] | None = None


@operation("workspace.close", title="Close tab", destructive=True)
async def close(ctx: OpContext, params: CloseParams) -> CloseResult:
    """Close a tab. Refuses to discard unsaved work unless force is set."""
    services = ctx.services
    tab = documents.tab(ctx, params.tabId, None)
    if tab.doc.dirty and not params.force:
        return CloseResult(closed=False, reason="DIRTY")
    if tab.doc.dirty and _needs_approval(ctx, tab.doc.key):
        # Discarding unsaved work is a change back to the saved text: a person decides.
        doc = tab.doc
        staged = services.reviews.stage(
            doc, doc.text, doc.saved or "", ctx.caller.author, operation="workspace.close", split=False
        )
        return CloseResult(closed=False, reason="SUGGESTED", suggestionIds=[x.id for x in staged])
    services.workspace.close(tab)
    if not services.workspace.is_shown(tab.doc):
        services.docs.close(tab.doc)
    return CloseResult(closed=True)
