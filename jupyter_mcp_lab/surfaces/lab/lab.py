"""The lab profile's ``lab`` tool: the person's JupyterLab."""

from __future__ import annotations

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
        "clients": "lab.clients",
        "open": "lab.open",
        "activate": "lab.activate",
        "commands": "lab.commands",
        "run_command": "lab.run_command",
        "toggle_breakpoint": "lab.toggle_breakpoint",
        "terminal": "lab.terminal",
    },
)
