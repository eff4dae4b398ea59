"""Ready-to-paste configurations for the MCP clients people use, for one endpoint."""

from __future__ import annotations

import json
import shlex
from typing import Any

CLIENTS = ("claude-code", "claude-desktop", "vscode", "cursor")


def claude_code(name: str, url: str, token: str) -> str:
    header = f"Authorization: Bearer {token}"
    return f"claude mcp add --transport http {shlex.quote(name)} {shlex.quote(url)} --header {shlex.quote(header)}"


def claude_desktop(name: str, url: str, token: str) -> dict[str, Any]:
    # Claude Desktop's config file starts local (stdio) servers; mcp-remote bridges to HTTP.
    return {
        "mcpServers": {
            name: {
                "command": "npx",
                "args": ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
                "env": {"AUTH_HEADER": f"Bearer {token}"},
            }
        }
    }


def vscode(name: str, url: str, token: str) -> dict[str, Any]:
    return {"servers": {name: {"type": "http", "url": url, "headers": {"Authorization": f"Bearer {token}"}}}}


def cursor(name: str, url: str, token: str) -> dict[str, Any]:
    return {"mcpServers": {name: {"url": url, "headers": {"Authorization": f"Bearer {token}"}}}}


def render(client: str, name: str, url: str, token: str) -> str:
    """One client's configuration as text, with a line saying where it goes."""
    if client == "claude-code":
        return "# Claude Code (run in a shell)\n" + claude_code(name, url, token)
    makers = {
        "claude-desktop": (
            "# Claude Desktop (claude_desktop_config.json; needs Node.js for npx)",
            claude_desktop,
        ),
        "vscode": ("# VS Code (.vscode/mcp.json)", vscode),
        "cursor": ("# Cursor (~/.cursor/mcp.json)", cursor),
    }
    if client not in makers:
        raise ValueError(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
    where, make = makers[client]
    return where + "\n" + json.dumps(make(name, url, token), indent=2)


def render_all(name: str, url: str, token: str) -> str:
    return "\n\n".join(render(c, name, url, token) for c in CLIENTS)
