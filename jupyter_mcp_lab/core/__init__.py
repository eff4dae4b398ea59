"""Pure-Python document model: no Jupyter and no MCP imports here."""
