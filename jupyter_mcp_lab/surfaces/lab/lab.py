"""The lab profile's ``lab`` tool: the person's JupyterLab."""

from __future__ import annotations

from ...ops.lab import bridge
from ..base import CompositeTool

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
        "clients": bridge.clients,
        "open": bridge.open_,
        "activate": bridge.activate,
        "commands": bridge.commands,
        "run_command": bridge.run_command,
        "toggle_breakpoint": bridge.toggle_breakpoint,
        "terminal": bridge.terminal,
    },
)
