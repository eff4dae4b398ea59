"""JSON request bodies: parsed with a nesting limit, refused with a 400 envelope, nothing changed.

Before the limit, 1,000 levels of nesting raised RecursionError inside the parser: a 500
with a traceback in the server log (which the ``mcp_lab`` fixture turns into a failure).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.server.json_input import MAX_DEPTH

from ...conftest import LabServer
from .conftest import DOC, Api, assert_error, on_disk, suggest_replace


def nested(levels: int) -> str:
    """``{"ids": [[...]]}``, ``levels`` deep: the object and ``levels - 1`` arrays."""
    return '{"ids": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"


ROUTES = ["suggestions/accept-all", "suggestions/reject-all", "grants"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("levels", [MAX_DEPTH, 1_000, 100_000])
async def test_deeply_nested_bodies_are_refused_with_a_400_envelope(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path, route: str, levels: int
) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "alpha", "ALPHA")
    r = await api.http.post(
        api.url(route), content=nested(levels), headers={**mcp_lab.auth(), "Content-Type": "application/json"}
    )
    body = assert_error(r, 400, "INVALID_ARGUMENT")
    if levels > MAX_DEPTH:
        assert body["argument"] == "body"
        assert f"nested deeper than {MAX_DEPTH} levels" in body["message"], body
    else:  # within the limit: parsed, then refused by the model (a list of ids is not a list of lists)
        assert "nested deeper" not in body["message"], body
    # Nothing changed: the suggestion is pending, the file as it was, no grant made.
    assert (await api.ok("GET", f"suggestions/{sid}"))["status"] == "pending"
    assert on_disk(root) == DOC
    assert (await api.ok("GET", "grants"))["grants"] == []


async def test_brackets_inside_strings_do_not_count(mcp_lab: LabServer, api: Api, root: Path) -> None:
    # A path may hold any characters: only the structure's nesting is limited.
    path = "[" * 1_000 + ".md"
    r = await api.post("suggestions/accept-all", {"path": path})
    assert r.status_code == 200, r.text
    assert r.json()["accepted"] == []


async def test_bodies_that_are_not_json_say_so(mcp_lab: LabServer, api: Api, root: Path) -> None:
    for content in (b"{", b"\xff\xfe\x00", b'{"ids": ["a"'):
        r = await api.http.post(
            api.url("suggestions/accept-all"),
            content=content,
            headers={**mcp_lab.auth(), "Content-Type": "application/json"},
        )
        body = assert_error(r, 400, "INVALID_ARGUMENT")
        assert body["argument"] == "body" and "not JSON" in body["message"], body


async def test_a_path_with_a_nul_character_matches_nothing(
    mcp_lab: LabServer, api: Api, agent: Any, root: Path
) -> None:
    # Found by the OpenAPI fuzzer: the path filter reached the filesystem and answered 500.
    # A path no file can have is kept as it is, as any other such filter: it matches nothing.
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "alpha", "ALPHA")
    for route, key in (("suggestions/accept-all", "accepted"), ("suggestions/reject-all", "rejected")):
        assert (await api.ok("POST", route, {"path": "notes.md\u0000"}))[key] == []
    assert (await api.ok("GET", f"suggestions/{sid}"))["status"] == "pending"
    assert on_disk(root) == DOC
