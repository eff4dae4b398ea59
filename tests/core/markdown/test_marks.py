"""Inline marks: toggle, links, clear — exact output, only the targeted bytes change."""

from __future__ import annotations

from typing import Any

import pytest

from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.markdown.marks import clear_marks, remove_link, scan_inline, set_link, toggle_mark
from jupyter_mcp_lab.core.text import apply_edits


def run(fn: Any, text: str, *args: Any) -> str:
    return apply_edits(text, fn(text, *args))


def rng(text: str, part: str, nth: int = 0) -> tuple[int, int]:
    at = -1
    for _ in range(nth + 1):
        at = text.index(part, at + 1)
    return at, at + len(part)


@pytest.mark.parametrize(
    ("text", "part", "mark", "expected"),
    [
        ("Hello world.\n", "world", "bold", "Hello **world**.\n"),
        ("Hello world.\n", "world", "italic", "Hello *world*.\n"),
        ("Hello world.\n", "world", "code", "Hello `world`.\n"),
        ("Hello world.\n", "world", "strike", "Hello ~~world~~.\n"),
        ("Hello world.\n", "world", "underline", "Hello <u>world</u>.\n"),
        ("Hello world.\n", "world", "highlight", "Hello ==world==.\n"),
        ("Hello  world. \n", " world. ", "bold", "Hello  **world.** \n"),  # whitespace is trimmed
        ("use a`b here\n", "a`b", "code", "use ``a`b`` here\n"),
        ("use `x here\n", "`x", "code", "use `` `x `` here\n"),
        ("a **b** c\n", "a **b** c", "bold", "**a b c**\n"),  # runs inside are merged
        ("a **b** c d\n", "b** c", "bold", "a **b c** d\n"),
        ("x **bold** y\n", "bold", "italic", "x ***bold*** y\n"),
    ],
)
def test_toggle_on(text: str, part: str, mark: str, expected: str) -> None:
    assert run(toggle_mark, text, *rng(text, part), mark) == expected


@pytest.mark.parametrize(
    ("text", "part", "mark", "expected"),
    [
        ("Hello **world**.\n", "world", "bold", "Hello world.\n"),  # markers just outside
        ("Hello **world**.\n", "**world**", "bold", "Hello world.\n"),  # markers just inside
        ("Hello *world*.\n", "world", "italic", "Hello world.\n"),
        ("Hello _world_.\n", "world", "italic", "Hello world.\n"),
        ("Hello __world__.\n", "world", "bold", "Hello world.\n"),
        ("x ***bold*** y\n", "bold", "italic", "x **bold** y\n"),
        ("x ***bold*** y\n", "bold", "bold", "x *bold* y\n"),
        ("Hello `world`.\n", "world", "code", "Hello world.\n"),
        ("Hello ``a`b``.\n", "a`b", "code", "Hello a`b.\n"),
        ("Hello ~~world~~.\n", "world", "strike", "Hello world.\n"),
        ("Hello <u>world</u>.\n", "world", "underline", "Hello world.\n"),
        ("Hello ==world==.\n", "world", "highlight", "Hello world.\n"),
        ("**abc def ghi**\n", "def", "bold", "**abc** def **ghi**\n"),  # a longer run is split
        ("**abc def**\n", "def", "bold", "**abc** def\n"),
        ("**abc def**\n", "abc", "bold", "abc **def**\n"),
    ],
)
def test_toggle_off(text: str, part: str, mark: str, expected: str) -> None:
    assert run(toggle_mark, text, *rng(text, part), mark) == expected


def test_cursor_inside_a_run_removes_it() -> None:
    text = "a **bold** b\n"
    at = text.index("ol")
    assert run(toggle_mark, text, at, at, "bold") == "a bold b\n"
    with pytest.raises(ArgumentError):
        toggle_mark(text, 1, 1, "bold")


@pytest.mark.parametrize(
    ("text", "part", "expected"),
    [
        ("- item text\n", "- item text", "- **item text**\n"),
        ("- [ ] todo\n", "- [ ] todo", "- [ ] **todo**\n"),
        ("1. first\n2. second\n", "second", "1. first\n2. **second**\n"),
        ("## Title ##\n", "## Title ##", "## **Title** ##\n"),
        ("> quoted words\n", "> quoted", "> **quoted** words\n"),
        ("| a | b c |\n| --- | --- |\n| d | e |\n", "b c", "| a | **b c** |\n| --- | --- |\n| d | e |\n"),
        ("one two\nthree four\n", "two\nthree", "one **two\nthree** four\n"),  # a paragraph may span lines
        ("see [the docs](u) now\n", "docs](u) now", "see **[the docs](u) now**\n"),  # widened over the link
        ("a `code` b\n", "de` b", "a **`code` b**\n"),  # never cut a code span
        ("a\r\nb c\r\n\r\nd\r\n", "c", "a\r\nb **c**\r\n\r\nd\r\n"),
    ],
)
def test_bold_in_blocks(text: str, part: str, expected: str) -> None:
    assert run(toggle_mark, text, *rng(text, part), "bold") == expected


@pytest.mark.parametrize(
    ("text", "part", "argument"),
    [
        ("para one\n\npara two\n", "one\n\npara", "range"),
        ("```\ncode here\n```\n", "code", "range"),
        ("$$\nx + y\n$$\n", "x", "range"),
        ("- one\n- two\n", "one\n- two", "range"),
        ("| a | b |\n| --- | --- |\n", "a | b", "range"),
        ("| a | b |\n| --- | --- |\n", "---", "range"),
        ("- item\n  ```\n  code here\n  ```\n", "code", "range"),
    ],
)
def test_refused_ranges(text: str, part: str, argument: str) -> None:
    with pytest.raises(ArgumentError) as err:
        toggle_mark(text, *rng(text, part), "bold")
    assert err.value.argument == argument


def test_bad_mark_and_offsets() -> None:
    with pytest.raises(ArgumentError) as err:
        toggle_mark("abc\n", 0, 3, "blink")
    assert err.value.argument == "mark"
    with pytest.raises(ArgumentError) as err:
        toggle_mark("abc\n", 0, 99, "bold")
    assert err.value.argument == "end"
    with pytest.raises(ArgumentError):
        toggle_mark("abc\n", 3, 1, "bold")


@pytest.mark.parametrize(
    ("text", "part", "args", "expected"),
    [
        ("Hello world\n", "world", ("https://x.org",), "Hello [world](https://x.org)\n"),
        ("Hello world\n", "world", ("https://x.org", 'a "b"'), 'Hello [world](https://x.org "a \\"b\\"")\n'),
        ("Hello world\n", "world", ("my file.md",), "Hello [world](<my file.md>)\n"),
        ("Hello [world](old)\n", "world", ("new",), "Hello [world](new)\n"),
        ("Hello [world](old)\n", "[world](old)", ("new",), "Hello [world](new)\n"),
        ("a [b](u) c\n", "a [b](u) c", ("v",), "[a b c](v)\n"),
    ],
)
def test_set_link(text: str, part: str, args: tuple[Any, ...], expected: str) -> None:
    assert run(set_link, text, *rng(text, part), *args) == expected


def test_set_link_refuses_bad_urls() -> None:
    for url in ("", "a\nb", "<a b>"):
        with pytest.raises(ArgumentError) as err:
            set_link("Hello world\n", 6, 11, url)
        assert err.value.argument == "url"


def test_remove_link() -> None:
    text = 'See [the docs](http://x "t") and <https://auto.org>.\n'
    assert run(remove_link, text, text.index("docs")) == "See the docs and <https://auto.org>.\n"
    assert run(remove_link, text, text.index("auto")) == 'See [the docs](http://x "t") and https://auto.org.\n'
    assert run(remove_link, text, (0, len(text) - 1)) == "See the docs and https://auto.org.\n"
    split = "[one two three](u)\n"
    assert run(remove_link, split, rng(split, "two")) == "[one](u) two [three](u)\n"
    with pytest.raises(DomainError) as err:
        remove_link(text, 1)
    assert err.value.code == "NOT_FOUND"


def test_clear_marks() -> None:
    text = "**a** *b* ~~c~~ [d](u) `e` <u>f</u> ==g== h\n"
    assert run(clear_marks, text, 0, len(text) - 1) == "a b c d e f g h\n"
    assert run(clear_marks, "**abc def**\n", 6, 9) == "**abc** def\n"
    assert run(clear_marks, "x **abc** y\n", 4, 7) == "x abc y\n"  # exactly wrapped
    assert clear_marks("plain\n", 0, 5) == []


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("***x***", ["bold", "italic"]),
        ("**a** and __b__", ["bold", "bold"]),
        ("snake_case_name and 2 * 3 * 4", []),
        ("\\*not* `*code*` $*m*$", ["code"]),
        ("*a **b** c*", ["bold", "italic"]),
        ("[a *b*](u) *c*", ["link", "italic", "italic"]),
        ("~~s~~ ==h== ~single~", ["strike", "highlight"]),
    ],
)
def test_scan_inline(text: str, kinds: list[str]) -> None:
    assert sorted(sp.kind for sp in scan_inline(text, 0, len(text)).spans) == sorted(kinds)


def test_emphasis_does_not_pair_across_a_link() -> None:
    text = "*a [b* c](u)"
    assert [sp.kind for sp in scan_inline(text, 0, len(text)).spans] == ["link"]
