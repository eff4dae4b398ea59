"""Where a ``Lab`` connects: an HTTP MCP endpoint, or a command speaking MCP on stdio."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from .discovery import ServerInfo


@dataclass
class Target:
    """Where a ``Lab`` connects: an HTTP MCP endpoint, or a command speaking MCP on stdio."""

    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    command: list[str] | None = None
    env: dict[str, str] | None = None
    cwd: str | None = None
    server: ServerInfo | None = None  # set when the endpoint is a jupyter-mcp-lab server
    profile: str | None = None

    @classmethod
    def stdio(cls, spec: str, env: dict[str, str] | None = None, cwd: str | None = None) -> Target:
        argv = shlex.split(spec.removeprefix("stdio:"))
        if not argv:
            raise ValueError("stdio: needs a command, e.g. connect('stdio:python my_server.py')")
        return cls(command=argv, env=env, cwd=cwd)

    @property
    def label(self) -> str:
        return self.url if self.url else "stdio: " + shlex.join(self.command or [])
