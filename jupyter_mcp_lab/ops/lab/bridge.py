"""JupyterLab itself, through the lab bridge: which JupyterLabs are connected and what they
show, and things only the browser can do (open a file at a line, show a tab, run a
JupyterLab command, toggle a debugger breakpoint, type a command into a terminal).

Requests go to one JupyterLab: the one named (``window``), else the one the person used
last. With none connected every action but ``clients`` answers NO_LAB_CLIENT.

Running a command or typing into a terminal can do anything the person can, so under the
``suggest`` policy the person is asked in JupyterLab first (a dialog naming the agent and
the command: Allow / Deny); a refusal, or no answer in time, is APPROVAL_REQUIRED. An
agent holding a grant on the whole workspace (scope: the root) is not asked; under
``auto`` nobody is.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import ArgumentError, DomainError
from ...core.paths import to_api_path
from ...core.workspace import LabClients
from ..base import operation
from ..context import OpContext
from ..review.gate import allowed_by

WINDOW: Any = Field(
    None, description="Which JupyterLab (a window from clients; default: the one the person used last)."
)
PATH: Any = Field(description="File, root-relative.")
LINE: Any = Field(None, ge=1, description="1-based line.")
# run_command's and terminal's argument share the tool's one "command" parameter.
COMMAND_DESCRIPTION = "run_command: a command id (see commands); terminal: a one-line shell command, typed + Enter."
MAX_COMMAND = 4000
# Anything that would not show as typed: line breaks (a second command), escapes, …
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")

Approval = Literal["auto", "grant", "person"]


def lab_of(ctx: OpContext) -> LabClients:
    lab = ctx.services.workspace.lab
    if lab is None:
        raise DomainError(
            "NO_LAB_CLIENT",
            "This server runs without Jupyter (standalone): there is no JupyterLab to reach. "
            "Serve the workspace with `jupyter lab` and open it in a browser.",
        )
    return lab


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WindowParams(_Params):
    window: str | None = WINDOW


# --------------------------------------------------------------------------- clients


class ClientsResult(BaseModel):
    clients: list[dict[str, Any]] = Field(
        description="Most recently used first: {window, clientId, user, userAgent, connectedAt, lastSeen, focused, "
        "visible, active, documents: [{path, kind, dirty, tabId}], selection: {path, anchor, head, cell?}} "
        "(offsets: code points)."
    )
    count: int
    message: str | None = None


@operation("lab.clients", title="Connected JupyterLabs", read_only=True)
async def clients(ctx: OpContext, params: _Params) -> ClientsResult:
    """The JupyterLabs connected to this server (each is a window) with what the person has
    open there, the active document and their selection."""
    lab = ctx.services.workspace.lab
    found = lab.describe() if lab is not None else []
    workspace = ctx.services.workspace
    for client in found:
        window = workspace.windows.get(client["window"])
        tabs = {t.doc.path: t.id for t in window.tabs if t.in_lab} if window else {}
        for doc in client["documents"]:
            doc["tabId"] = tabs.get(doc["path"])
    message = None
    if not found:
        message = "No JupyterLab is connected: ask the person to open JupyterLab in a browser."
    return ClientsResult(clients=found, count=len(found), message=message)


# --------------------------------------------------------------------------- open, activate


class OpenParams(WindowParams):
    path: str = PATH
    line: int | None = LINE


class ShownResult(BaseModel):
    window: str
    path: str
    tabId: str | None = Field(description="The tab of the document in that window (use it with other tools).")


def _tab_id(ctx: OpContext, window: str, path: str) -> str | None:
    w = ctx.services.workspace.windows.get(window)
    return next((t.id for t in w.tabs if t.doc.path == path), None) if w else None


async def _existing(ctx: OpContext, path: str) -> str:
    api = to_api_path(ctx.settings.root_dir, path)
    if not await ctx.services.docs.storage.exists(api):
        raise DomainError("NOT_FOUND", f"no file {api!r} in the workspace", path=api)
    return api


@operation("lab.open", title="Open in JupyterLab", read_only=True)  # changes no document
async def open_(ctx: OpContext, params: OpenParams) -> ShownResult:
    """Open a file in a JupyterLab tab (the person sees it), at a line if given."""
    lab = lab_of(ctx)
    window = lab.pick(params.window)
    api = await _existing(ctx, params.path)
    request: dict[str, Any] = {"path": api}
    if params.line is not None:
        request["line"] = params.line
    await lab.request(window, "openFile", request)
    return ShownResult(window=window, path=api, tabId=_tab_id(ctx, window, api))


class ActivateParams(WindowParams):
    path: str = PATH


@operation("lab.activate", title="Show a JupyterLab tab", read_only=True)
async def activate(ctx: OpContext, params: ActivateParams) -> ShownResult:
    """Bring a document already open in JupyterLab to the front (NOT_FOUND when it is not open there)."""
    lab = lab_of(ctx)
    window = lab.pick(params.window)
    api = to_api_path(ctx.settings.root_dir, params.path)
    await lab.request(window, "activate", {"path": api})
    return ShownResult(window=window, path=api, tabId=_tab_id(ctx, window, api))


# --------------------------------------------------------------------------- commands


class CommandsParams(WindowParams):
    query: str | None = Field(None, max_length=200, description="Only commands whose id or label contains this.")
    limit: int = Field(50, ge=1, le=200, description="At most this many.")


class CommandsResult(BaseModel):
    window: str
    commands: list[dict[str, Any]] = Field(description="{id, label, caption}")
    count: int
    total: int = Field(description="How many matched.")
    truncated: bool


@operation("lab.commands", title="JupyterLab commands", read_only=True)
async def commands(ctx: OpContext, params: CommandsParams) -> CommandsResult:
    """JupyterLab's commands (what its menus and palette run), filtered by a query."""
    lab = lab_of(ctx)
    window = lab.pick(params.window)
    answer = await lab.request(window, "listCommands", {"query": params.query or ""})
    found = answer.get("commands", []) if isinstance(answer, dict) else []
    found = [c for c in found if isinstance(c, dict) and isinstance(c.get("id"), str)]
    shown = [
        {"id": c["id"][:200], "label": str(c.get("label") or "")[:200], "caption": str(c.get("caption") or "")[:200]}
        for c in found[: params.limit]
    ]
    return CommandsResult(
        window=window, commands=shown, count=len(shown), total=len(found), truncated=len(found) > len(shown)
    )


def _command_text(command: str, argument: str = "command") -> str:
    if not command.strip():
        raise ArgumentError(f"{argument} is empty", argument)
    if len(command) > MAX_COMMAND:
        raise ArgumentError(f"{argument} is longer than {MAX_COMMAND} characters", argument)
    if CONTROL.search(command):
        raise ArgumentError(
            f"{argument} must be one line of visible text (no line breaks or control characters)", argument
        )
    return command


async def _approve(ctx: OpContext, lab: LabClients, window: str, question: dict[str, Any]) -> Approval:
    """Whether this agent may go ahead: the policy, a grant on the whole workspace, or the
    person's answer in JupyterLab (APPROVAL_REQUIRED when they deny or do not answer)."""
    allowed = allowed_by(ctx, "")  # the review gate's rules, with a grant on the whole workspace
    if allowed is not None:
        return allowed
    agent = ctx.caller.client_name or "an agent"
    await ctx.report_progress(0, None, f"waiting for the person to allow this in JupyterLab ({window})")
    answer = await lab.ask(window, {"agent": agent, "user": ctx.caller.username, **question})
    if answer == "allow":
        return "person"
    said = "denied it" if answer == "deny" else "did not answer in time"
    raise DomainError(
        "APPROVAL_REQUIRED",
        f"The person {said} in JupyterLab ({window}). Do not retry at once: ask them, or ask for a grant on the "
        "whole workspace.",
        decision="denied" if answer == "deny" else "timeout",
        window=window,
    )


def _required(value: Any, argument: str) -> Any:
    # Optional in the model so actions sharing the argument publish one schema for it.
    if value is None:
        raise ArgumentError(f"{argument} is required", argument)
    return value


class RunCommandParams(WindowParams):
    command: str | None = Field(None, max_length=MAX_COMMAND, description=COMMAND_DESCRIPTION)
    args: dict[str, Any] | None = Field(None, description="run_command: the command's arguments.")


class RunCommandResult(BaseModel):
    window: str
    command: str
    label: str = ""
    result: Any = Field(None, description="What the command returned, when it is plain data.")
    approvedBy: Approval = Field(description="auto (server policy), grant, or person (asked in JupyterLab).")


@operation("lab.run_command", title="Run a JupyterLab command", destructive=True)
async def run_command(ctx: OpContext, params: RunCommandParams) -> RunCommandResult:
    """Run a JupyterLab command by id with arguments. Under the 'suggest' policy the person
    allows or denies it in JupyterLab first."""
    lab = lab_of(ctx)
    window = lab.pick(params.window)
    command = _command_text(_required(params.command, "command")).strip()
    args = params.args or {}
    approved = await _approve(ctx, lab, window, {"action": "runCommand", "command": command, "args": args})
    answer = await lab.request(window, "runCommand", {"command": command, "args": args})
    answer = answer if isinstance(answer, dict) else {}
    return RunCommandResult(
        window=window,
        command=command,
        label=str(answer.get("label") or ""),
        result=answer.get("result"),
        approvedBy=approved,
    )


# --------------------------------------------------------------------------- debugger


class BreakpointParams(WindowParams):
    path: str = PATH
    line: int | None = LINE


class BreakpointResult(BaseModel):
    window: str
    path: str
    line: int
    set: bool = Field(
        description="True: a breakpoint is on that line now; false: none is (it was removed, or the kernel "
        "put it on another line or refused it: see lines)."
    )
    lines: list[int] = Field(description="The breakpoint lines of that source now, as the kernel took them.")


@operation("lab.toggle_breakpoint", title="Toggle a breakpoint", read_only=True)  # changes no document
async def toggle_breakpoint(ctx: OpContext, params: BreakpointParams) -> BreakpointResult:
    """Toggle a JupyterLab debugger breakpoint at a line of a file open in JupyterLab (in a
    notebook: of its active cell). Needs the debugger switched on for a kernel."""
    lab = lab_of(ctx)
    window = lab.pick(params.window)
    api = await _existing(ctx, params.path)
    line: int = _required(params.line, "line")
    answer = await lab.request(window, "toggleBreakpoint", {"path": api, "line": line})
    answer = answer if isinstance(answer, dict) else {}
    lines = [n for n in answer.get("lines", []) if isinstance(n, int)]
    return BreakpointResult(window=window, path=api, line=line, set=bool(answer.get("set")), lines=lines)


# --------------------------------------------------------------------------- terminal


class TerminalParams(WindowParams):
    command: str | None = Field(None, max_length=MAX_COMMAND, description=COMMAND_DESCRIPTION)


class TerminalResult(BaseModel):
    window: str
    terminal: str = Field(description="The Jupyter terminal's name (its output is in JupyterLab).")
    command: str | None
    approvedBy: Approval | None = None


@operation("lab.terminal", title="Type into a new terminal", destructive=True)
async def terminal(ctx: OpContext, params: TerminalParams) -> TerminalResult:
    """Open a new Jupyter terminal (in the workspace root) in JupyterLab and type a command
    + Enter into it. Under the 'suggest' policy the person allows or denies the command in
    JupyterLab first."""
    lab = lab_of(ctx)
    window = lab.pick(params.window)
    command = _command_text(params.command) if params.command is not None else None
    approved: Approval | None = None
    if command is not None:
        approved = await _approve(ctx, lab, window, {"action": "terminal", "command": command})
    # In the workspace root, where the agent's paths are relative to (a terminal without a
    # directory starts wherever the Jupyter process was started).
    request: dict[str, Any] = {"cwd": str(ctx.settings.root_dir)}
    if command is not None:
        request["command"] = command
    answer = await lab.request(window, "openTerminal", request)
    answer = answer if isinstance(answer, dict) else {}
    return TerminalResult(
        window=window, terminal=str(answer.get("terminal") or ""), command=command, approvedBy=approved
    )
