"""The review board served as an app by Panel's own Jupyter server extension.

Panel's extension serves ``{base_url}panel-preview/render/<path>`` under Jupyter's auth:
``<path>`` is a file below the server's root, run in a fresh kernel started by the server
(cwd: the file's folder), which ``connect()`` finds by itself (the server is its parent).
So the app is a tiny file at the root, ``APP_FILE``, written through Jupyter's contents API
only when someone asks for the served board (``serve_url``; the JupyterLab panel's "Review
board" link writes the same text). Everything else lives here, in ``main()``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit

import httpx2

APP_FILE = "mcp-lab-review-board.py"
# The JupyterLab panel writes exactly this text too (labext/src/board_link.ts): keep them equal.
APP_SOURCE = '''"""The jupyter-mcp-lab review board, served by Panel (written by kernel_tools; safe to delete)."""
from kernel_tools.board_app import main

main()
'''
RENDER_PATH = "panel-preview/render/"


def main() -> None:
    """The served app's body: connect to this server as the person, build the board, serve it."""
    import panel as pn

    from .board import review_board
    from .connect import connect

    pn.extension("tabulator")
    review_board(connect(quiet=True), served=True).servable(title="Review board · MCP Lab")


def ensure_app(lab: Any, name: str = APP_FILE) -> str:
    """Write the app file at the server's root unless it is there (a person's edits are kept)."""
    server = lab.server
    url = server.root_url + "api/contents/" + quote(name)
    with httpx2.Client(headers=server.headers, timeout=30) as http:
        found = http.get(url, params={"content": "0"})
        if found.status_code == 404:
            http.put(url, json={"type": "file", "format": "text", "content": APP_SOURCE}).raise_for_status()
        else:
            found.raise_for_status()
    return name


def serve_url(lab: Any, *, relative: bool = False) -> str:
    """The served board's URL (writing the app file if needed): open it in a browser tab.

    ``relative=True`` gives the path only (``/user/ann/panel-preview/render/…``), what a link
    in a page served by the same Jupyter server needs whatever host name the browser uses.
    """
    name = ensure_app(lab)
    url = lab.server.root_url + RENDER_PATH + quote(name)
    return urlsplit(url).path if relative else url


def link(lab: Any) -> Any:
    """The served board as a link to click in a notebook (``IPython.display.HTML``)."""
    from IPython.display import HTML

    href = serve_url(lab, relative=True)
    return HTML(f'<a href="{href}" target="_blank" rel="noopener">Open the review board in a new tab ↗</a>')
