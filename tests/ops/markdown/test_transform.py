"""document.transform (ops/markdown/transform.py): CJK spacing and punctuation through an
in-process MCP client on real files."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from jupyter_mcp_lab.core.revision import revision_of

HAS_CJK = importlib.util.find_spec("jupyter_mcp_lab.core.markdown.cjk") is not None


@pytest.fixture
def lab(ops_client: Any) -> tuple[Any, Any, Path]:
    services, open_tools = ops_client()
    root = services.settings.root_dir
    return services, open_tools, root


@pytest.mark.skipif(not HAS_CJK, reason="jupyter_mcp_lab.core.markdown.cjk is not there yet")
async def test_transform_cjk_spacing_changes_only_the_spacing(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "zh.md").write_text("# 标题\n\n使用Python编写\n\n```\n代码Python\n```\n")
    async with open_tools() as tools:
        r = await tools.ok("document", "read", path="zh.md")
        t = await tools.ok("document", "transform", path="zh.md", kind="cjk-spacing", expected_revision=r["revision"])
        stale = await tools.fail(
            "document", "transform", path="zh.md", kind="cjk-spacing", expected_revision=r["revision"]
        )
        assert stale["error"] == "STALE"
    text = (root / "zh.md").read_text()
    assert t["revision"] == revision_of(text)
    assert "使用 Python 编写" in text
    assert "代码Python" in text  # code is left alone


@pytest.mark.skipif(not HAS_CJK, reason="jupyter_mcp_lab.core.markdown.cjk is not there yet")
async def test_transform_dry_run_and_kind_argument(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "zh.md").write_text("中文,English\n")
    async with open_tools() as tools:
        d = await tools.ok("document", "transform", path="zh.md", kind="cjk-punctuation", mode="dryRun")
        assert d["applied"] is False and d["diff"]
        assert (root / "zh.md").read_text() == "中文,English\n"
        result = await tools.call("document", "transform", path="zh.md", kind="rot13")
        assert result.is_error


@pytest.mark.skipif(not HAS_CJK, reason="jupyter_mcp_lab.core.markdown.cjk is not there yet")
async def test_transform_options_and_count(lab: Any) -> None:
    _, open_tools, root = lab
    (root / "zh.md").write_text("中文English很好123.\n\n中文，好。\n")  # noqa: RUF001
    async with open_tools() as tools:
        added = await tools.ok("document", "transform", path="zh.md", kind="cjk-spacing")
        assert (root / "zh.md").read_text().startswith("中文 English 很好 123.\n")
        removed = await tools.ok("document", "transform", path="zh.md", kind="cjk-spacing", spacing="remove")
        assert (root / "zh.md").read_text().startswith("中文English很好123.\n")
        half = await tools.ok("document", "transform", path="zh.md", kind="cjk-punctuation", direction="to-halfwidth")
        bad = await tools.fail("document", "transform", path="zh.md", kind="cjk-spacing", spacing="fix")
    assert (added["count"], removed["count"], half["count"]) == (3, 3, 2)
    assert (root / "zh.md").read_text().endswith("中文, 好.\n")
    assert (bad["error"], bad["argument"]) == ("INVALID_ARGUMENT", "spacing")
