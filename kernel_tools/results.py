"""What a tool call gives back in a notebook: the data as a dict, shown richly.

``ToolResult`` is the structured content (a ``dict``: ``r["revision"]``), with the raw
content blocks beside it. Shown in a cell, markdown fields are rendered, the rest is a
collapsible JSON tree, images are images; MCP resources stay links (a ``resource_link``
is read with ``lab.read_resource(uri)``), never inlined base64 text.
"""

from __future__ import annotations

import html
import json
from typing import Any

from mcp_types import (
    AudioContent,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
)

from .render import json_html, markdown_html

# Fields whose string value is a document's markdown: rendered, not shown as a JSON string.
MARKDOWN_FIELDS = ("markdown", "content", "text")


class ToolResult(dict[str, Any]):
    """A tool's answer: the structured content as a dict, plus ``content``, ``text``, ``raw``."""

    def __init__(self, tool: str, raw: CallToolResult) -> None:
        data = raw.structured_content
        if data is None:
            data = _parse_json(_text_of(raw))
        super().__init__(data if isinstance(data, dict) else ({} if data is None else {"result": data}))
        self.tool = tool
        self.raw = raw
        self.content = list(raw.content)
        self.is_error = bool(raw.is_error)

    @property
    def text(self) -> str:
        """The text blocks, joined."""
        return _text_of(self.raw)

    @property
    def images(self) -> list[ImageContent]:
        return [c for c in self.content if isinstance(c, ImageContent)]

    def __repr__(self) -> str:
        return f"ToolResult({self.tool!r}, {dict.__repr__(self)})"

    def _repr_html_(self) -> str:
        parts = [f"<div class='mcp-lab-result'><small>result of <code>{html.escape(self.tool)}</code></small>"]
        markdown = next(
            (self[k] for k in MARKDOWN_FIELDS if isinstance(self.get(k), str) and len(self[k]) > 0),
            None,
        )
        if markdown is not None:
            parts.append(f"<div style='border-left:3px solid #8884;padding-left:.8em'>{markdown_html(markdown)}</div>")
        rest = {k: v for k, v in self.items() if v is not markdown} if markdown is not None else dict(self)
        if rest:
            parts.append(json_html(rest))
        elif not self and self.text:
            parts.append(f"<pre>{html.escape(self.text)}</pre>")
        for block in self.content:
            parts.append(_block_html(block))
        parts.append("</div>")
        return "".join(p for p in parts if p)


def _block_html(block: Any) -> str:
    if isinstance(block, ImageContent | AudioContent):
        # The data is the server's text too: escaped, or a quote in it would end the attribute.
        src = f"data:{html.escape(block.mime_type)};base64,{html.escape(block.data)}"
        if isinstance(block, ImageContent):
            return f"<img src='{src}' style='max-width:100%'/>"
        return f"<audio controls src='{src}'></audio>"
    if isinstance(block, ResourceLink):
        return f"<div>🔗 resource <code>{html.escape(str(block.uri))}</code> {html.escape(block.name or '')}</div>"
    if isinstance(block, EmbeddedResource):
        text = getattr(block.resource, "text", None)
        body = f"<pre>{html.escape(text[:2000])}</pre>" if isinstance(text, str) else "<i>(binary)</i>"
        uri = html.escape(str(block.resource.uri))
        return f"<details><summary>resource <code>{uri}</code></summary>{body}</details>"
    return ""  # text blocks are the structured content again, shown above


def _text_of(raw: CallToolResult) -> str:
    return "\n".join(c.text for c in raw.content if isinstance(c, TextContent))


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return {"text": text} if text else None
