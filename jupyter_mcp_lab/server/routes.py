"""Where each profile's MCP endpoint is served: one rule for Jupyter and standalone mode."""

from __future__ import annotations


def profile_path(profile: str) -> str:
    """The path of a profile's MCP endpoint relative to the server's base URL: ``mcp`` for
    ``lab``, ``mcp-lab/{profile}/mcp`` for the others. Standalone mode, which has no base
    URL, serves it at ``"/" + profile_path(profile)``."""
    return "mcp" if profile == "lab" else f"mcp-lab/{profile}/mcp"
