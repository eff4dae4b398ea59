"""Where each profile's MCP endpoint lives: one rule (``server/routes``) for Jupyter and standalone."""

from __future__ import annotations

import re

from jupyter_mcp_lab.server.app import PROFILE_RE
from jupyter_mcp_lab.server.routes import profile_path
from jupyter_mcp_lab.server.standalone import endpoint_path


def test_profile_paths() -> None:
    assert profile_path("lab") == "mcp"
    assert profile_path("vmark") == "mcp-lab/vmark/mcp"
    assert (endpoint_path("lab"), endpoint_path("vault")) == ("/mcp", "/mcp-lab/vault/mcp")
    # Jupyter's route for every profile is the same rule with the profile as a pattern.
    m = re.fullmatch(profile_path(PROFILE_RE), "mcp-lab/vmark2/mcp")
    assert m is not None and m.group("profile") == "vmark2"
