"""CJK spacing and punctuation: prose only, code/math/HTML/URLs untouched, one edit list."""

# ruff: noqa: RUF001  (full-width punctuation is the subject here)

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError
from jupyter_mcp_lab.core.markdown.cjk import cjk_format, cjk_punctuation, cjk_spacing, transform
from jupyter_mcp_lab.core.text import apply_edits


def run(fn: Any, text: str, *args: Any) -> str:
    edits = fn(text, *args)
    for a, b in pairwise(edits):
        assert a.end <= b.start  # sorted, non-overlapping
    return apply_edits(text, edits)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("中文English混排\n", "中文 English 混排\n"),
        ("第3章和v2版本\n", "第 3 章和 v2 版本\n"),
        ("日本語とEnglish\n", "日本語と English\n"),
        ("한국어English\n", "한국어 English\n"),
        ("中文 English\n", "中文 English\n"),  # already spaced
        ("中文**粗体**English\n", "中文**粗体** English\n"),  # space outside the closing marker
        ("中文**bold**\n", "中文 **bold**\n"),  # before the opening marker
        ("中文[link](http://x.org)和\n", "中文 [link](http://x.org) 和\n"),
        ("见`code`和\n", "见 `code` 和\n"),
        ("`code中文`\n", "`code中文`\n"),  # code span content stays
        ("见https://example.com了解\n", "见 https://example.com 了解\n"),
        ("[链接](http://例子.com/a中b)\n", "[链接](http://例子.com/a中b)\n"),  # destinations stay
        ("数学$x+y$公式\n", "数学$x+y$公式\n"),
        ("# 标题Title\n", "# 标题 Title\n"),
        ("- 列表item\n- [ ] 任务task\n", "- 列表 item\n- [ ] 任务 task\n"),
        ("> 引用quote\n", "> 引用 quote\n"),
        ("| 表格a | b中 |\n|---|---|\n", "| 表格 a | b 中 |\n|---|---|\n"),
        ("中文<b>html</b>\n", "中文<b>html</b>\n"),
    ],
)
def test_spacing(text: str, expected: str) -> None:
    assert run(cjk_spacing, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "```\n中文English\n```\n",
        "    中文English\n",
        "$$\n中文x\n$$\n",
        "<div>\n中文English\n</div>\n",
        "---\ntitle: 中文English\n---\n",
        "- item\n  ```\n  中文English\n  ```\n",
        "> quote\n> $$\n> 中文x\n> $$\n",
        "[ref]: http://x.org/中文English\n",
    ],
)
def test_untouched(text: str) -> None:
    for fn in (cjk_spacing, cjk_format, cjk_punctuation):
        assert fn(text) == []


def test_remove_spacing() -> None:
    assert run(cjk_spacing, "中文 English  混排\n", "remove") == "中文English混排\n"
    with pytest.raises(ArgumentError) as err:
        cjk_spacing("x", "maybe")
    assert err.value.argument == "action"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("你好,世界\n", "你好，世界\n"),
        ("你好, 世界. 再见!\n", "你好，世界。再见！\n"),
        ("真的?!\n", "真的？！\n"),
        ("结束.\n", "结束。\n"),
        ("等等...\n", "等等...\n"),  # an ellipsis stays
        ("文件名.txt\n", "文件名.txt\n"),  # a dot before a letter stays
        ("(中文)和(English)\n", "（中文）和(English)\n"),
        ("Hello, world.\n", "Hello, world.\n"),
        ("中文: x\n", "中文：x\n"),
        ("行尾,  \n下一行\n", "行尾，  \n下一行\n"),  # spaces before a line break may be a hard break
        ("`中文,code`\n", "`中文,code`\n"),
    ],
)
def test_to_fullwidth(text: str, expected: str) -> None:
    assert run(cjk_punctuation, text) == expected


def test_to_halfwidth() -> None:
    text = "你好，世界。再见！（注）\n"
    assert run(cjk_punctuation, text, "to-halfwidth") == "你好, 世界. 再见! (注)\n"
    with pytest.raises(ArgumentError) as err:
        cjk_punctuation(text, "sideways")
    assert err.value.argument == "direction"


def test_format_is_one_pass_and_idempotent() -> None:
    text = "中文English混排, 还有数字123和**粗体**English.\n中文   English\n\n```\n中文English,\n```\n"
    out = run(cjk_format, text)
    assert out == "中文 English 混排，还有数字 123 和**粗体** English.\n中文 English\n\n```\n中文English,\n```\n"
    assert cjk_format(out) == []
    assert run(transform, text, "cjk-format") == out
    assert run(transform, text, "cjk-spacing") == run(cjk_spacing, text)
    with pytest.raises(ArgumentError):
        transform(text, "rot13")


def test_crlf_kept() -> None:
    assert run(cjk_format, "中文English\r\n\r\n下一段,x\r\n") == "中文 English\r\n\r\n下一段，x\r\n"


def test_nested_math_ends() -> None:
    text = "- item\n  $$\n  中文x\n  $$\n  中文x\n"
    assert run(cjk_spacing, text) == "- item\n  $$\n  中文x\n  $$\n  中文 x\n"
