"""GET ``outline?path=``: the headings of a document, for the panel's Outline section.

The outline is the one the ``document`` tool's structure view gives agents (the same
parser, the same node ids and line ranges, see ``ops.structure``), read from the text
agents see: the server's buffer when an agent has the document open, else the file.
So ``revision`` is the one the ``document`` tool and the ``document`` events name.

Markdown documents have headings. Every other kind (notebook, outline, yaml-workflow,
text) answers 200 with its ``kind`` and an empty list rather than an error: the panel
follows whatever document is active and shows "Not a markdown document" for those, and
a client needs one call, not a call and an error branch, to learn which it is.
"""

from __future__ import annotations

from jupyter_server.auth.decorator import authorized
from tornado import web

from ...core.errors import ArgumentError, DomainError
from ...core.kinds import kind_for
from ...core.paths import to_api_path
from ...core.revision import revision_of
from ...ops.markdown.structure import parsed, section_infos
from .base import ApiHandler
from .models import Heading, Outline


class OutlineHandler(ApiHandler):
    """GET ``outline?path=``: ``{path, revision, kind, headings: [{id, level, title, line, lineEnd}]}``.

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
        revision = revision_of(text)
        if kind == "markdown":
            s = await parsed(text)
            revision = s.revision
            headings = [
                Heading(id=x.nodeId, level=x.level, title=x.title, line=x.lineStart, lineEnd=x.lineEnd)
                for x in section_infos(s)
                if x.nodeId != "preamble"
            ]
        self.reply(Outline(path=key, revision=revision, kind=kind, headings=headings))

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
