"""``ToolResult``: the structured answer as a dict, shown richly in a notebook. Markdown is
rendered, the rest is a collapsible JSON tree, images are images, and nothing a tool sends
(a document's text, a name, an image's data) can put live HTML in the page.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from mcp_types import CallToolResult, EmbeddedResource, ImageContent, ResourceLink, TextContent, TextResourceContents

from kernel_tools import Lab as LabClient
from kernel_tools import ToolResult, connect
from kernel_tools.render import json_html
from tests.kernel_tools.conftest import Lab, note
from tests.kernel_tools.test_stdio_inspector import DEMO

HOSTILE = """# Title

**bold** and a [link](https://example.org/a?b=1&c=2).

<script>alert("script")</script>

<img src=x onerror="alert('img')">

An inline <b onclick="alert('b')">tag</b>, [a js link](javascript:alert('js')) and `<i>code</i>`.
"""


class Tags(HTMLParser):
    """The elements and attributes a browser would build from the HTML."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def names(self) -> list[str]:
        return [t for t, _ in self.tags]

    def attributes(self) -> set[str]:
        return {a for _, attrs in self.tags for a in attrs}


def result(*content: object, structured: dict[str, object] | None = None, tool: str = "t") -> ToolResult:
    return ToolResult(tool, CallToolResult(content=list(content), structured_content=structured))


# --- from the real server -----------------------------------------------------------------


def test_a_document_read_shows_its_markdown_rendered_and_the_rest_as_a_tree(lab: LabClient, lab_server: Lab) -> None:
    path = note(lab_server, "results/hostile.md", HOSTILE)
    read = lab.call("document", action="read", path=path)
    page = read._repr_html_()
    tags = Tags(page)
    # markdown rendered
    assert "<h1>Title</h1>" in page and "<strong>bold</strong>" in page
    assert ("a", {"href": "https://example.org/a?b=1&c=2"}) in tags.tags
    assert "<code>&lt;i&gt;code&lt;/i&gt;</code>" in page
    # the rest of the answer (revision, lines, …) as a collapsible tree, first level open
    assert re.search(r"<details open><summary>\{…\} <small>\d+ keys</small>", page)
    assert f"<b>revision</b>: <code>&quot;{read['revision']}&quot;</code>" in page
    assert "<b>content</b>" not in page  # shown once, rendered, not again as a string
    # the document's raw HTML is text, never elements
    assert "script" not in tags.names() and "img" not in tags.names()
    assert not {a for a in tags.attributes() if a.startswith("on")}
    assert "&lt;script&gt;" in page and "&lt;b onclick=" in page
    assert all(not (attrs.get("href") or "").startswith("javascript:") for _, attrs in tags.tags)


def test_an_error_result_renders_its_envelope(lab: LabClient) -> None:
    bad = lab.call("document", action="read", path="../<b>x</b>.md", raise_on_error=False)
    assert bad.is_error and bad["error"] == "INVALID_PATH"
    page = bad._repr_html_()
    assert "<b>error</b>: <code>&quot;INVALID_PATH&quot;</code>" in page
    assert "<b>x</b>.md" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


@pytest.fixture(scope="module")
def demo() -> Iterator[LabClient]:
    with connect(f"stdio:{sys.executable} {DEMO}", quiet=True) as lab:
        yield lab


def test_images_from_a_server_are_shown(demo: LabClient) -> None:
    picture = demo.call("picture")
    page = picture._repr_html_()
    (img,) = [attrs for tag, attrs in Tags(page).tags if tag == "img"]
    assert img["src"] == f"data:image/png;base64,{picture.images[0].data}"
    assert "<p>a red pixel</p>" in page  # the text block, as markdown


def test_text_only_and_non_object_answers(demo: LabClient) -> None:
    echo = demo.call("echo", text="**hi** <b>there</b>")
    assert echo == {"result": "echo: **hi** <b>there</b>"} and echo.text == "echo: **hi** <b>there</b>"
    assert "&lt;b&gt;there&lt;/b&gt;" in echo._repr_html_()
    roots = demo.call("roots")
    assert isinstance(roots["result"], list)  # a JSON list answer sits under "result"
    assert demo.call("fail", raise_on_error=False) == {"text": "it went wrong"}  # plain text, not JSON


# --- rendering on its own ----------------------------------------------------------------


def test_hostile_image_data_and_names_stay_text() -> None:
    evil = ImageContent(type="image", data="AAAA' onerror='alert(1)", mime_type="image/png' onload='alert(2)")
    link = ResourceLink(type="resource_link", uri="file:///x", name="<script>alert(3)</script>")
    page = result(evil, link, tool="<img src=x onerror=alert(4)>")._repr_html_()
    tags = Tags(page)
    assert not {a for a in tags.attributes() if a.startswith("on")}, tags.tags
    assert tags.names().count("img") == 1 and "script" not in tags.names()
    (img,) = [attrs for tag, attrs in tags.tags if tag == "img"]
    assert img["src"] == "data:image/png' onload='alert(2);base64,AAAA' onerror='alert(1)"  # all of it one value


def test_embedded_resources_fold_and_links_stay_links() -> None:
    embedded = EmbeddedResource(
        type="resource",
        resource=TextResourceContents(uri="demo://r", mime_type="text/plain", text="<b>inside</b>"),
    )
    link = ResourceLink(type="resource_link", uri="demo://notes/a", name="a note")
    page = result(TextContent(type="text", text="{}"), embedded, link, structured={"ok": True})._repr_html_()
    assert "<details><summary>resource <code>demo://r</code></summary><pre>&lt;b&gt;inside&lt;/b&gt;</pre>" in page
    assert "resource <code>demo://notes/a</code> a note" in page


def test_json_tree_folds() -> None:
    long = "x" * 300
    page = json_html({"a": {"b": {"c": [1, 2]}}, "long": long, "lines": "one\ntwo", "<k>": "<v>"})
    assert page.startswith("<details open><summary>{…} <small>4 keys</small>")
    assert "<details><summary><b>a</b>: {…} <small>1 keys</small>" in page  # deeper levels start closed
    assert "<b>c</b>: […] <small>2 items</small>" in page
    assert "<small>(300 chars)</small>" in page and f"<pre>{long}</pre>" in page
    assert "<small>(7 chars)</small>" in page  # a multi-line string folds under its first line
    assert "<b>&lt;k&gt;</b>: <code>&quot;&lt;v&gt;&quot;</code>" in page
    assert json_html([]) == "<code>[]</code>" and json_html(None) == "<code>null</code>"
