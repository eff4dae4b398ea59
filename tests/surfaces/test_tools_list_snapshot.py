"""Every profile's tools/list, byte for byte, against a stored snapshot.

Surfaces are adapters over capability operations; moving an operation or reshaping how a
surface maps onto it must not change what a client is shown. A deliberate change to a
profile's tools regenerates the snapshot: ``UPDATE_SNAPSHOTS=1 pytest tests/surfaces``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jupyter_mcp_lab.surfaces import PROFILES, build_server
from tests.helpers import make_services

SNAPSHOTS = Path(__file__).parent / "snapshots"


async def _tools_list(profile: str, tmp_path: Path) -> str:
    server = build_server(PROFILES[profile], make_services(tmp_path))
    tools = await server.list_tools()
    dumped = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    return json.dumps(dumped, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


@pytest.mark.parametrize("profile", sorted(PROFILES))
async def test_tools_list_is_unchanged(profile: str, tmp_path: Path) -> None:
    current = await _tools_list(profile, tmp_path)
    snapshot = SNAPSHOTS / f"{profile}.json"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not snapshot.exists():
        snapshot.write_text(current, encoding="utf-8")
    assert current == snapshot.read_text(encoding="utf-8"), f"tools/list of {profile!r} changed"
