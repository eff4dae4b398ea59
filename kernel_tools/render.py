"""HTML for notebook output: JSON as a collapsible tree, markdown rendered, text escaped.

Plain HTML (``<details>``), so it shows the same in JupyterLab, Notebook 7, VS Code and a
saved notebook, with no front-end extension.
"""

from __future__ import annotations

import html
import json
from typing import Any

from markdown_it import MarkdownIt

_md = MarkdownIt("commonmark", {"html": False}).enable("table")

# Strings this long, or with this many lines, fold under their first line.
FOLD_CHARS = 160
OPEN_DEPTH = 1


def markdown_html(text: str) -> str:
    """Markdown rendered to HTML (raw HTML in the source is escaped, not run)."""
    return _md.render(text)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        if len(value) > FOLD_CHARS or "\n" in value:
            first = value.split("\n", 1)[0][:80]
            return (
                f"<details><summary><code>{html.escape(json.dumps(first + '…'))}</code> "
                f"<small>({len(value)} chars)</small></summary><pre>{html.escape(value)}</pre></details>"
            )
        return f"<code>{html.escape(json.dumps(value, ensure_ascii=False))}</code>"
    return f"<code>{html.escape(json.dumps(value))}</code>"


def json_html(value: Any, depth: int = 0, key: str | None = None) -> str:
    """A collapsible tree: objects and lists fold, the first ``OPEN_DEPTH`` levels open."""
    label = f"<b>{html.escape(key)}</b>: " if key is not None else ""
    if isinstance(value, dict) and value:
        items = "".join(f"<li>{json_html(v, depth + 1, str(k))}</li>" for k, v in value.items())
        summary = f"{label}{{…}} <small>{len(value)} keys</small>"
    elif isinstance(value, list) and value:
        items = "".join(f"<li>{json_html(v, depth + 1, str(i))}</li>" for i, v in enumerate(value))
        summary = f"{label}[…] <small>{len(value)} items</small>"
    else:
        return label + _scalar(value)
    opened = " open" if depth < OPEN_DEPTH else ""
    return (
        f"<details{opened}><summary>{summary}</summary>"
        f'<ul style="list-style:none;margin:0;padding-left:1.2em">{items}</ul></details>'
    )
