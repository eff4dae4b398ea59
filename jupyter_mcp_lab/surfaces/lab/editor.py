"""The lab profile's ``editor`` tool: a tab's selection and changes at the cursor."""

from __future__ import annotations

from ...ops.markdown import cursor, cursor_edit
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

EDITOR = CompositeTool(
    name="editor",
    title="Editor",
    description=(
        "A tab's selection (the person's in JupyterLab until you set one) and one change at it; offsets are "
        "code points. get → {from, to, text, head, source, revision, context (lines around)}; set: no to "
        "places a cursor, focus makes the tab your default; edit, by kind: insert {text, at?} | replace {text} | "
        "delete | format {mark} (clear: every mark) | link {url?, title?} (no url: unlink) | block {type, "
        "level?, language?, toggle?} | list {type} | indent | outdent | table {change, side?; insert: rows, "
        "cols, header?} | rule | math {latex, display?} | mermaid {code} | wikilink {target, alias?}. Save "
        "with workspace save."
    ),
    actions={"get": cursor.get, "set": cursor.set_, "edit": cursor_edit.edit},
    # A tab keeps its changes until saved (workspace save): one argument less to read here.
    hidden=BY_PATH_OR_TAB | {"save"},
    describe={
        "linesBefore": "",
        "linesAfter": "",
        "from": "",
        "to": "Exclusive.",
        "focus": "",
        "edit": "",
        "expected_revision": "Your offsets' revision; else STALE.",
    },
)
