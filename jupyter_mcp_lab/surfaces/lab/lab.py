"""The lab profile's ``lab`` tool: the person's JupyterLab."""

from __future__ import annotations

from ...ops.lab import bridge
from ..base import CompositeTool

LAB = CompositeTool(
    name="lab",
    title="JupyterLab",
    description=(
        "The person's JupyterLab (each connected one is a window). clients → who is connected, their open "
        "documents {path, tabId}, active one and selection; commands: their ids; run_command {command}; "
        "toggle_breakpoint {path, line} (debugger on); terminal {command}: typed + Enter in a new terminal. "
        "run_command and terminal ask the person first under 'suggest' (APPROVAL_REQUIRED if denied). "
        "NO_LAB_CLIENT: none connected."
    ),
    actions={
        "clients": bridge.clients,
        "open": bridge.open_,
        "activate": bridge.activate,
        "commands": bridge.commands,
        "run_command": bridge.run_command,
        "toggle_breakpoint": bridge.toggle_breakpoint,
        "terminal": bridge.terminal,
    },
    describe={
        "window": "From clients (default: the one used last).",
        "command": "run_command: a command id; terminal: one shell line.",
        "limit": "",
        "query": "In a command's id or label.",
    },
)
