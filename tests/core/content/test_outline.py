"""OPML outlines as documents: rows are parts; a change rewrites only that row's text."""

from __future__ import annotations

import pytest

from jupyter_mcp_lab.core.content import OutlineContent, content_of
from jupyter_mcp_lab.core.errors import DomainError

OPML = """<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0">
  <head><title>Plan</title><expansionState>0,1</expansionState></head>
  <body>
    <outline text="Launch &amp; learn" _status="checked" custom='keep "me"'>
      <outline id="r-ship" text='Ship it' _note="by Friday"/>
      <!-- <outline text="commented out"/> -->
    </outline>
    <outline text="Later"/>
  </body>
</opml>
"""


def test_rows_are_parts_with_ids() -> None:
    content = content_of("outline", OPML)
    assert [(p.id, p.text) for p in content.parts()] == [
        ("row-0", "Launch & learn"),
        ("r-ship", "Ship it"),
        ("row-2", "Later"),
    ]


def test_a_row_change_keeps_every_other_byte() -> None:
    content = content_of("outline", OPML)
    changed = content.with_part("r-ship", 'Ship "v2" <now> & celebrate').serialize()
    assert changed == OPML.replace("text='Ship it'", "text='Ship &quot;v2&quot; &lt;now&gt; &amp; celebrate'")
    assert content_of("outline", changed).part("r-ship").text == 'Ship "v2" <now> & celebrate'


@pytest.mark.parametrize(
    "hostile",
    [
        '<!DOCTYPE opml [<!ENTITY big "xxxxxxxx">]><opml><body><outline text="&big;"/></body></opml>',
        '<!DOCTYPE opml [<!ENTITY ext SYSTEM "file:///etc/passwd">]><opml><body><outline text="&ext;"/></body></opml>',
        "<opml><body><outline text='unclosed'></body></opml>",
    ],
)
def test_entities_and_broken_xml_are_refused(hostile: str) -> None:
    with pytest.raises(DomainError) as refused:
        OutlineContent.parse("outline", hostile)
    assert refused.value.code == "INVALID_PATH"


def test_an_unknown_row_is_not_found() -> None:
    with pytest.raises(DomainError) as missing:
        content_of("outline", OPML).with_part("nope", "x")
    assert missing.value.code == "NOT_FOUND"
