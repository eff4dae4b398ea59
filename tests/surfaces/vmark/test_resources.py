"""The vmark profile as a whole (all 76 tools of spec/seed-tools.json "vmark") and its four
resources, through a real Jupyter server and the Python SDK client. Resources are read for
the reading session: its focus decides the document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from jupyter_mcp_lab.core.revision import revision_of
from jupyter_mcp_lab.surfaces import DEFAULT_PROFILES, PROFILES
from tests.conftest import LabServer

from .test_workspace import VMarkSession

SEED = Path(__file__).resolve().parents[2] / "fixtures" / "seed-tools.json"  # a copy of shared/spec's
DOC = "# Top\n\nIntro.\n\n## One\n\n### One.a\n\n## Two\n\nEnd.\n"
URIS = ["vmark://document/outline", "vmark://document/metadata", "vmark://windows/list", "vmark://windows/focused"]


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["vmark"]


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "doc.md").write_text(DOC)
    (root / "data.txt").write_text("plain\n")
    return root


@pytest.fixture
def vmark(mcp_client: Any, root: Path):
    def open_vmark(**kwargs: Any) -> VMarkSession:
        return VMarkSession(mcp_client("vmark", **kwargs))

    return open_vmark


async def read(tools: Any, uri: str) -> Any:
    result = await tools.client.read_resource(uri)
    [content] = result.contents
    assert content.mime_type == "application/json"
    assert str(content.uri) == uri
    return json.loads(content.text)


def test_vmark_is_a_default_profile() -> None:
    assert "vmark" in PROFILES and "vmark" in DEFAULT_PROFILES
    assert PROFILES["vmark"].server_name == "vmark-mcp-server"


async def test_tools_list_is_exactly_vmarks_76_tools(mcp_lab: LabServer, vmark: Any) -> None:
    seed = json.loads(SEED.read_text())["vmark"]["tools"]
    async with vmark() as tools:
        assert tools.client.server_info is not None and tools.client.server_info.name == "vmark-mcp-server"
        listed = (await tools.client.list_tools()).tools
    assert len(seed) == 76
    assert [t.name for t in listed] == seed
    for t in listed:
        assert t.description and t.output_schema is not None and t.input_schema["type"] == "object", t.name
        assert "$ref" not in json.dumps(t.input_schema), t.name


async def test_the_four_resources_are_listed(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        listed = (await tools.client.list_resources()).resources
    assert [str(r.uri) for r in listed] == URIS
    assert [r.name for r in listed] == ["document/outline", "document/metadata", "windows/list", "windows/focused"]
    assert all(r.mime_type == "application/json" and r.description and r.title for r in listed)


async def test_window_resources_without_a_document(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        windows = await read(tools, "vmark://windows/list")
        assert windows == await tools.ok("workspace_list_windows")
        assert windows["windows"][0]["label"] == "main"
        assert await read(tools, "vmark://windows/focused") == {"label": "main", "activeTabId": None}
        for uri in URIS[:2]:
            with pytest.raises(MCPError) as err:
                await read(tools, uri)
            assert "INVALID_TAB" in str(err.value), uri
        with pytest.raises(MCPError):
            await tools.client.read_resource("vmark://nope")


async def test_document_resources_follow_the_sessions_focus(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools, vmark(client_name="second-agent") as other:
        tab = (await tools.ok("workspace_open_document", path="doc.md"))["tabId"]
        outline = await read(tools, "vmark://document/outline")
        assert (outline["filePath"], outline["revision"]) == ("doc.md", revision_of(DOC))
        [top] = outline["outline"]
        assert (top["nodeId"], top["level"], top["title"], top["from"], top["to"]) == ("h-0", 1, "Top", 0, len(DOC))
        assert [(c["nodeId"], c["title"]) for c in top["children"]] == [("h-1", "One"), ("h-3", "Two")]
        assert [(c["nodeId"], c["title"], c["children"]) for c in top["children"][0]["children"]] == [
            ("h-2", "One.a", [])
        ]
        metadata = await read(tools, "vmark://document/metadata")
        assert metadata == await tools.ok("workspace_get_document_info")
        assert (metadata["filePath"], metadata["wordCount"], metadata["charCount"]) == (
            "doc.md",
            7,
            len(DOC),
        )  # Top Intro One One a Two End
        assert await read(tools, "vmark://windows/focused") == {"label": "main", "activeTabId": tab}
        [main] = (await read(tools, "vmark://windows/list"))["windows"]
        assert (main["filePath"], main["activeTabId"]) == ("doc.md", tab)
        # The other session has not focused anything: its focus is its own.
        assert await read(other, "vmark://windows/focused") == {"label": "main", "activeTabId": None}
        with pytest.raises(MCPError):
            await read(other, "vmark://document/metadata")
        await other.ok("workspace_open_document", path="data.txt")
        assert (await read(other, "vmark://document/metadata"))["filePath"] == "data.txt"
        with pytest.raises(MCPError) as err:
            await read(other, "vmark://document/outline")  # not markdown
        assert "markdown" in str(err.value)
        assert (await read(tools, "vmark://document/metadata"))["filePath"] == "doc.md"
