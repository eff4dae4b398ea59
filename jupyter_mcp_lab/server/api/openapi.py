"""GET ``openapi.yaml`` / ``openapi.json``: this API's contract, as shipped in the package.

The file names the server as ``/mcp-lab/api``; served, it names this server's real prefix
(``{base_url}mcp-lab/api``, e.g. under JupyterHub), so a client or a fuzzer that loads
it from here calls the routes where they are. Its schemas are generated from the
response models (``schema.py``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jupyter_server.auth.decorator import authorized
from jupyter_server.utils import url_path_join
from ruamel.yaml import YAML
from tornado import web

from .base import ApiHandler
from .models import OpenAPIDocument

SPEC_FILE = Path(__file__).resolve().parents[1] / "openapi.yaml"
# The file's one server entry; served, it becomes this server's prefix. Replaced as text so
# the YAML keeps its comments and layout (a YAML round trip re-wraps long lines).
SERVER_LINE = "servers:\n  - url: /mcp-lab/api\n"


@cache
def spec_for(prefix: str) -> tuple[str, OpenAPIDocument]:
    """The spec as YAML text and as a document, ``servers`` set to ``prefix``; read once per server."""
    source = SPEC_FILE.read_text(encoding="utf-8")
    if source.count(SERVER_LINE) != 1:
        raise RuntimeError(f"{SPEC_FILE} must name its server exactly as {SERVER_LINE!r}")
    served = source.replace(SERVER_LINE, f"servers:\n  - url: {json.dumps(prefix)}\n")
    return served, OpenAPIDocument.model_validate(YAML(typ="safe", pure=True).load(served))


class OpenAPIHandler(ApiHandler):
    # The JSON form; the YAML one is the file's text (comments and layout kept).
    responses = {"GET": OpenAPIDocument}

    @web.authenticated
    @authorized
    def get(self, fmt: str) -> None:
        yaml_text, document = spec_for(url_path_join(self.base_url, "mcp-lab", "api"))
        if fmt == "json":
            self.reply(document)
        else:
            self.finish(yaml_text, set_content_type="application/yaml; charset=utf-8")
