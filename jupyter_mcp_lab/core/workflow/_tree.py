"""A YAML node tree with exact source spans, built from ruamel.yaml's parser events.

ruamel's composer resolves an alias to the anchored node (losing where the alias was
written) and block collections end where the next token starts (after comments), so the
tree is built from events instead: every node knows where its own text starts (``start``,
including anchor and tag), where its content starts (``body``) and where its last token
ends (``end``, trailing blank lines and comments excluded). Offsets are code point indexes
into the text; columns are computed from them, never taken from ruamel's marks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ..errors import DomainError

_PROPS = re.compile(r"(?:[&!][^\s,\[\]{}]*[ \t]*)+")


@dataclass(eq=False)
class Node:
    start: int
    end: int
    body: int
    anchor: str | None


@dataclass(eq=False)
class Scalar(Node):
    value: str = ""
    style: str | None = None

    @property
    def empty(self) -> bool:
        """An absent value (``key:``), read as null."""
        return self.style is None and self.value == ""

    @property
    def block(self) -> bool:
        return self.style in ("|", ">")


@dataclass(eq=False)
class Alias(Node):
    name: str = ""


@dataclass(eq=False)
class Mapping(Node):
    flow: bool = False
    pairs: list[tuple[Node, Node]] = field(default_factory=list)

    def index(self, key: str) -> int | None:
        """Index of this mapping's own pair with scalar key ``key`` (merged keys are not own)."""
        for i, (k, _) in enumerate(self.pairs):
            if isinstance(k, Scalar) and k.value == key and key != "<<":
                return i
        return None

    def get(self, key: str) -> tuple[Node, Node] | None:
        i = self.index(key)
        return None if i is None else self.pairs[i]


@dataclass(eq=False)
class Sequence(Node):
    flow: bool = False
    items: list[Node] = field(default_factory=list)


@dataclass
class Indent:
    """The document's block indentation, relative to the parent key's column."""

    mapping: int = 2
    sequence: int = 4
    offset: int = 2


class Source:
    """The text with line helpers (CRLF aware)."""

    def __init__(self, text: str) -> None:
        self.text = text
        crlf = text.count("\r\n")
        self.nl = "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"

    def line_start(self, i: int) -> int:
        return self.text.rfind("\n", 0, i) + 1

    def line_end(self, i: int) -> int:
        """Index of the line break (or end of text) of the line holding ``i``."""
        e = self.text.find("\n", i)
        if e < 0:
            return len(self.text)
        return e - 1 if e > 0 and self.text[e - 1] == "\r" else e

    def next_line(self, i: int) -> int:
        """Start of the line after the one holding ``i`` (or the end of the text)."""
        e = self.text.find("\n", i)
        return len(self.text) if e < 0 else e + 1

    def col(self, i: int) -> int:
        return i - self.line_start(i)

    def leading(self, i: int) -> bool:
        """Whether only indentation precedes ``i`` on its line."""
        return self.text[self.line_start(i) : i].strip(" \t") == ""

    def colon_end(self, key: Node) -> int:
        """Index just past the ``:`` that follows a mapping key."""
        i = key.end
        while i < len(self.text) and self.text[i] in " \t":
            i += 1
        return i + 1 if i < len(self.text) and self.text[i] == ":" else key.end


def parse_error(exc: YAMLError) -> tuple[int, int, str]:
    """(line, column, message) of a YAML error, 1-based."""
    if isinstance(exc, MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        return mark.line + 1, mark.column + 1, str(exc.problem or exc)
    return 1, 1, str(exc).strip()


class Tree:
    """Parse ``text`` (one YAML document) into a span tree; NOT_WORKFLOW if it is not a mapping."""

    def __init__(self, src: Source) -> None:
        self.src = src
        self.anchors: dict[str, Node] = {}
        self.merged: set[str] = set()  # anchors used by merge keys (<<: *name)
        self.aliased: set[str] = set()  # anchors used by any alias
        try:
            self._events = list(YAML(typ="safe", pure=True).parse(src.text))
        except YAMLError as exc:
            line, col, problem = parse_error(exc)
            raise DomainError(
                "NOT_WORKFLOW", f"Not valid YAML (line {line}, column {col}): {problem}", line=line, col=col
            ) from exc
        docs = sum(isinstance(e, ev.DocumentStartEvent) for e in self._events)
        if docs != 1:
            raise DomainError("NOT_WORKFLOW", f"A workflow is one YAML document; this text has {docs}.")
        self._i = 2  # StreamStart, DocumentStart
        root = self._node()
        if not isinstance(root, Mapping) or root.flow:
            raise DomainError("NOT_WORKFLOW", "A workflow is a YAML block mapping (name:, on:, jobs:, ...).")
        self.root = root

    # -- building ---------------------------------------------------------------------------
    def _props_end(self, start: int, e: ev.NodeEvent) -> int:
        if getattr(e, "anchor", None) is None and getattr(e, "tag", None) is None:
            return start
        m = _PROPS.match(self.src.text, start)
        return m.end() if m else start

    def _body(self, start: int, e: ev.CollectionStartEvent) -> int:
        if e.flow_style:
            return self._props_end(start, e)
        # a block collection's start event ends where its first entry starts
        return e.end_mark.index if (e.anchor is not None or e.tag is not None) else start

    def _node(self) -> Node:
        e = self._events[self._i]
        self._i += 1
        start = e.start_mark.index
        node: Node
        if isinstance(e, ev.AliasEvent):
            self.aliased.add(e.anchor)
            return Alias(start, e.end_mark.index, start, None, name=e.anchor)
        if isinstance(e, ev.ScalarEvent):
            end = e.end_mark.index
            if e.style in ("|", ">"):
                raw = self.src.text[start:end]
                if "+" in raw.split("\n", 1)[0]:  # keep chomping: trailing blank lines are content
                    end -= raw.endswith("\n")
                else:
                    end = start + len(raw.rstrip())
            node = Scalar(start, end, self._props_end(start, e), e.anchor, value=e.value, style=e.style)
            if node.empty:
                node.end = node.body
        elif isinstance(e, ev.SequenceStartEvent):
            seq = Sequence(start, start, self._body(start, e), e.anchor, flow=bool(e.flow_style))
            while not isinstance(self._events[self._i], ev.SequenceEndEvent):
                item = self._node()
                if isinstance(item, Scalar) and item.empty and not item.anchor:
                    self._place_empty_item(seq, item)
                seq.items.append(item)
            end_event = self._events[self._i]
            self._i += 1
            seq.end = end_event.end_mark.index if seq.flow else max([seq.body + 1, *(n.end for n in seq.items)])
            node = seq
        elif isinstance(e, ev.MappingStartEvent):
            mp = Mapping(start, start, self._body(start, e), e.anchor, flow=bool(e.flow_style))
            seen: set[str] = set()
            while not isinstance(self._events[self._i], ev.MappingEndEvent):
                key = self._node()
                if isinstance(key, Scalar) and key.value != "<<":
                    if key.value in seen:
                        line = self.src.text.count("\n", 0, key.start) + 1
                        raise DomainError("NOT_WORKFLOW", f"Duplicate key '{key.value}' (line {line})", line=line)
                    seen.add(key.value)
                value = self._node()
                if isinstance(key, Scalar) and key.value == "<<":
                    refs = value.items if isinstance(value, Sequence) else [value]
                    self.merged.update(r.name for r in refs if isinstance(r, Alias))
                if isinstance(value, Scalar) and value.empty and not value.anchor:
                    value.start = value.body = value.end = self.src.colon_end(key)
                mp.pairs.append((key, value))
            end_event = self._events[self._i]
            self._i += 1
            mp.end = end_event.end_mark.index if mp.flow else max([mp.body, *(n.end for p in mp.pairs for n in p)])
            node = mp
        else:  # pragma: no cover - the parser only emits the events above inside a document
            raise DomainError("NOT_WORKFLOW", f"Unexpected YAML event {type(e).__name__}")
        if node.anchor:
            self.anchors[node.anchor] = node
        return node

    def _place_empty_item(self, seq: Sequence, item: Scalar) -> None:
        """Put an empty block-sequence item right after its dash."""
        text = self.src.text
        if seq.flow:
            return
        i = seq.items[-1].end if seq.items else seq.body
        dash = text.find("-", i)
        item.start = item.body = item.end = dash + 1 if dash >= 0 else i

    # -- queries ----------------------------------------------------------------------------
    def resolve(self, node: Node) -> Node:
        while isinstance(node, Alias) and node.name in self.anchors:
            node = self.anchors[node.name]
        return node

    def merged_sources(self, mapping: Mapping) -> list[Mapping]:
        """Mappings merged into ``mapping`` through ``<<`` keys."""
        out: list[Mapping] = []
        for k, v in mapping.pairs:
            if isinstance(k, Scalar) and k.value == "<<":
                targets = v.items if isinstance(v, Sequence) else [v]
                for t in targets:
                    r = self.resolve(t)
                    if isinstance(r, Mapping):
                        out.append(r)
        return out

    def indent(self) -> Indent:
        """Measure the block indentation this document uses (most common values)."""
        maps: Counter[int] = Counter()
        seqs: Counter[tuple[int, int]] = Counter()
        src = self.src

        def walk(node: Node) -> None:
            if isinstance(node, Mapping):
                for k, v in node.pairs:
                    if not node.flow and isinstance(v, Mapping) and not v.flow and v.pairs:
                        first = v.pairs[0][0].start
                        if src.leading(first) and src.line_start(first) != src.line_start(k.start):
                            maps[src.col(first) - src.col(k.start)] += 1
                    if not node.flow and isinstance(v, Sequence) and not v.flow and v.items and not v.anchor:
                        offset = src.col(v.start) - src.col(k.start)
                        item = v.items[0]
                        same_line = src.line_start(item.start) == src.line_start(v.start)
                        seq = src.col(item.start) - src.col(k.start) if same_line else offset + 2
                        seqs[(max(seq, offset + 2), offset)] += 1
                    walk(v)
            elif isinstance(node, Sequence):
                for item in node.items:
                    walk(item)

        walk(self.root)
        out = Indent()
        if maps:
            out.mapping = max(1, maps.most_common(1)[0][0])
        if seqs:
            (out.sequence, out.offset) = seqs.most_common(1)[0][0]
            out.offset = max(0, out.offset)
        else:
            out.offset = out.mapping
            out.sequence = out.mapping + 2
        return out
