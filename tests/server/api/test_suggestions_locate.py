"""``GET suggestions?locate=true``: where each pending suggestion's original text is now.

Suggestions are staged by a real MCP agent under the ``suggest`` policy; the person then
changes the file on disk (as JupyterLab's editor saves it) and the list, read over real
HTTP, places each suggestion in the text as it is now, the way accepting would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_mcp_lab.core.revision import revision_of

from ...conftest import LabServer
from .conftest import DOC, Api, assert_error, on_disk, suggest_replace


def write(root: Path, text: str, name: str = "notes.md") -> None:
    with open(root / name, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def placed(listed: dict[str, Any]) -> dict[str, tuple[int | None, int | None]]:
    return {s["id"]: (s["currentStart"], s["currentEnd"]) for s in listed["suggestions"]}


async def test_an_edit_above_shifts_the_range(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [gamma] = await suggest_replace(tools, "gamma line", "GAMMA line")
    at = DOC.index("gamma")

    listed = await api.ok("GET", "suggestions", path="notes.md", locate="true")
    assert listed["revision"] == revision_of(DOC)
    assert placed(listed) == {gamma: (at, at + len("gamma"))}
    assert listed["suggestions"][0]["start"] == at  # the base range stays as it was staged

    # A person adds a paragraph above it: the range moves by what was added.
    added = "Added on top by hand.\n\n"
    now = added + DOC
    write(root, now)
    listed = await api.ok("GET", "suggestions", path="notes.md", locate="true")
    assert listed["revision"] == revision_of(now)
    [s] = listed["suggestions"]
    assert (s["currentStart"], s["currentEnd"]) == (at + len(added), at + len(added) + len("gamma"))
    assert now[s["currentStart"] : s["currentEnd"]] == s["original"] == "gamma"
    assert (s["start"], s["end"], s["lineStart"]) == (at, at + 5, 7)  # the record itself is unchanged

    # Accepting applies it exactly where the list placed it.
    await api.ok("POST", f"suggestions/{gamma}/accept")
    assert on_disk(root) == now[: s["currentStart"]] + "GAMMA" + now[s["currentEnd"] :]


async def test_a_conflicting_edit_gives_null(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [alpha, beta, gamma] = await suggest_replace(tools, "line", "LINE")
    # The person rewrites beta's words; alpha and gamma are untouched, gamma moves.
    now = DOC.replace("beta line", "beta, rewritten by hand")
    write(root, now)
    listed = await api.ok("GET", "suggestions", path="notes.md", locate="true")
    assert listed["revision"] == revision_of(now)
    a, g = now.index("alpha line") + 6, now.index("gamma line") + 6
    assert placed(listed) == {alpha: (a, a + 4), beta: (None, None), gamma: (g, g + 4)}
    # The list agrees with accepting: beta conflicts, the others apply where placed.
    result = await api.ok("POST", "suggestions/accept-all", {"path": "notes.md"})
    assert [s["id"] for s in result["conflicts"]] == [beta]
    assert on_disk(root) == now.replace("alpha line", "alpha LINE").replace("gamma line", "gamma LINE")


async def test_offsets_are_code_points(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    async with agent() as tools:
        [sid] = await suggest_replace(tools, "beta", "BETA")
    # Astral characters (two UTF-16 units, four UTF-8 bytes each) and an accent above it.
    above = "🦊🐕 café\n\n"
    write(root, above + DOC)
    listed = await api.ok("GET", "suggestions", path="notes.md", locate="true")
    start = len(above) + DOC.index("beta")  # Python counts code points
    assert start == len(above.encode("utf-16-le")) // 2 - 2 + DOC.index("beta")
    assert placed(listed) == {sid: (start, start + 4)}


async def test_without_path_and_other_statuses(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    write(root, "other alpha\n", "other.md")
    async with agent() as tools:
        [alpha] = await suggest_replace(tools, "alpha line", "ALPHA line")
        [other] = await suggest_replace(tools, "alpha", "ALPHA", path="other.md")
    write(root, "x\n" + DOC)
    # Without path each suggestion is placed in its own document; no single revision.
    listed = await api.ok("GET", "suggestions", locate="true")
    assert listed["revision"] is None
    assert placed(listed) == {alpha: (DOC.index("alpha") + 2, DOC.index("alpha") + 7), other: (6, 11)}

    # Decided suggestions are not placed; without locate the fields are not there.
    await api.ok("POST", f"suggestions/{other}/reject")
    listed = await api.ok("GET", "suggestions", path="other.md", status="all", locate="true")
    assert placed(listed) == {other: (None, None)}
    assert listed["revision"] == revision_of("other alpha\n")
    plain = await api.ok("GET", "suggestions", path="notes.md", locate="false")
    assert "revision" not in plain and "currentStart" not in plain["suggestions"][0]


async def test_unreadable_documents_place_nothing(mcp_lab: LabServer, api: Api, root: Path) -> None:
    # A document with no suggestions still has its revision; one that cannot be read (no
    # such file, a folder, not UTF-8, outside the workspace) has none, and that is no error.
    listed = await api.ok("GET", "suggestions", path="notes.md", locate="true")
    assert (listed["revision"], listed["suggestions"]) == (revision_of(DOC), [])
    (root / "folder").mkdir()
    (root / "binary.md").write_bytes(b"\xff\xfe\x00bad")
    for path in ("nothing.md", "folder", "binary.md", "../../etc/passwd"):
        listed = await api.ok("GET", "suggestions", path=path, locate="true")
        assert (listed["revision"], listed["count"]) == (None, 0), path
    for value in ("yes", "1", ""):
        body = assert_error(await api.get("suggestions", path="notes.md", locate=value), 400, "INVALID_ARGUMENT")
        assert body["argument"] == "locate"


async def test_a_symlink_out_of_the_root_is_refused_not_read(
    mcp_lab: LabServer, api: Api, root: Path, tmp_path: Path
) -> None:
    """Issue 12, finding 6: the REST API confines paths as the tools do; listing with
    ``locate`` on a link that leaves the root must not read (or hash) the file outside."""
    outside = tmp_path / "outside-secret.md"
    outside.write_text("password = hello\n", encoding="utf-8")
    (root / "link.md").symlink_to(outside)
    r = await api.request("GET", "suggestions", path="link.md", locate="true")
    body = assert_error(r, 400, "INVALID_PATH")
    assert revision_of("password = hello\n") not in r.text and "revision" not in body
    assert (await api.ok("GET", "suggestions", path="notes.md", locate="true"))["suggestions"] == []
