"""Block type names as editors call them (codeBlock, bulletList, horizontalRule, …).

The structure's own names are short (code, list, hr); the syntax tree and the VMark
profile's results use these, and filters accept either. ``block_type_name`` reads the
kind an agent asks a block to become.
"""

from __future__ import annotations

from ..errors import ArgumentError
from .structure import Block

_NAMES = {
    "code": "codeBlock",
    "hr": "horizontalRule",
    "math": "mathBlock",
    "html": "htmlBlock",
    "front_matter": "frontmatter",
    "footnote": "footnoteDefinition",
}


def type_name(b: Block) -> str:
    """VMark's name for a block's type."""
    return editor_type(b.type, ordered=b.ordered, task=b.task)


def editor_type(type_: str, *, ordered: bool | None = None, task: bool | None = None) -> str:
    """The editor's name for a structure type (a list's by its kind)."""
    if type_ == "list":
        return "taskList" if task else "orderedList" if ordered else "bulletList"
    return _NAMES.get(type_, type_)


def type_matches(b: Block, wanted: str) -> bool:
    """Whether ``wanted`` (VMark's name or ours; "list" is any list) names the block's type."""
    w = wanted.strip()
    return w in (b.type, type_name(b)) or w.lower() in (b.type.lower(), type_name(b).lower())


# Block kinds a block can be converted to, by every name an agent may use.
_TYPE_NAMES = {
    "paragraph": "paragraph",
    "text": "paragraph",
    "heading": "heading",
    "blockquote": "blockquote",
    "quote": "blockquote",
    "codeblock": "code",
    "code": "code",
    "fence": "code",
    "bullet": "bullet",
    "bulletlist": "bullet",
    "ordered": "ordered",
    "orderedlist": "ordered",
    "task": "task",
    "tasklist": "task",
}


def block_type_name(value: str, argument: str = "type") -> str:
    """Canonical name of a block type (accepts vmark names such as ``codeBlock``)."""
    key = value.replace("_", "").replace("-", "").lower() if isinstance(value, str) else ""
    if key not in _TYPE_NAMES:
        raise ArgumentError(
            f"{argument} must be one of paragraph, heading, blockquote, codeBlock, "
            f"bullet, ordered, task (got {value!r})",
            argument,
        )
    return _TYPE_NAMES[key]
