"""Surgical text edits on a workflow: each operation replaces one span of the source.

Everything outside the span of the value (or entry) being changed is left byte-identical:
comments, blank lines, quoting, anchors, key order and line endings included.
"""

from __future__ import annotations

import re
from typing import Any

from ._render import Renderer
from ._tree import Alias, Mapping, Node, Scalar, Sequence, Source, Tree

_COMMENT = re.compile(r"[ \t]+#.*$|^#.*$")

# Where new keys go: before the first existing key that comes later in these orders.
TOP_ORDER = ["name", "run-name", "on", "permissions", "env", "defaults", "concurrency", "jobs"]
JOB_ORDER = [
    "name", "needs", "if", "runs-on", "environment", "permissions", "concurrency", "outputs", "env",
    "defaults", "timeout-minutes", "continue-on-error", "strategy", "container", "services", "steps",
]  # fmt: skip
STEP_ORDER = ["name", "id", "if", "uses", "run", "shell", "working-directory", "with", "env"]


class PatchError(Exception):
    """A patch that cannot apply to this document; ``field`` names the patch field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def nested(path: list[str], value: Any) -> Any:
    for key in reversed(path):
        value = {key: value}
    return value


class Doc:
    def __init__(self, text: str) -> None:
        self.src = Source(text)
        self.text = text
        self.tree = Tree(self.src)
        self.root = self.tree.root
        self.render = Renderer(self.tree.indent(), self.src.nl)

    def _splice(self, start: int, end: int, new: str) -> str:
        return self.text[:start] + new + self.text[end:]

    def scalar_text(self, node: Node) -> str:
        return self.text[node.body : node.end]

    # -- setting values ---------------------------------------------------------------------
    def set_path(
        self, mapping: Mapping, path: list[str], value: Any, order: list[str] | None = None, where: str = ""
    ) -> str:
        """Set ``path`` under ``mapping`` to ``value``, creating missing mappings."""
        key, rest = path[0], path[1:]
        here = f"{where}.{key}" if where else key
        pair = mapping.get(key)
        if pair is None:
            if rest and any(src.get(key) for src in self.tree.merged_sources(mapping)):
                raise PatchError("path", f"'{here}' is inherited through a merge key (<<); set all of '{here}'")
            return self.add_key(mapping, key, nested(rest, value), order)
        k, v = pair
        if not rest:
            return self.set_value(k, v, value, mapping.flow)
        if isinstance(v, Alias):
            raise PatchError("path", f"'{here}' is an alias (*{v.name}); editing it would change every use")
        if isinstance(v, Scalar) and v.empty:
            return self.set_value(k, v, nested(rest, value), mapping.flow)
        if not isinstance(v, Mapping):
            raise PatchError("path", f"'{here}' is not a mapping, so it has no '{rest[0]}'")
        return self.set_path(v, rest, value, None, here)

    def set_value(self, k: Node, v: Node, value: Any, in_flow: bool, rest: str | None = None) -> str:
        """Replace the value ``v`` of key ``k`` (``rest``: a pre-rendered replacement)."""
        src, text = self.src, self.text
        if v.anchor in self.tree.merged and not isinstance(value, dict):
            raise PatchError("value", f"&{v.anchor} is merged elsewhere (<<: *{v.anchor}), so it must stay a mapping")
        ce = src.colon_end(k)
        kcol = src.col(k.start)
        if rest is None:
            rest = self._rest_for(v, value, kcol, in_flow)
        if in_flow:
            if isinstance(v, Scalar) and v.empty:
                return self._splice(ce, ce, rest)
            return self._splice(v.body, v.end, rest.lstrip(" "))
        anchor = f" &{v.anchor}" if v.anchor else ""
        first, sep, more = rest.partition(self.src.nl)
        if isinstance(v, Scalar) and v.empty:
            if first:
                at = v.end if v.anchor else ce  # after "key: &anchor"
                return self._splice(at, at, rest)
            return self._splice(src.line_end(k.start), src.line_end(k.start), rest)
        if src.line_start(v.body) == src.line_start(k.start):  # the value starts on the key's line
            if not rest.strip():  # null: nothing after the colon (and no trailing blank)
                return self._splice(ce, v.end, anchor)
            if not sep:
                return self._splice(v.body, v.end, rest.lstrip(" "))
            end = src.line_end(v.end)
            trailing = text[v.end : end] if _COMMENT.search(text[v.end : end]) else ""
            return self._splice(ce, end, anchor + first + trailing + sep + more)
        # a block collection below the key
        end = src.line_end(v.end)
        if not first:
            return self._splice(src.line_end(k.start), end, rest)
        tail = text[ce : src.line_end(k.start)]
        m = _COMMENT.search(tail)
        comment = m.group(0) if m else ""
        if comment and not comment[0].isspace():
            comment = " " + comment
        return self._splice(ce, end, anchor + first + comment + sep + more)

    def _rest_for(self, old: Node, value: Any, kcol: int, in_flow: bool) -> str:
        r = self.render
        style = old.style if isinstance(old, Scalar) else None
        if in_flow:
            return " " + (r.inline(value, style, flow=True) or "null")
        if isinstance(old, Sequence) and isinstance(value, list) and all(isinstance(x, str) for x in value):
            got = self.seq_rest(old, value, self.src.col(old.body))
            if got is not None:
                return got
        if isinstance(old, Mapping | Sequence) and old.flow and isinstance(value, dict | list):
            flat = r.inline(value, flow=True)
            if flat is not None and flat.startswith(("{", "[")):
                return " " + flat
        return r.rest(value, kcol, style)

    def seq_rest(self, like: Sequence, values: list[str], dash_col: int) -> str | None:
        """Render ``values`` laid out like the sequence ``like`` (flow padding, quotes, dash column)."""
        style = next((i.style for i in like.items if isinstance(i, Scalar) and i.style in ('"', "'")), None)
        pad = " " if like.flow and self.text[like.body + 1 : like.body + 2] == " " else ""
        return self.render.seq(values, flow=like.flow, pad=pad, style=style, dash_col=dash_col)

    # -- adding and removing keys -----------------------------------------------------------
    def add_key(
        self, mapping: Mapping, key: str, value: Any, order: list[str] | None = None, rest: str | None = None
    ) -> str:
        """Add ``key: value`` to ``mapping`` (``rest``: a pre-rendered value), in conventional order."""
        src, text = self.src, self.text
        if mapping.flow:
            entry = self.render.flow_entry(key, value)
            if mapping.pairs:
                return self._splice(mapping.pairs[-1][1].end, mapping.pairs[-1][1].end, ", " + entry)
            close = text.rfind("}", mapping.body, mapping.end)
            return self._splice(close, close, entry)
        col = src.col(mapping.pairs[0][0].start)
        entry = self.render.entry(key, value, col) if rest is None else self.render.entry(key, None, col) + rest
        before = self._insert_before(mapping, key, order)
        if before is not None:
            blank_after = False
            if mapping is self.root and before > 0:  # keep top-level sections apart as the file does
                prev = src.line_start(before - 1)
                blank_after = text[prev : src.line_end(prev)].strip() == ""
            nl = src.nl
            return self._splice(before, before, " " * col + entry + nl + (nl if blank_after else ""))
        end = src.line_end(mapping.end)
        return self._splice(end, end, src.nl + " " * col + entry)

    def _insert_before(self, mapping: Mapping, key: str, order: list[str] | None) -> int | None:
        """Line start where a new ``key`` goes to keep the conventional order, or None (append)."""
        if not order or key not in order:
            return None
        rank = order.index(key)
        for k, _ in mapping.pairs:
            if isinstance(k, Scalar) and k.value in order and order.index(k.value) > rank:
                if not self.src.leading(k.start):
                    continue
                at = self.src.line_start(k.start)
                col = self.src.col(k.start)
                while at > 0:  # keep the comment lines that introduce this key with it
                    prev = self.src.line_start(at - 1)
                    line = self.text[prev : self.src.line_end(prev)]
                    if line.lstrip(" ").startswith("#") and len(line) - len(line.lstrip(" ")) == col:
                        at = prev
                    else:
                        break
                return at
        return None

    def remove_pair(self, mapping: Mapping, index: int) -> str:
        src = self.src
        k, v = mapping.pairs[index]
        end = max(k.end, src.colon_end(k), v.end)
        if mapping.flow:
            if len(mapping.pairs) == 1:
                return self._splice(mapping.body, mapping.end, "{}")
            if index + 1 < len(mapping.pairs):
                return self._splice(k.start, mapping.pairs[index + 1][0].start, "")
            prev = mapping.pairs[index - 1][1]
            return self._splice(max(prev.end, src.colon_end(mapping.pairs[index - 1][0])), end, "")
        if not src.leading(k.start):  # first key of a compact "- key: value" item
            if index + 1 < len(mapping.pairs):
                return self._splice(k.start, mapping.pairs[index + 1][0].start, "")
            return self._splice(k.start, end, "{}")
        return self._delete_lines(src.line_start(k.start), end)

    def _delete_lines(self, start: int, end: int) -> str:
        """Delete whole lines from the one holding ``start`` through the one holding ``end``."""
        stop = self.src.next_line(end)
        if stop == len(self.text) and not self.text.endswith("\n") and start > 0:
            start = start - 2 if self.text[start - 2 : start] == "\r\n" else start - 1
        return self._splice(start, stop, "")

    # -- sequences of strings (needs:) ------------------------------------------------------
    def seq_add(self, seq: Sequence, item: str) -> str:
        if seq.flow or not seq.items:
            texts = [self.text[i.start : i.end] for i in seq.items]
            return self._splice(seq.body, seq.end, self._flow_list(seq, [*texts, self._item_text(seq, item)]))
        last = seq.items[-1]
        end = self.src.line_end(last.end)
        dash = self.text.rfind("-", self.src.line_start(last.start), last.start)
        return self._splice(end, end, self.src.nl + " " * self.src.col(dash) + "- " + self._item_text(seq, item))

    def seq_remove(self, seq: Sequence, index: int) -> str:
        if seq.flow:
            texts = [self.text[i.start : i.end] for n, i in enumerate(seq.items) if n != index]
            return self._splice(seq.body, seq.end, self._flow_list(seq, texts))
        item = seq.items[index]
        return self._delete_lines(self.src.line_start(item.start), item.end)

    def _item_text(self, like: Sequence, item: str) -> str:
        style = next((i.style for i in like.items if isinstance(i, Scalar)), None)
        return self.render.inline(item, style, flow=like.flow) or self.render.inline(item, flow=True) or repr(item)

    def _flow_list(self, like: Sequence, texts: list[str]) -> str:
        pad = " " if like.flow and self.text[like.body + 1 : like.body + 2] == " " else ""
        return "[" + pad + ", ".join(texts) + pad + "]" if texts else "[]"
