"""Jupyter side: the ExtensionApp, the MCP transport bridge, and the REST API for the UIs."""
