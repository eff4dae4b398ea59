"""The jupyter profile's tools take what jupyter-mcp-server 2.2.4's take: the same names,
parameters, required ones and defaults (tests/fixtures/jupyter-mcp-server-tools.json was read
from the reference's own tools/list, installed from the registry in a venv of its own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jupyter_mcp_lab.surfaces import PROFILES, build_server
from tests.helpers import make_services

from .reference import TOOLS

REFERENCE = Path(__file__).parents[2] / "fixtures" / "jupyter-mcp-server-tools.json"


def _shape(schema: dict[str, Any]) -> dict[str, Any]:
    required = sorted(schema.get("required", []))
    return {
        "required": required,
        "parameters": {
            name: {"default": "<required>" if name in required else prop.get("default")}
            for name, prop in sorted(schema.get("properties", {}).items())
        },
    }


async def test_the_17_tools_take_the_reference_parameters_and_defaults(tmp_path: Path) -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert sorted(reference) == sorted(TOOLS)
    server = build_server(PROFILES["jupyter"], make_services(tmp_path))
    ours = {t.name: _shape(t.input_schema) for t in await server.list_tools()}
    assert sorted(ours) == sorted(TOOLS)
    for name in TOOLS:
        assert ours[name] == reference[name], name
