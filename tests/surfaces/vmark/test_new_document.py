"""VMark's ``document_set_content`` under the default ``suggest`` policy (issue 12, finding 11),
through a real Jupyter server and the Python SDK client.

VMark allows it only on an empty document and applies it at once; a document with content
gets VMark's error. Here: into a new document the same agent created it applies at once (a
checkpoint the person can revert), so VMark's common flow workspace_new_document →
document_set_content → document_insert_at_position works, the insert staged as VMark stages it.
A document with content is refused with VMark's message and nothing is staged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of
from tests.conftest import CLIENT_NAME, LabServer, Tools

SUGGEST = pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}], ids=["suggest"])
TEXT = "# Title\n\nHello.\n"
NOT_EMPTY = (
    "Failed to set document content: document_set_content is only allowed on empty documents. "
    "Use document_insert_at_cursor, document_replace, or selection_replace for non-empty documents."
)


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "vmark"]


def vmark(mcp_client: Any, **kwargs: Any) -> Any:
    class Session:
        async def __aenter__(self) -> Tools:
            self.cm = mcp_client("vmark", **kwargs)
            return Tools(await self.cm.__aenter__())

        async def __aexit__(self, *exc: Any) -> Any:
            return await self.cm.__aexit__(*exc)

    return Session()


@SUGGEST
async def test_new_document_set_content_then_insert(mcp_lab: LabServer, mcp_client: Any) -> None:
    services = mcp_lab.extension.services
    async with vmark(mcp_client) as tools:
        new = await tools.ok("workspace_new_document")
        assert new["revision"] == revision_of("")
        done = await tools.ok("document_set_content", content=TEXT)
        assert (done["applied"], done["mode"], done["suggestionId"], done["count"]) == (True, "apply", None, 1)
        assert done["message"] == f"Applied: set content ({len(TEXT)} characters)"
        assert done["revision"] == revision_of(TEXT) and done["checkpointId"]
        assert (await tools.ok("document_get_content"))["content"] == TEXT
        # VMark's next step: an insert within the new text, a suggestion as VMark's insert is.
        at = TEXT.index("Hello")
        staged = await tools.ok("document_insert_at_position", text="Well, ", position=at)
        assert (staged["applied"], staged["mode"], staged["position"]) == (False, "suggest", at)
        [listed] = (await tools.ok("suggestion_list"))["suggestions"]
        assert (listed["id"], listed["from"], listed["newContent"]) == (staged["suggestionId"], at, "Well, ")
        assert (await tools.ok("document_get_content"))["content"] == TEXT
        # The document has content now: VMark's refusal, word for word, and nothing staged.
        refused = await tools.fail("document_set_content", content="# Replaced\n")
        assert refused == {"success": False, "error": NOT_EMPTY}
        assert (await tools.ok("suggestion_list"))["count"] == 1
        assert (await tools.ok("document_get_content"))["content"] == TEXT
        # The applied write is a checkpoint of this agent; the person reverts it like any other.
        [cp] = services.reviews.store.list_checkpoints()
        assert (cp.id, cp.author, cp.before_revision) == (done["checkpointId"], CLIENT_NAME, revision_of(""))
        await services.reviews.revert(cp.id, by="person")
        assert (await tools.ok("document_get_content"))["content"] == ""


@SUGGEST
async def test_only_the_creator_fills_it_and_only_while_empty(mcp_lab: LabServer, mcp_client: Any) -> None:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "empty.md").write_text("")
    (root / "notes.md").write_text("Some text.\n")
    async with vmark(mcp_client) as tools, vmark(mcp_client, client_name="other-agent") as other:
        tab = (await tools.ok("workspace_new_document"))["tabId"]
        # Another agent in the same tab: the person decides.
        await other.ok("tabs_switch", tabId=tab)
        theirs = await other.ok("document_set_content", content="# Theirs\n")
        assert (theirs["applied"], theirs["mode"]) == (False, "suggest") and theirs["suggestionId"]
        assert (await tools.ok("document_get_content"))["content"] == ""
        # An empty file nobody created here: the person decides too.
        await tools.ok("workspace_open_document", path="empty.md")
        on_file = await tools.ok("document_set_content", content="# F\n")
        assert (on_file["applied"], on_file["mode"]) == (False, "suggest")
        assert (root / "empty.md").read_text() == ""
        # A file with content: VMark's error, the file untouched.
        await tools.ok("workspace_open_document", path="notes.md")
        assert await tools.fail("document_set_content", content="# N\n") == {"success": False, "error": NOT_EMPTY}
        assert (root / "notes.md").read_text() == "Some text.\n"
        # Back in its own new tab, the creator's write still applies.
        await tools.ok("tabs_switch", tabId=tab)
        assert (await tools.ok("document_set_content", content="# Mine\n"))["applied"] is True
