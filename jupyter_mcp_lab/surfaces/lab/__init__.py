"""The default ``lab`` profile: a few composite tools that cover every capability.

An agent pays context for every tool listed, so this surface stays small (≤ 12 tools,
tools/list ≤ 24 KB): one tool per area, an ``action`` argument per operation.
"""

from __future__ import annotations

from ..base import Surface
from .common import WORDING
from .document import DOCUMENT
from .editor import EDITOR
from .lab import LAB
from .notebook import NOTEBOOK
from .notebook import register as notebook_resources
from .outline import OUTLINE
from .review import REVIEW
from .session import SESSION
from .workflow import WORKFLOW
from .workspace import WORKSPACE

INSTRUCTIONS = """\
jupyter-mcp-lab serves the documents of a JupyterLab workspace (markdown, outlines,
notebooks, workflow YAML, files). Start with session(action="get_state"). Address a
document by path (root-relative) or by tabId. Reads return a revision token: pass it as
expected_revision on writes (a mismatch answers STALE). Prefer document(action="edit")
with small targeted edits over rewriting whole files; mode="dryRun" shows a change first."""

SURFACE = Surface(
    name="lab",
    title="JupyterLab documents",
    instructions=INSTRUCTIONS,
    tools=(SESSION, WORKSPACE, DOCUMENT, EDITOR, NOTEBOOK, OUTLINE, WORKFLOW, REVIEW, LAB),
    extend=notebook_resources,
    compact=True,
    wording=WORDING,
)
