"""GET ``outline?path=``: the headings or rows of a document, for the panel's Outline
section and the OPML tree view.

The outline is the one the ``document`` tool's structure view gives agents (the same
parser, the same node ids and line ranges, see ``ops.structure``), read from the text
agents see: the server's buffer when an agent has the document open, else the file.
So ``revision`` is the one the ``document`` tool and the ``document`` events name.

Markdown documents have headings (the panel's Outline section lists them) and rows: their
outline view, headings and list items with task states, the rows the ``outliner`` tools and
the ``outline`` tool read. OPML outlines have rows. Rows are read as the ``outline`` tools
read them (``ops.outline.read``: the same ids, which suggestions on rows name in ``part``,
the same topics and the same derived checkbox states). Every other kind (notebook, yaml-workflow, text)
answers 200 with its ``kind`` and empty lists rather than an error: the panel follows
whatever document is active, and a client needs one call, not a call and an error branch,
to learn which it is. An OPML file that is not safe, well-formed XML is INVALID_PATH.
"""

from __future__ import annotations

import asyncio

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.content import OutlineContent
from ...core.content.outline_tree import OutlineTree
from ...core.errors import ArgumentError, DomainError
from ...core.kinds import kind_for
from ...core.markdown.outline_rows import markdown_outline
from ...core.paths import to_api_path
from ...core.revision import revision_of
from ...ops.markdown.structure import parsed, section_infos
from ...ops.outline.read import row_view
from .base import ApiHandler
from .models import Heading, Outline, OutlineRow


class OutlineHandler(ApiHandler):
    """GET ``outline?path=``: ``{path, revision, kind, headings: [{id, level, title, line, lineEnd}],
    rows: [{id, topic, note, state, level, parent, children}]}``.

    ``line`` is the heading's first line (1-based), ``lineEnd`` the last line of its
    section (up to the next heading of the same or a higher level). Errors: NOT_FOUND (no
    such file), INVALID_PATH (outside the root, a folder, not UTF-8 text).
    """

    query_args = {"GET": frozenset({"path"})}
    responses = {"GET": Outline}

    @web.authenticated
    @authorized
    async def get(self) -> None:
        raw = self.query("path")
        if raw is None:
            raise ArgumentError("path is required: the document whose outline to show", "path")
        if not raw:
            raise ArgumentError("path must not be empty", "path")
        # A leading "/" is root-relative, as in Jupyter's contents API.
        key = to_api_path(self.services.settings.root_dir, raw, leading_slash="root")
        text, kind = await self._read(key)
        headings: list[Heading] = []
        rows: list[OutlineRow] = []
        revision = revision_of(text)
        if kind == "markdown":
            s = await parsed(text)
            revision = s.revision
            headings = [
                Heading(id=x.nodeId, level=x.level, title=x.title, line=x.lineStart, lineEnd=x.lineEnd)
                for x in section_infos(s)
                if x.nodeId != "preamble"
            ]
            big = len(text) >= 64_000  # parsed off the event loop, as ``parsed`` does
            rows = await asyncio.to_thread(outline_rows, text, kind) if big else outline_rows(text, kind)
        elif kind == "outline":
            rows = outline_rows(text, kind)
        self.reply(Outline(path=key, revision=revision, kind=kind, headings=headings, rows=rows))

    async def _read(self, key: str) -> tuple[str, str]:
        """The text agents see and its kind, without opening a buffer for a file no agent has."""
        docs = self.services.docs
        doc = docs.find(key)
        if doc is not None:
            await docs.refresh(doc)
            return doc.text, doc.kind
        try:
            text = await docs.storage.read_text(key)
        except OSError as exc:  # e.g. a name too long for the file system: no such file
            raise DomainError("NOT_FOUND", f"no file {key!r} in the workspace", path=key) from exc
        return text, kind_for(key, text)


def outline_rows(text: str, kind: str) -> list[OutlineRow]:
    """Every row of an OPML outline or a markdown document's outline view in document order,
    as ``outline.read`` views them."""
    tree = OutlineTree(markdown_outline(text) if kind == "markdown" else OutlineContent.parse("outline", text))
    out = []
    for r in tree.rows:
        v = row_view(tree, r)
        out.append(
            OutlineRow(
                id=v.id,
                topic=v.topic,
                note=v.note,
                state=v.state,
                level=v.level,
                parent=v.parentId,
                children=v.childIds,
            )
        )
    return out
