"""The lab profile's ``notebook`` tool, and its outputs as MCP resources.

A read shows rich outputs (images, HTML, JSON…) as resource references; the template
``notebook-output:///{+path}{?cell,output,mime}`` serves their data (images as blobs).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from mcp import types
from mcp.shared.exceptions import MCPError

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.documents import resolve
from ...ops.notebook import edit, execute, outputs, read, sessions
from ..base import CompositeTool
from ..caller import caller_from_context
from .common import BY_PATH_OR_TAB

if TYPE_CHECKING:
    from ...ops.context import Services
    from ...server.mcp_server import SurfaceServer

log = logging.getLogger(__name__)

NOTEBOOK = CompositeTool(
    name="notebook",
    title="Notebook cells",
    description=(
        "Notebooks (.ipynb) by cell id. read {view, cell?, start?} (paged; outputs: "
        "resources); edit {op, cell, …}: a suggestion under 'suggest'. execute {cell|source, timeout?} "
        "in its kernel, outputs stored; kernel {kernel: list|interrupt|restart}. Asks the person unless granted. "
        "list: notebooks with kernel and used; use: your focus (calls without path go to it); unuse."
    ),
    actions={
        "read": read.read,
        "edit": edit.edit,
        "execute": execute.execute,
        "kernel": execute.kernel,
        "list": sessions.list_,
        "use": sessions.use,
        "unuse": sessions.unuse,
    },
    # Saved at once (a notebook is addressed by path): no save flag to pay context for. A
    # session's name for a notebook is for profiles that address notebooks by name, as are
    # execute's progress pace and output logging (the jupyter profile's stream, progress_interval).
    hidden=BY_PATH_OR_TAB | {"save", "name", "progressEvery", "logOutputs"},
)

TEMPLATE = types.ResourceTemplate(
    uri_template=outputs.TEMPLATE,
    name="notebook-output",
    title="Notebook cell output",
    description="One output of a notebook cell as one MIME type (the URIs a notebook read lists).",
)


def register(server: SurfaceServer, services: Services) -> None:
    """Serve notebook outputs on ``server`` (the lab profile's ``extend``)."""

    async def read_output(ctx: Any, uri: str) -> list[types.TextResourceContents | types.BlobResourceContents] | None:
        if not uri.startswith(outputs.SCHEME + ":"):
            return None
        op = OpContext(services=services, caller=caller_from_context(ctx, server.surface.name))
        try:
            path, cell_id, index, mime = outputs.parse_uri(uri)
            doc, _ = await resolve(op, path=path)
            nb = read.notebook_of(doc)
            outs = nb.cell(nb.cell_id(cell_id)).get("outputs", [])
            if not 0 <= index < len(outs):
                raise DomainError("NOT_FOUND", f"cell {cell_id!r} has no output {index}", output=index)
            data, binary = outputs.output_data(outs[index], mime)
        except DomainError as exc:
            raise MCPError(
                code=types.INVALID_PARAMS, message=exc.message, data={"uri": uri, **exc.envelope()}
            ) from None
        except Exception:  # nothing of a crash reaches the client
            log.exception("resource %s failed", uri)
            raise MCPError(code=types.INTERNAL_ERROR, message=f"Error reading resource {uri}") from None
        if binary:  # nbformat stores binary data as base64: passed on as it is
            return [types.BlobResourceContents(uri=uri, blob=data, mime_type=mime)]
        return [types.TextResourceContents(uri=uri, text=data, mime_type=mime)]

    server.add_resource_template(TEMPLATE, read_output)
