"""The block-only markdown-it parser behind ``structure``, with leading-character guards.

markdown-it tries every block rule at every line start (and again, in silent mode, for each
line of a paragraph to see whether something interrupts it). Most rules reject a line on
its first non-blank character, but only after a call, a debug-log call and a few lookups;
over 10K lines that is most of the parse. Each guard below makes exactly the rule's own
first rejection test before calling it, so the tokens are identical (see
``tests/core/markdown/test_block_parser.py``), just produced without the wasted calls.

One deliberate difference: a table is only its ``table_open``/``table_close`` pair. Its
rows and cells were half of all tokens and structure reads nothing inside a table (table
edits parse the table's own text again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS
from markdown_it.rules_core.normalize import normalize
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

Rule = Callable[[Any, int, int, bool], bool]

# The characters a rule's line can start with (after indentation); any other makes it fail.
_LEADING = {
    "math_block": "$",
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "footnote_def": "[",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
}


def _table_guard(rule: Rule) -> Rule:
    # The rule's own first tests: a next line that is a delimiter row (only | - : and blanks,
    # not "- " as a list would start) and a "|" in this line.
    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        nxt = start + 1
        if nxt >= end:
            return False
        src = state.src
        pos = state.bMarks[nxt] + state.tShift[nxt]
        row = src[pos : state.eMarks[nxt]]
        if len(row) < 2 or row[0] not in "|-:" or (row[0] == "-" and row[1] in " \t") or row.strip("|-: \t"):
            return False
        if "|" not in src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]:
            return False
        return rule(state, start, end, silent)

    return guarded


def _lean_table(rule: Rule) -> Rule:
    # The rule decides (silently) whether a table starts here; its extent is the rule's own
    # row loop without building the cells. Only a table so long that the rule's limit on
    # autocompleted cells could cut it short is left to the rule itself.
    def table(state: Any, start: int, end: int, silent: bool) -> bool:
        if not rule(state, start, end, True):
            return False
        if silent:
            return True
        header = state.src[state.bMarks[start] : state.eMarks[start]]
        if (end - start) * (header.count("|") + 1) > MAX_AUTOCOMPLETED_CELLS:
            return rule(state, start, end, False)
        old_parent, state.parentType = state.parentType, "table"
        terminators = state.md.block.ruler.getRules("blockquote")
        state.push("table_open", "table", 1).map = lines = [start, 0]
        line = start + 2
        while line < end and state.sCount[line] >= state.blkIndent:
            if any(stop(state, line, end, True) for stop in terminators):
                break
            if not mdTrim(state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]):
                break
            if state.is_code_block(line):
                break
            line += 1
        state.push("table_close", "table", -1)
        lines[1] = state.line = line
        state.parentType = old_parent
        return True

    return table


def _hr_guard(rule: Rule) -> Rule:
    # The rule fails at the first character that is neither its marker nor a blank; a list
    # item ("- text", "* text") shows one within three characters.
    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        pos = state.bMarks[start] + state.tShift[start]
        if pos >= state.eMarks[start]:
            return False
        src = state.src
        marker = src[pos]
        for ch in src[pos + 1 : min(pos + 4, state.eMarks[start])]:
            if ch != marker and ch != " " and ch != "\t":
                return False
        return rule(state, start, end, silent)

    return guarded


def _lean_paragraph(state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it's paragraph rule without the paragraph's text, which structure never reads
    (the tokens keep their places: the inline token stays, with empty content)."""
    line = start + 1
    terminators = state.md.block.ruler.getRules("paragraph")
    end = state.lineMax
    old_parent, state.parentType = state.parentType, "paragraph"
    s_count, blk_indent = state.sCount, state.blkIndent
    while line < end:
        if state.isEmpty(line):
            break
        # Indented as code, or a blockquote's marker line: a lazy continuation either way.
        if s_count[line] - blk_indent > 3 or s_count[line] < 0:
            line += 1
            continue
        for stop in terminators:
            if stop(state, line, end, True):
                break
        else:
            line += 1
            continue
        break
    state.line = line
    state.push("paragraph_open", "p", 1).map = [start, line]
    inline = state.push("inline", "", 0)
    inline.map = [start, line]
    inline.children = []
    state.push("paragraph_close", "p", -1)
    state.parentType = old_parent
    return True


_LHEADING_SCAN = 16


def _lheading_guard(rule: Rule) -> Rule:
    # A setext heading needs an underline (a run of = or of -, then blanks) before the
    # paragraph's first blank line. When none is within reach, the rule would fail after
    # testing every line for interruptions; the scan is bounded so long tight lists stay linear.
    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        src, b_marks, t_shift, e_marks = state.src, state.bMarks, state.tShift, state.eMarks
        stop = min(end, start + 1 + _LHEADING_SCAN)
        line = start + 1
        while line < stop:
            pos = b_marks[line] + t_shift[line]
            end_pos = e_marks[line]
            if pos >= end_pos:
                return False
            ch = src[pos]
            if (ch == "-" or ch == "=") and not src[pos:end_pos].rstrip(" \t").strip(ch):
                break
            line += 1
        else:
            if line >= end:
                return False
        return rule(state, start, end, silent)

    return guarded


def _code_guard(rule: Rule) -> Rule:
    def guarded(state: Any, start: int, end: int, silent: bool) -> bool:
        if state.sCount[start] - state.blkIndent < 4:
            return False
        return rule(state, start, end, silent)

    return guarded


def _open_math_marker(rule: Rule) -> Rule:
    # A $$ with no closing $$ before the end of a chunk may be closed in a later one.
    def math_block(state: Any, start: int, end: int, silent: bool) -> bool:
        found = rule(state, start, end, silent)
        if not found and state.src.startswith("$$", state.bMarks[start] + state.tShift[start]):
            state.env["open_math"] = True
        return found

    return math_block


def _dispatcher(rules: list[Rule], leading: dict[Rule, str]) -> Rule:
    """One rule that tries, in order, only the rules whose leading character fits the line."""
    others = [r for r in rules if r not in leading]
    by_char: dict[str, list[Rule]] = {}
    for chars in leading.values():
        for ch in chars:
            by_char[ch] = [r for r in rules if r not in leading or ch in leading[r]]

    def dispatch(state: Any, start: int, end: int, silent: bool) -> bool:
        pos = state.bMarks[start] + state.tShift[start]
        chain = by_char.get(state.src[pos], others) if pos < state.eMarks[start] else others
        for rule in chain:  # noqa: SIM110 - a generator in any() costs more on this hot path
            if rule(state, start, end, silent):
                return True
        return False

    return dispatch


def _install_dispatch(md: MarkdownIt) -> None:
    # Every chain markdown-it asks for ("" for the main loop, "paragraph", "list", ... for
    # the interruption checks) becomes one dispatcher over the same rules in the same order.
    ruler = md.block.ruler
    fns = {r.name: r.fn for r in ruler.__rules__}
    leading = {fns[name]: chars for name, chars in _LEADING.items() if name in fns}
    names = {""} | {alt for r in ruler.__rules__ for alt in r.alt}
    chains = {name: [_dispatcher(ruler.getRules(name), leading)] for name in names}
    ruler.getRules = lambda chain: chains.get(chain, [])  # type: ignore[method-assign,assignment,misc]


class _Token:
    """A block token with markdown-it's ``Token`` fields, cheaper to make than the dataclass.

    A 10K-line document makes about 27K tokens; the dataclass's generated ``__init__`` and
    ``__post_init__`` were a third of the parse. Unset fields fall back to class defaults.
    """

    map: list[int] | None = None
    markup = ""
    info = ""
    content = ""
    children: list[Any] | None = None
    attrs: dict[str, Any] = {}
    meta: dict[Any, Any] = {}
    block = True
    hidden = False

    def __init__(self, type: str, tag: str, nesting: int, level: int) -> None:
        self.type = type
        self.tag = tag
        self.nesting = nesting
        self.level = level

    def attrGet(self, name: str) -> Any:
        return self.attrs.get(name)

    def attrSet(self, name: str, value: Any) -> None:
        self.attrs = {**self.attrs, name: value}

    def attrJoin(self, name: str, value: str) -> None:
        old = self.attrs.get(name)
        self.attrSet(name, f"{old} {value}" if old else value)


class _State(StateBlock):
    def push(self, ttype: str, tag: str, nesting: Any) -> Any:
        if nesting < 0:
            self.level -= 1
        token = _Token(ttype, tag, nesting, self.level)
        if nesting > 0:
            self.level += 1
        self.tokens.append(token)  # type: ignore[arg-type]
        return token


def _install_light_tokens(md: MarkdownIt) -> None:
    block = md.block

    def parse(src: str, md: MarkdownIt, env: Any, out_tokens: list[Any]) -> list[Any] | None:
        if not src:
            return None
        state = _State(src, md, env, out_tokens)
        block.tokenize(state, state.line, state.lineMax)
        return state.tokens

    block.parse = parse  # type: ignore[method-assign,assignment]


def _normalize_if_needed(state: Any) -> None:
    # Two regex passes over every chunk, for text that almost never has \r or NUL.
    if "\r" in state.src or "\0" in state.src:
        normalize(state)


def _replace(md: MarkdownIt, name: str, wrap: Callable[[Rule], Rule]) -> None:
    ruler = md.block.ruler
    rule = ruler.__rules__[ruler.__find__(name)]
    ruler.at(name, wrap(rule.fn), {"alt": rule.alt})


def block_parser(guards: bool = True, front_matter: bool = True) -> MarkdownIt:
    """A new parser: CommonMark + GFM tables/strikethrough, front matter, ``$$`` math, footnotes.

    ``guards=False`` gives the same parser without the guards and with whole tables (the
    reference in tests). ``front_matter=False`` is for text that does not start the document.
    """
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    if front_matter:
        md.use(front_matter_plugin)
    md.use(dollarmath_plugin).use(footnote_plugin)
    # footnote_tail would move definitions to the end of the token stream, without their
    # line maps; structure wants each definition where it stands.
    md.disable(["inline", "text_join", "footnote_tail"], ignoreInvalid=True)
    _replace(md, "math_block", _open_math_marker)
    if guards:
        _replace(md, "table", lambda rule: _table_guard(_lean_table(rule)))
        _replace(md, "code", _code_guard)
        _replace(md, "hr", _hr_guard)
        _replace(md, "paragraph", lambda _rule: _lean_paragraph)
        _replace(md, "lheading", _lheading_guard)
        _install_dispatch(md)
        _install_light_tokens(md)
        md.core.ruler.at("normalize", _normalize_if_needed)
    return md
