"""The ``vmark2`` profile: VMark's four composite tools (spec/vmark-tools-v2.md).

session / workspace / document / workflow with VMark's action and argument names. Errors
take VMark's shape: ``{success: false, error: <JSON envelope>}`` for domain errors and a
plain string for argument errors.
"""

from __future__ import annotations

from ..ops.document import text
from ..ops.markdown import transform
from ..ops.workflow import patches
from ..ops.workspace import files, focus, session
from .base import CompositeTool, Surface
from .vmark.errors import render_error

# Conveniences that VMark's v2 tools do not document (lab ones, and v1's windowId: v2
# addresses a document by tabId).
LAB_ONLY = frozenset(
    {"path", "save", "section", "lineStart", "lineEnd", "maxBytes", "mode", "overwrite", "rationale", "windowId"}
    | {"direction", "spacing"}  # transform's options: v2 names the kind only
)
# A new document's title (VMark v2 names untitled documents itself).
WORKSPACE_HIDDEN = LAB_ONLY | {"title"}

INSTRUCTIONS = """\
VMark-compatible document tools served by JupyterLab. Call session.get_state once to see
windows, tabs and each tab's {filePath, dirty, revision, kind}. For markdown:
document.read → reason → document.write with expected_revision. For GitHub Actions YAML
(kind "yaml-workflow"): workflow.apply_patch for comment-preserving edits,
workflow.validate for actionlint diagnostics. Files are opened, saved and closed with
workspace."""


SURFACE = Surface(
    name="vmark2",
    title="VMark (v2 tools)",
    instructions=INSTRUCTIONS,
    render_error=render_error,
    server_name="vmark-mcp-server",
    tools=(
        CompositeTool(
            "session",
            "One-shot orientation: get_state returns every window, its tabs "
            "{id, filePath, title, dirty, revision, kind} and the server's capabilities.",
            actions={"get_state": session.get_state},
            hidden=LAB_ONLY,
        ),
        CompositeTool(
            "workspace",
            "File and window lifecycle: new {kind?, windowLabel?} → {tabId}; open {filePath, windowLabel?} → "
            "{tabId}; save {tabId?} → {filePath, revision}; save_as {tabId?, filePath} → {revision}; "
            "close {tabId, force?} → {closed} or {closed: false, reason: 'DIRTY'}; switch_tab {tabId}; "
            "focus_window {windowLabel}.",
            actions={
                "new": files.new,
                "open": files.open_,
                "save": files.save,
                "save_as": files.save_as,
                "close": files.close,
                "switch_tab": focus.switch_tab,
                "focus_window": focus.focus_window,
            },
            hidden=WORKSPACE_HIDDEN,
        ),
        CompositeTool(
            "document",
            "Read, write, transform. read {tabId?} → {content, revision, filePath, kind, dirty}; always read "
            "before writing. write {tabId?, content, expected_revision?} → {revision}, or a STALE envelope "
            "with current_revision. transform {tabId?, kind: cjk-format|cjk-spacing|cjk-punctuation, "
            "expected_revision?} → {revision}.",
            actions={"read": text.read, "write": text.write, "transform": transform.transform},
            hidden=LAB_ONLY,
        ),
        CompositeTool(
            "workflow",
            "GitHub Actions YAML (tabs of kind yaml-workflow). apply_patch {tabId?, patches: IRPatch[], "
            "expected_revision?} → {revision}: CST-safe edits keeping comments, anchors and key order. "
            "validate {tabId?} → {ok, diagnostics[{line, col, message, severity}], binaryAvailable}.",
            actions={"apply_patch": patches.apply_patch, "validate": patches.validate},
            hidden=LAB_ONLY,
        ),
    ),
)
