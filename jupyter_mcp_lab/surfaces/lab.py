"""The default ``lab`` profile: a few composite tools that cover every capability.

An agent pays context for every tool listed, so this surface stays small (≤ 16 tools,
tools/list ≤ 16 KB): one tool per area, an ``action`` argument per operation.
"""

from __future__ import annotations

from .base import CompositeTool, Surface

INSTRUCTIONS = """\
jupyter-mcp-lab serves the documents of a JupyterLab workspace (markdown, outlines,
notebooks, workflow YAML, files). Start with session(action="get_state"). Address a
document by path (root-relative) or by tabId. Reads return a revision token: pass it as
expected_revision on writes (a mismatch answers STALE). Prefer document(action="edit")
with small targeted edits over rewriting whole files; mode="dryRun" shows a change first."""

# Lab tools address a document by path or tabId; VMark's windowId (the tab a window shows)
# would only add context an agent pays for.
BY_PATH_OR_TAB = frozenset({"windowId"})

SESSION = CompositeTool(
    name="session",
    title="Session",
    description=(
        "Orientation. get_state: every window (a connected JupyterLab, or 'main') with its tabs "
        "{id, filePath, title, dirty, revision, kind}; capabilities (version, document kinds, approval "
        "policy, read-only, response limit, profiles and URLs); and who you are (user, client, session)."
    ),
    actions={"get_state": "session.get_state"},
)

WORKSPACE = CompositeTool(
    name="workspace",
    title="Workspace",
    description=(
        "Tabs and files. open {filePath} → {tabId, revision, kind} (focuses it for this session); "
        "new {kind?} → untitled tab; save {tabId?}; save_as {filePath, tabId?, overwrite?}; "
        "close {tabId, force?} → {closed} or {closed: false, reason: 'DIRTY'}; switch_tab {tabId}; "
        "focus_window {windowLabel}."
    ),
    actions={
        "open": "workspace.open",
        "new": "workspace.new",
        "save": "workspace.save",
        "save_as": "workspace.save_as",
        "close": "workspace.close",
        "switch_tab": "workspace.switch_tab",
        "focus_window": "workspace.focus_window",
    },
)

DOCUMENT = CompositeTool(
    name="document",
    title="Document",
    description=(
        "Read and change documents (by path or tabId). read {section? | lineStart/lineEnd?, maxBytes?} → "
        "{content, revision, totalLines, truncated, nextLine}. structure {view: outline|blocks|digest|all} → "
        "sections and blocks with node ids (h-0, p-3, table-0, …) valid for that revision. edit {edits: "
        "[{op: insert|replace|delete|find_replace|anchored|update_block|insert_block|delete_block|"
        "update_section|insert_section|move_section, …}], expected_revision} changes only the targeted "
        "bytes, atomically. write {content, expected_revision} replaces everything. transform {kind: "
        "cjk-spacing|cjk-punctuation|cjk-format}. undo / redo. Changes by path are saved at once; "
        "mode=dryRun returns the diff without changing anything."
    ),
    actions={
        "read": "document.read",
        "structure": "document.structure",
        "edit": "document.edit",
        "write": "document.write",
        "transform": "document.transform",
        "undo": "document.undo",
        "redo": "document.redo",
    },
    hidden=BY_PATH_OR_TAB,
)

WORKFLOW = CompositeTool(
    name="workflow",
    title="Workflow YAML",
    description=(
        "GitHub Actions workflows. apply_patch {patches: [{kind: workflow.set|job.set|step.set|with.set|"
        "with.remove|needs.add|needs.remove|trigger.setFilters, …}], expected_revision} keeps comments, "
        "anchors and key order byte-identical; validate → actionlint {ok, diagnostics, binaryAvailable}."
    ),
    actions={"apply_patch": "workflow.apply_patch", "validate": "workflow.validate"},
    hidden=BY_PATH_OR_TAB,
)

REVIEW = CompositeTool(
    name="review",
    title="Suggestions and checkpoints",
    description=(
        "A person approves changes here: under the server's 'suggest' policy your edits are staged as "
        "suggestions (the result has suggestionIds, applied=false). list {path?, status?, mine?} → suggestions "
        "with id, kind, lines, original/new, status; wait {suggestionIds?, seconds?} blocks until the person "
        "decided (progress meanwhile); reject {suggestionIds} withdraws yours; accept {suggestionIds}, "
        "accept_all/reject_all {path}, revert {checkpointId} need a person's grant; checkpoints {path?} lists "
        "applied changes."
    ),
    actions={
        "list": "review.list",
        "wait": "review.wait",
        "accept": "review.accept",
        "reject": "review.reject",
        "accept_all": "review.accept_all",
        "reject_all": "review.reject_all",
        "checkpoints": "review.checkpoints",
        "revert": "review.revert",
    },
)

LAB = CompositeTool(
    name="lab",
    title="JupyterLab",
    description=(
        "The person's JupyterLab (each connected one is a window). clients → who is connected, their open "
        "documents {path, tabId}, active one and selection; open {path, line?}; activate {path}; commands {query?, "
        "limit?}; run_command {command, args?}; toggle_breakpoint {path, line} (debugger on); terminal {command} "
        "types it + Enter in a new terminal. run_command and terminal ask the person first under 'suggest' "
        "(APPROVAL_REQUIRED if denied). NO_LAB_CLIENT: none connected."
    ),
    actions={
        "clients": "lab.clients",
        "open": "lab.open",
        "activate": "lab.activate",
        "commands": "lab.commands",
        "run_command": "lab.run_command",
        "toggle_breakpoint": "lab.toggle_breakpoint",
        "terminal": "lab.terminal",
    },
)

SURFACE = Surface(
    name="lab",
    title="JupyterLab documents",
    instructions=INSTRUCTIONS,
    tools=(SESSION, WORKSPACE, DOCUMENT, WORKFLOW, REVIEW, LAB),
)
