"""The data directory stays bounded (issue 12, finding 4).

Checkpoints kept whole old and new texts beside the whole text after each change, and were
never pruned: 298 checkpoints of an agent's whole-file writes took 1.03 GB. They now keep a
diff, and a retention policy (count, age, total size) prunes them and gives the space back;
status reports the store's size.
"""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Any

import pytest

from ...conftest import LabServer, Tools
from .conftest import Api

CAP = 2_000_000


def store_bytes(server: LabServer) -> int:
    folder = Path(server.extension.data_dir)
    return sum(f.stat().st_size for f in folder.glob("suggestions.sqlite3*"))


async def write(tools: Tools, path: str, content: str, **more: Any) -> dict[str, Any]:
    """``document write`` (a failure reported without the megabytes of its arguments)."""
    result = await tools.call("document", "write", path=path, content=content, **more)
    assert not result.is_error and result.structured_content is not None, str(result.content)[:500]
    return result.structured_content


def random_text(rng: random.Random, size: int) -> str:
    line = string.ascii_letters + string.digits
    return "".join("".join(rng.choices(line, k=79)) + "\n" for _ in range(size // 80))


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto"}])
async def test_a_small_change_to_a_big_document_stores_a_small_diff(
    mcp_lab: LabServer, api: Api, mcp_client: Any
) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    big = random_text(random.Random(4), 3_000_000)
    (root / "big.md").write_text(big)
    async with mcp_client("lab") as client:
        tools = Tools(client)
        read = await tools.ok("document", "read", path="big.md", maxBytes=256)  # for its revision
        before = store_bytes(mcp_lab)
        # One edit at each end: one region from the first to the last changed character is
        # the whole file.
        changed = "# Title\n" + big[80:-80] + "the end\n"
        done = await write(tools, "big.md", changed, expected_revision=read["revision"])
    assert done["applied"] is True
    assert store_bytes(mcp_lab) - before < 200_000  # was ~9 MB: old, new and the text after
    detail = await api.ok("GET", f"checkpoints/{done['checkpointId']}")
    assert "+# Title\n" in detail["diff"] and "+the end\n" in detail["diff"]
    assert (detail["lineStart"], detail["lineEnd"]) == (1, 37_500)
    undo = await api.ok("POST", f"checkpoints/{done['checkpointId']}/revert")
    assert undo["source"] == "revert" and (root / "big.md").read_text() == big


@pytest.mark.parametrize("mcp_app_config", [{"approval": "auto", "checkpoint_max_bytes": CAP}])
async def test_whole_file_writes_stay_within_the_retention_and_status_reports_it(
    mcp_lab: LabServer, api: Api, mcp_client: Any
) -> None:
    rng = random.Random(12)
    (Path(mcp_lab.serverapp.root_dir) / "notes.md").write_text("# Notes\n")
    async with mcp_client("lab") as client:
        tools = Tools(client)
        for n in range(25):  # ~300 KB of new text each time: ~20 MB of diffs in all
            await write(tools, "notes.md", random_text(rng, 300_000))
            assert store_bytes(mcp_lab) < 3 * CAP, f"after {n + 1} writes"
    store = (await api.ok("GET", "status"))["store"]
    assert store["checkpointBytes"] <= CAP and 0 < store["checkpoints"] < 25
    assert store["retention"] == {"maxCount": 2000, "maxAgeDays": 30.0, "maxBytes": CAP}
    assert store["bytes"] == store_bytes(mcp_lab) and store["path"].endswith("suggestions.sqlite3")
    assert store["quarantined"] == {"suggestions": 0, "checkpoints": 0, "grants": 0}
    listed = (await api.ok("GET", "checkpoints", limit=100))["checkpoints"]
    assert len(listed) == store["checkpoints"]
