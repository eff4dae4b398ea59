"""jupyter-mcp-lab: a JupyterLab server as an MCP server for the documents in its workspace."""

from typing import Any

from ._version import __version__

__all__ = ["__version__"]


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    from .server.app import MCPLabApp

    return [{"module": "jupyter_mcp_lab", "app": MCPLabApp}]


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    return [{"src": "labextension", "dest": "jupyter-mcp-lab"}]
