"""The document storage is a provider chosen by a trait (``MCPLabApp.document_storage_class``):
a class configured by its import path serves the agents' reads and writes in a real server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from traitlets import TraitError

from jupyter_mcp_lab.core.storage import FileStorage
from jupyter_mcp_lab.server.app import MCPLabApp
from jupyter_mcp_lab.server.contents_storage import ContentsStorage
from jupyter_mcp_lab.server.live_storage import LiveStorage

from ..conftest import LabServer, Tools


class RecordingStorage(ContentsStorage):
    """The contents manager's storage, noting what agents read and write."""

    def __init__(self, serverapp: Any, hidden_allowed: Any = ()) -> None:
        super().__init__(serverapp, hidden_allowed)
        self.hidden = hidden_allowed
        self.calls: list[tuple[str, str]] = []

    async def read_text(self, path: str) -> str:
        self.calls.append(("read", path))
        return await super().read_text(path)

    async def write_text(self, path: str, text: str, base: str | None = None) -> None:
        self.calls.append(("write", path))
        await super().write_text(path, text, base)


def storage_of(server: LabServer) -> Any:
    return server.extension.services.docs.storage


@pytest.mark.parametrize("mcp_app_config", [{"document_storage_class": f"{__name__}.RecordingStorage"}])
async def test_a_storage_class_configured_by_trait_serves_the_agents(mcp_lab: LabServer, mcp_client: Any) -> None:
    storage = storage_of(mcp_lab)
    assert type(storage) is RecordingStorage and storage.hidden == [".github/"]  # built as documented
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "note.md").write_text("# Note\n\nold\n")
    async with mcp_client("lab") as client:
        tools = Tools(client)
        read = await tools.ok("document", "read", path="note.md")
        await tools.ok(
            "document", "write", path="note.md", content="# Note\n\nnew\n", expected_revision=read["revision"]
        )
    assert ("read", "note.md") in storage.calls and ("write", "note.md") in storage.calls
    assert (root / "note.md").read_text() == "# Note\n\nnew\n"  # through the contents manager


async def test_the_default_storage_is_live(mcp_lab: LabServer) -> None:
    assert type(storage_of(mcp_lab)) is LiveStorage
    assert MCPLabApp.class_traits()["document_storage_class"].help  # documented in --help-all


def test_a_class_that_is_not_a_contents_storage_is_refused() -> None:
    app = MCPLabApp()
    app.document_storage_class = "jupyter_mcp_lab.server.contents_storage.ContentsStorage"
    assert app.document_storage_class is ContentsStorage
    with pytest.raises(TraitError):
        app.document_storage_class = FileStorage
