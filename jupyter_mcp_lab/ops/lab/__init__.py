"""The person's JupyterLab through the lab bridge: clients, open, commands, terminal."""

from __future__ import annotations

from . import bridge

OPERATIONS = (
    bridge.clients,
    bridge.open_,
    bridge.activate,
    bridge.commands,
    bridge.run_command,
    bridge.toggle_breakpoint,
    bridge.terminal,
)
