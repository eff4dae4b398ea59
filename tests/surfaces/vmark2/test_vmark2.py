"""The vmark2 profile (spec/vmark-tools-v2.md) through a real Jupyter server and the Python SDK.

Every action with its documented arguments and return fields, and every error in VMark's
shape: domain errors as ``{success: false, error: "<JSON of {error, message, ...}>"}``,
argument errors as ``{success: false, error: "<plain string>"}``.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab import __version__
from jupyter_mcp_lab.core.revision import revision_of
from tests.conftest import LabServer, Tools, text_of

HAS_CJK = importlib.util.find_spec("jupyter_mcp_lab.core.markdown.cjk") is not None
HAS_WORKFLOW = importlib.util.find_spec("jupyter_mcp_lab.core.workflow") is not None
needs_cjk = pytest.mark.skipif(not HAS_CJK, reason="jupyter_mcp_lab.core.markdown.cjk is not there yet")
needs_workflow = pytest.mark.skipif(not HAS_WORKFLOW, reason="jupyter_mcp_lab.core.workflow is not there yet")

NOTES = "# Notes\n\nSome text.\n"
WORKFLOW = """\
# CI for the project
name: CI
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest  # the usual
    steps:
      - uses: actions/checkout@v4
      - name: Test
        run: pytest
"""


@pytest.fixture
def mcp_profiles() -> list[str]:
    return ["lab", "vmark2"]


@pytest.fixture
def root(mcp_lab: LabServer) -> Path:
    root = Path(mcp_lab.serverapp.root_dir)
    (root / "notes.md").write_text(NOTES)
    (root / "other.md").write_text("# Other\n")
    (root / "workflows").mkdir()
    (root / "workflows" / "ci.yml").write_text(WORKFLOW)
    return root


@pytest.fixture
def vmark(mcp_client: Any, root: Path):
    """``async with vmark() as tools`` opens an SDK session on the vmark2 endpoint."""

    def open_vmark(**kwargs: Any):
        return _VMarkSession(mcp_client("vmark2", **kwargs))

    return open_vmark


class _VMarkSession:
    def __init__(self, cm: Any) -> None:
        self.cm = cm

    async def __aenter__(self) -> Tools:
        return Tools(await self.cm.__aenter__())

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.cm.__aexit__(*exc)


async def envelope(tools: Tools, tool: str, action: str, **arguments: Any) -> dict[str, Any]:
    """A domain error in VMark's shape; returns the decoded envelope."""
    payload = await tools.fail(tool, action, **arguments)
    assert set(payload) == {"success", "error"}, payload
    assert payload["success"] is False
    assert isinstance(payload["error"], str)
    decoded = json.loads(payload["error"])
    assert isinstance(decoded, dict)
    assert decoded["message"]
    return decoded


async def plain_error(tools: Tools, tool: str, action: str, **arguments: Any) -> str:
    """An argument error in VMark's shape: a plain string, not JSON."""
    payload = await tools.fail(tool, action, **arguments)
    assert payload["success"] is False
    assert isinstance(payload["error"], str)
    with pytest.raises(ValueError):
        json.loads(payload["error"])
    return payload["error"]


# --------------------------------------------------------------------------- the surface


async def test_four_composite_tools_with_the_documented_actions(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        client = tools.client
        assert client.server_info is not None
        assert client.server_info.name == "vmark-mcp-server"
        listing = {t.name: t for t in (await client.list_tools()).tools}
    assert sorted(listing) == ["document", "session", "workflow", "workspace"]
    actions = {name: t.input_schema["properties"]["action"]["enum"] for name, t in listing.items()}
    assert actions == {
        "session": ["get_state"],
        "workspace": ["new", "open", "save", "save_as", "close", "switch_tab", "focus_window"],
        "document": ["read", "write", "transform"],
        "workflow": ["apply_patch", "validate"],
    }
    props = {name: set(t.input_schema["properties"]) for name, t in listing.items()}
    assert props["workspace"] == {"action", "kind", "windowLabel", "filePath", "tabId", "force"}
    assert props["document"] == {"action", "tabId", "content", "expected_revision", "kind"}
    assert props["workflow"] == {"action", "tabId", "patches", "expected_revision"}
    for tool in listing.values():
        assert tool.description
        assert tool.output_schema is not None
    assert listing["session"].annotations.read_only_hint is True
    assert listing["document"].annotations.read_only_hint is False


# --------------------------------------------------------------------------- session


async def test_get_state_windows_tabs_and_capabilities(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        empty = await tools.ok("session", "get_state")
        notes = (await tools.ok("workspace", "open", filePath="notes.md"))["tabId"]
        ci = (await tools.ok("workspace", "open", filePath="workflows/ci.yml"))["tabId"]
        await tools.ok("document", "write", content=WORKFLOW + "# more\n")  # ci is focused: now dirty
        state = await tools.ok("session", "get_state")
    assert empty["windows"][0]["tabs"] == []
    [window] = state["windows"]
    assert {k: window[k] for k in ("label", "focused")} == {"label": "main", "focused": True}
    assert window["tabs"] == [
        {
            "id": notes,
            "filePath": "notes.md",
            "title": "notes",
            "dirty": False,
            "revision": revision_of(NOTES),
            "kind": "markdown",
        },
        {
            "id": ci,
            "filePath": "workflows/ci.yml",
            "title": "ci",
            "dirty": True,
            "revision": revision_of(WORKFLOW + "# more\n"),
            "kind": "yaml-workflow",
        },
    ]
    caps = state["capabilities"]
    assert caps["version"] == __version__
    assert {"markdown", "yaml-workflow"} <= set(caps["supportedKinds"])
    assert caps["mcpProtocol"]
    assert [p["profile"] for p in caps["profiles"]] == ["lab", "vmark2"]
    assert state["caller"]["profile"] == "vmark2"


# --------------------------------------------------------------------------- workspace


async def test_workspace_lifecycle(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        new = await tools.ok("workspace", "new")
        assert new["tabId"]
        wf = await tools.ok("workspace", "new", kind="yaml-workflow", windowLabel="main")
        opened = await tools.ok("workspace", "open", filePath="notes.md")
        assert opened["tabId"] not in (new["tabId"], wf["tabId"])
        assert (await tools.ok("workspace", "open", filePath=str(root / "notes.md")))["tabId"] == opened["tabId"]

        await tools.ok("workspace", "switch_tab", tabId=new["tabId"])
        assert (await tools.ok("document", "read"))["filePath"] is None
        await tools.ok("document", "write", content="# Draft\n")
        saved_as = await tools.ok("workspace", "save_as", filePath="draft.md")
        assert saved_as["revision"] == revision_of("# Draft\n")
        assert (root / "draft.md").read_text() == "# Draft\n"

        await tools.ok("document", "write", content="# Draft 2\n")
        saved = await tools.ok("workspace", "save", tabId=new["tabId"])
        assert saved == {"filePath": "draft.md", "revision": revision_of("# Draft 2\n")}
        assert (root / "draft.md").read_text() == "# Draft 2\n"

        await tools.ok("document", "write", content="unsaved\n")
        assert await tools.ok("workspace", "close", tabId=new["tabId"]) == {
            "closed": False,
            "reason": "DIRTY",
            "suggestionIds": None,
        }
        closed = await tools.ok("workspace", "close", tabId=new["tabId"], force=True)
        assert closed["closed"] is True
        assert (root / "draft.md").read_text() == "# Draft 2\n"
        assert (await tools.ok("workspace", "close", tabId=wf["tabId"]))["closed"] is True

        focus = await tools.ok("workspace", "focus_window", windowLabel="main")
        assert focus["windowLabel"] == "main"
        state = await tools.ok("session", "get_state")
    assert [t["id"] for t in state["windows"][0]["tabs"]] == [opened["tabId"]]


async def test_focus_is_per_session(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as one, vmark() as two:
        await one.ok("workspace", "open", filePath="notes.md")
        await two.ok("workspace", "open", filePath="other.md")
        assert (await one.ok("document", "read"))["content"] == NOTES
        assert (await two.ok("document", "read"))["content"] == "# Other\n"


# --------------------------------------------------------------------------- document


async def test_document_read_and_write(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        tab = (await tools.ok("workspace", "open", filePath="notes.md"))["tabId"]
        r = await tools.ok("document", "read", tabId=tab)
        assert {k: r[k] for k in ("content", "revision", "filePath", "kind", "dirty")} == {
            "content": NOTES,
            "revision": revision_of(NOTES),
            "filePath": "notes.md",
            "kind": "markdown",
            "dirty": False,
        }
        w = await tools.ok("document", "write", content="# Notes\n\nNew.\n", expected_revision=r["revision"])
        assert w["revision"] == revision_of("# Notes\n\nNew.\n")
        assert (root / "notes.md").read_text() == NOTES  # a tab: saved by workspace.save
        again = await tools.ok("document", "read")
        assert (again["content"], again["dirty"], again["revision"]) == ("# Notes\n\nNew.\n", True, w["revision"])
        # Whatever string is sent is stored verbatim, workflow YAML included.
        await tools.ok("workspace", "open", filePath="workflows/ci.yml")
        raw = await tools.ok("document", "read")
        assert raw["content"] == WORKFLOW and raw["kind"] == "yaml-workflow"
        await tools.ok("document", "write", content=WORKFLOW.replace("pytest", "pytest -x"))
        await tools.ok("workspace", "save")
    assert (root / "workflows" / "ci.yml").read_text() == WORKFLOW.replace("pytest", "pytest -x")


async def test_stale_write_envelope(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="notes.md")
        r = await tools.ok("document", "read")
        await tools.ok("document", "write", content="first\n", expected_revision=r["revision"])
        error = await envelope(tools, "document", "write", content="second\n", expected_revision=r["revision"])
        assert error == {
            "error": "STALE",
            "message": error["message"],
            "current_revision": revision_of("first\n"),
        }
        assert "changed" in error["message"]
        assert (await tools.ok("document", "read"))["content"] == "first\n"


async def test_invalid_tab_envelopes(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        # No tab is focused in a new session.
        for tool, action, args in [
            ("document", "read", {}),
            ("document", "write", {"content": "x"}),
            ("workspace", "save", {}),
            ("workflow", "validate", {}),
        ]:
            error = await envelope(tools, tool, action, **args)
            assert error["error"] == "INVALID_TAB", (tool, action, error)
        for tool, action, args in [
            ("document", "read", {"tabId": "tab-999"}),
            ("workspace", "close", {"tabId": "tab-999"}),
            ("workspace", "switch_tab", {"tabId": "tab-999"}),
            ("workspace", "save_as", {"tabId": "tab-999", "filePath": "x.md"}),
        ]:
            error = await envelope(tools, tool, action, **args)
            assert (error["error"], error["tabId"]) == ("INVALID_TAB", "tab-999")
        error = await envelope(tools, "workspace", "focus_window", windowLabel="second")
        assert error["error"] == "INVALID_TAB"


async def test_invalid_path_envelopes(mcp_lab: LabServer, vmark: Any, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret\n")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "secret-link.md").symlink_to(outside / "secret.md")
    (root / "latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    async with vmark() as tools:
        for path in [
            "missing.md",
            "../outside/secret.md",
            "sub/../../outside/secret.md",
            str(outside / "secret.md"),
            "/etc/passwd",
            "escape/secret.md",
            "secret-link.md",
            str(root / "escape" / "secret.md"),
            "latin1.md",  # not a text file Jupyter can read
        ]:
            error = await envelope(tools, "workspace", "open", filePath=path)
            assert error["error"] == "INVALID_PATH", (path, error)
            assert "secret" not in error["message"] or "secret" in path
        await tools.ok("workspace", "new")  # the failed opens left no tab; this one makes one
        state = await tools.ok("session", "get_state")
    assert [t["filePath"] for t in state["windows"][0]["tabs"]] == [""]


async def test_argument_errors_are_plain_strings(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="notes.md")
        message = await plain_error(tools, "document", "write")
        assert "content" in message
        message = await plain_error(tools, "workspace", "open")
        assert "filePath" in message
        message = await plain_error(tools, "workspace", "close")
        assert "tabId" in message
        message = await plain_error(tools, "document", "explode")
        assert "explode" in message and "read" in message
        message = await plain_error(tools, "workspace", "save", force=True)  # close's argument
        assert "force" in message


async def test_arguments_are_not_converted(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    # Issue 12, finding 10: a value of the wrong JSON type is refused, naming the argument.
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="notes.md")
        message = await plain_error(tools, "document", "write", content="x\n", expected_revision=5)
        assert message == "expected_revision: Input should be a valid string, got an integer 5"
        message = await plain_error(tools, "workspace", "close", tabId="tab-1", force="yes")
        assert message == 'force: Input should be a valid boolean, got a string "yes"'
        message = await plain_error(tools, "workspace", "close", tabId="tab-1", force=1)
        assert message.startswith("force: Input should be a valid boolean, got an integer 1")
        message = await plain_error(tools, "document", "write", content=12)
        assert message.startswith("content: Input should be a valid string")
        assert (await tools.ok("document", "read"))["content"] == NOTES
        assert len((await tools.ok("session", "get_state"))["windows"][0]["tabs"]) == 1  # not closed
    assert (root / "notes.md").read_text() == NOTES


@pytest.mark.parametrize("mcp_app_config", [{"approval": "suggest"}], ids=["suggest"])
async def test_a_new_tab_takes_its_first_content_at_once(mcp_lab: LabServer, vmark: Any) -> None:
    # Issue 12, finding 11: VMark's new tab → write works under the default policy, as in VMark.
    services = mcp_lab.extension.services
    async with vmark() as tools, vmark(client_name="other-agent") as other:
        tab = (await tools.ok("workspace", "new"))["tabId"]
        w = await tools.ok("document", "write", content="# New\n", expected_revision=revision_of(""))
        assert (w["revision"], w["applied"], w["mode"]) == (revision_of("# New\n"), True, "apply")
        [cp] = services.reviews.store.list_checkpoints()
        assert cp.id == w["checkpointId"]
        read = await tools.ok("document", "read")
        assert (read["content"], read["revision"], read["dirty"]) == ("# New\n", w["revision"], True)
        # With content, a write is a suggestion again (v2 documents no empty-only rule for write).
        again = await tools.ok("document", "write", content="# Changed\n")
        assert (again["applied"], again["mode"], again["revision"]) == (False, "suggest", w["revision"])
        # Another agent's new tab is not this agent's: its write there is staged.
        theirs = (await other.ok("workspace", "new"))["tabId"]
        staged = await tools.ok("document", "write", tabId=theirs, content="# Mine\n")
        assert (staged["applied"], staged["mode"]) == (False, "suggest")
        assert (await other.ok("document", "read", tabId=theirs))["content"] == ""
        assert (await tools.ok("document", "read", tabId=tab))["content"] == "# New\n"


async def test_lab_only_arguments_are_not_listed_and_not_honoured(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="notes.md")
        # An argument the tool does not have is refused (plain-string argument error), never applied.
        r = await tools.call("document", "read", section="h-0", maxBytes=300)
        assert r.is_error
        assert r.structured_content["success"] is False
        assert r.structured_content["error"].startswith("unknown arguments maxBytes, section;")
        assert (await tools.ok("document", "read"))["content"] == NOTES


@needs_workflow
async def test_not_workflow_on_a_markdown_tab(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="notes.md")
        for action, args in [("validate", {}), ("apply_patch", {"patches": []})]:
            error = await envelope(tools, "workflow", action, **args)
            assert (error["error"], error["kind"]) == ("NOT_WORKFLOW", "markdown")


@needs_workflow
async def test_workflow_apply_patch_keeps_comments_and_answers_stale(mcp_lab: LabServer, vmark: Any, root: Path):
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="workflows/ci.yml")
        r = await tools.ok("document", "read")
        done = await tools.ok(
            "workflow",
            "apply_patch",
            patches=[{"kind": "workflow.set", "path": "name", "value": "Checks"}],
            expected_revision=r["revision"],
        )
        text = (await tools.ok("document", "read"))["content"]
        assert done["revision"] == revision_of(text)
        assert text == WORKFLOW.replace("name: CI", "name: Checks")  # comments and all else intact
        stale = await envelope(
            tools,
            "workflow",
            "apply_patch",
            patches=[{"kind": "workflow.set", "path": "name", "value": "Again"}],
            expected_revision=r["revision"],
        )
        assert (stale["error"], stale["current_revision"]) == ("STALE", done["revision"])
        bad = await envelope(tools, "workflow", "apply_patch", patches=[{"kind": "no.such"}])
        assert bad["error"] == "INVALID_PATCH"
        await tools.ok("workspace", "save")
    assert (root / "workflows" / "ci.yml").read_text() == WORKFLOW.replace("name: CI", "name: Checks")


@needs_workflow
async def test_workflow_validate(mcp_lab: LabServer, vmark: Any) -> None:
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="workflows/ci.yml")
        v = await tools.ok("workflow", "validate")
    assert set(v) >= {"ok", "diagnostics", "binaryAvailable"}
    assert isinstance(v["binaryAvailable"], bool)
    for d in v["diagnostics"]:
        assert set(d) == {"line", "col", "message", "severity"}
    if not v["binaryAvailable"]:
        assert v["diagnostics"] == []


@needs_cjk
async def test_document_transform(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    (root / "zh.md").write_text("# 标题\n\n使用Python编写,很好\n")
    async with vmark() as tools:
        await tools.ok("workspace", "open", filePath="zh.md")
        r = await tools.ok("document", "read")
        t = await tools.ok("document", "transform", kind="cjk-spacing", expected_revision=r["revision"])
        spaced = (await tools.ok("document", "read"))["content"]
        assert t["revision"] == revision_of(spaced)
        assert "使用 Python 编写" in spaced
        stale = await envelope(tools, "document", "transform", kind="cjk-punctuation", expected_revision=r["revision"])
        assert stale["error"] == "STALE"
        await tools.ok("document", "transform", kind="cjk-punctuation")
        await tools.ok("document", "transform", kind="cjk-format")
        result = await tools.call("document", "transform", kind="rot13")
        assert result.is_error
    assert (root / "zh.md").read_text() == "# 标题\n\n使用Python编写,很好\n"  # the tab is not saved


# --------------------------------------------------------------------------- read-only server


@pytest.mark.parametrize("mcp_app_config", [{"read_only": True}], ids=["read-only"])
async def test_read_only_server(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    async with vmark() as tools:
        tab = (await tools.ok("workspace", "open", filePath="notes.md"))["tabId"]
        assert (await tools.ok("document", "read"))["content"] == NOTES
        state = await tools.ok("session", "get_state")
        assert state["capabilities"]["readOnly"] is True
        for tool, action, args in [
            ("document", "write", {"content": "x"}),
            ("workspace", "save", {"tabId": tab}),
            ("workspace", "save_as", {"filePath": "copy.md"}),
            ("document", "transform", {"kind": "cjk-spacing"}),
            ("workflow", "apply_patch", {"patches": []}),
        ]:
            error = await envelope(tools, tool, action, **args)
            assert error["error"] == "READ_ONLY", (tool, action, error)
    assert (root / "notes.md").read_text() == NOTES
    assert not (root / "copy.md").exists()


async def test_errors_leave_the_server_clean(mcp_lab: LabServer, vmark: Any, root: Path) -> None:
    """Domain errors are answers, not failures: the server logs no traceback (mcp_lab checks)."""
    async with vmark() as tools:
        await envelope(tools, "workspace", "open", filePath="../x")
        await envelope(tools, "document", "read", tabId="nope")
        result = await tools.call("session", "get_state")
        assert not result.is_error
        assert json.loads(text_of(result)) == result.structured_content
    assert os.listdir(root)
