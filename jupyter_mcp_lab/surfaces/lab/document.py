"""The lab profile's ``document`` tool: reading and changing documents."""

from __future__ import annotations

from ...ops.document import search, text
from ...ops.markdown import edit, structure, transform
from ..base import CompositeTool
from .common import BY_PATH_OR_TAB

DOCUMENT = CompositeTool(
    name="document",
    title="Document",
    description=(
        "Read and change documents (path or tabId). read → {content, revision, totalLines, truncated, "
        "nextLine}; search → matches {start, end, line, column, context}; structure → sections and blocks with "
        "node ids (h-0, p-3, table-0…) valid for that revision; edit: edits[] against expected_revision, "
        "atomically, changing only the targeted bytes (result edits[]: what each touched); write: the whole "
        "content; transform: CJK spacing and punctuation; undo; redo."
    ),
    actions={
        "read": text.read,
        "search": search.search,
        "structure": structure.structure,
        "edit": edit.edit,
        "write": text.write,
        "transform": transform.transform,
        "undo": text.undo,
        "redo": text.redo,
    },
    hidden=BY_PATH_OR_TAB,
    # The operations' wording, shorter; read's and structure's line and section fields share a name.
    describe={
        "section": "Heading id (h-3) or title: only that section.",
        "lineStart": "1-based.",
        "lineEnd": "Inclusive.",
        "maxBytes": "Byte budget (then page from nextLine).",
        "query": "Literal unless regex.",
        "caseSensitive": "",
        "regex": "query is a Python regex.",
        "view": "blocks: with node ids; digest: counts; all: those three; ast: syntax tree; section: its "
        "markdown; targets: to positions.",
        "words": "Each section's word count.",
        "type": "blocks: only this type (heading, table, list…).",
        "preview": "blocks: source characters shown.",
        "targets": "Node ids, section titles or text.",
        "edits": "",
        "kind": "cjk-spacing: CJK-Latin spaces; cjk-punctuation: full width beside CJK; cjk-format: both.",
        "direction": "For cjk-punctuation.",
        "spacing": "For cjk-spacing.",
    },
)
