"""Render new YAML values with ruamel.yaml, in the document's own indentation and quoting.

Only the value being written is rendered; the caller splices the result into the original
text. A rendering is a *rest*: the text that follows ``key:`` — either ``" value"`` (one
line, or a block scalar header followed by its lines) or a newline followed by a block
collection — with continuation lines already indented for a key at column ``col``.
"""

from __future__ import annotations

import io
import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from ._tree import Indent

# Strings a YAML 1.1 reader would take for booleans or sexagesimal numbers: quote them.
_YAML11 = re.compile(
    r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$"
)
# Characters that only a double-quoted scalar can carry safely (escaped).
_NEEDS_ESCAPE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\r]")


class FlowList(list[Any]):
    """A list to render in flow style (``[a, b]``), its strings in ``style`` quotes."""

    def __init__(self, items: list[Any], style: str | None = None) -> None:
        super().__init__(items)
        self.style = style


def _literal_ok(s: str) -> bool:
    if _NEEDS_ESCAPE.search(s) or s.endswith("\n\n") or not s.strip():
        return False
    return all(line.strip() or not line for line in s.split("\n"))


class Renderer:
    def __init__(self, indent: Indent, nl: str) -> None:
        self.indent = indent
        self.nl = nl
        # "pretty": the style of the value replaced, literal blocks for multi-line strings;
        # "flat": no block scalars; "quoted": every string double-quoted (the last resort)
        self.mode = "pretty"

    def dump(self, data: Any) -> str:
        yaml = YAML(typ="rt")
        yaml.indent(mapping=self.indent.mapping, sequence=self.indent.sequence, offset=self.indent.offset)
        yaml.width = 1 << 30
        yaml.allow_unicode = True
        buf = io.StringIO()
        yaml.dump(data, buf)
        return buf.getvalue()

    def prepare(self, value: Any, style: str | None = None, flow: bool = False) -> Any:
        """JSON-like value → ruamel data with the wanted scalar style (style of the value replaced)."""
        if isinstance(value, dict):
            cm = CommentedMap((k, self.prepare(v, flow=flow)) for k, v in value.items())
            if flow:
                cm.fa.set_flow_style()
            return cm
        if isinstance(value, FlowList):
            cs = CommentedSeq(self.prepare(v, value.style, flow=True) for v in value)
            cs.fa.set_flow_style()
            return cs
        if isinstance(value, list):
            cs = CommentedSeq(self.prepare(v, flow=flow) for v in value)
            if flow:
                cs.fa.set_flow_style()
            return cs
        if not isinstance(value, str):
            return value
        if _NEEDS_ESCAPE.search(value) or self.mode == "quoted":
            return DoubleQuotedScalarString(value)
        block_ok = self.mode == "pretty" and not flow and _literal_ok(value)
        if "\n" in value or (style in ("|", ">") and block_ok):
            if style in ('"', "'") or not block_ok:
                return DoubleQuotedScalarString(value)
            return FoldedScalarString(value) if style == ">" else LiteralScalarString(value)
        if style == '"':
            return DoubleQuotedScalarString(value)
        if style == "'" or _YAML11.match(value) or value.startswith("?"):  # [?x] reads as a mapping
            return SingleQuotedScalarString(value)
        return value

    def _shift(self, out: str, col: int) -> str:
        if out.endswith("\n"):
            out = out[:-1]
        lines = out.split("\n")
        return self.nl.join([lines[0], *((" " * col + line) if line else line for line in lines[1:])])

    def rest(self, value: Any, col: int, style: str | None = None) -> str:
        """What follows ``key:`` for a key at column ``col`` holding ``value``."""
        out = self.dump(CommentedMap([("k", self.prepare(value, style))]))
        return self._shift(out, col)[2:]

    def entry(self, key: str, value: Any, col: int) -> str:
        """A whole ``key: value`` entry for a key at column ``col`` (first line not indented)."""
        return self._shift(self.dump(CommentedMap([(key, self.prepare(value))])), col)

    def inline(self, value: Any, style: str | None = None, flow: bool = False) -> str | None:
        """``value`` as single-line text in block (or flow) context, or None if it needs lines."""
        if flow and isinstance(value, dict | list):  # a flow collection: {a: 1} / [a, b]
            out = self.dump(CommentedMap([("k", self.prepare(value, style, flow=True))])).rstrip("\n")
            return None if "\n" in out else out[3:]
        if flow:  # a scalar inside a flow collection (quoted where [a, b] would misread it)
            seq = CommentedSeq([self.prepare(value, style, flow=True)])
            seq.fa.set_flow_style()
            out = self.dump(CommentedMap([("k", seq)])).rstrip("\n")
            if "\n" in out or not (out.startswith("k: [") and out.endswith("]")):
                return None
            return out[4:-1]
        if isinstance(value, dict | list) and value:
            return None
        out = self.rest(value, 0, style)
        return None if "\n" in out else out.lstrip(" ")

    def flow_entry(self, key: str, value: Any) -> str:
        """``key: value`` for use inside a flow mapping."""
        cm = CommentedMap([(key, self.prepare(value, flow=True))])
        cm.fa.set_flow_style()
        out = self.dump(cm).strip()
        return out[1:-1].strip()

    def seq(self, values: list[str], *, flow: bool, pad: str, style: str | None, dash_col: int) -> str | None:
        """A rest for a list of strings laid out like an existing sequence (flow or block)."""
        if not values:
            return " []"
        items = [self.inline(v, style, flow=flow) for v in values]
        if any(i is None for i in items):
            return None
        if flow:
            return " [" + pad + ", ".join(i for i in items if i is not None) + pad + "]"
        return "".join(self.nl + " " * dash_col + "- " + str(i) for i in items)
