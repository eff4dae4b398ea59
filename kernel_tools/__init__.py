"""Kernel helpers for jupyter-mcp-lab: call the lab's MCP tools from a notebook.

``connect()``, the ``Lab`` client and the widgets arrive with the kernel-helpers issue;
the package ships now so the distribution's layout is stable.
"""
