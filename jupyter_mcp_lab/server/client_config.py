"""Ready-to-paste configurations for the MCP clients people use, for one endpoint."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import Any

CLIENTS = ("claude-code", "claude-desktop", "vscode", "cursor")

# What a person replaces by hand with an agent key of its own (python -m jupyter_mcp_lab
# keys add NAME, or POST mcp-lab/api/keys): the config shows where it goes. Configs handed
# to agents never carry the Jupyter server's token.
KEY_PLACEHOLDER = "<agent key>"

# Per client: its name as people know it, and where its configuration goes.
LABELS = {
    "claude-code": "Claude Code",
    "claude-desktop": "Claude Desktop",
    "vscode": "VS Code",
    "cursor": "Cursor",
}
WHERE = {
    "claude-code": "run in a shell",
    "claude-desktop": "claude_desktop_config.json; needs Node.js for npx",
    "vscode": ".vscode/mcp.json",
    "cursor": "~/.cursor/mcp.json",
}


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


MAKERS: dict[str, Callable[[str, str, str], dict[str, Any]]] = {
    "claude-desktop": claude_desktop,
    "vscode": vscode,
    "cursor": cursor,
}


def snippet(client: str, name: str, url: str, token: str) -> str:
    """Exactly what goes into the client: a shell command or a JSON file's content."""
    if client == "claude-code":
        return claude_code(name, url, token)
    if client not in MAKERS:
        raise ValueError(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
    return json.dumps(MAKERS[client](name, url, token), indent=2)


def render(client: str, name: str, url: str, token: str) -> str:
    """One client's configuration as text, with a line saying where it goes."""
    text = snippet(client, name, url, token)  # first: an unknown client raises before LABELS
    return f"# {LABELS[client]} ({WHERE[client]})\n{text}"


def configs(name: str, url: str, token: str) -> list[dict[str, str]]:
    """Every client's configuration as the UIs offer it: a label, where it goes, the text.

    ``text`` is pasted as is, so it carries no comment line (a ``#`` line would make the
    JSON files invalid); ``where`` says where it goes.
    """
    return [{"client": c, "label": LABELS[c], "where": WHERE[c], "text": snippet(c, name, url, token)} for c in CLIENTS]
