"""A surface's tools compiled once: what each publishes, and how its arguments map onto an
operation's params.

``bind(arguments)`` turns the arguments a client sent into an ``Invocation`` (the operation,
the fields its model validates, what to record in the activity log) or raises the
``ArgumentError`` that refuses the call before anything runs: an unknown argument (an agent
that misspelled ``expected_revision`` would otherwise write unguarded), an unknown action,
or an argument the chosen action does not take, or a number out of range (``numbers``).
The types are the operation's model's, checked strictly by the dispatcher.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import mcp_types
from pydantic.fields import FieldInfo

from ...core.errors import ArgumentError
from ...ops.base import Operation
from ...surfaces.base import CompositeTool, FlatTool, Surface
from .. import json_input
from .numbers import check_numbers
from .schema import (
    OPEN_RESULT,
    UNSET,
    CompositeResult,
    action_parameter,
    input_key,
    parameter,
    python_names,
    schemas,
)


@dataclass(frozen=True)
class Invocation:
    label: str  # the tool, or "tool.action", as the activity log names it
    op: Operation
    fields: dict[str, Any]  # keyed as the operation's model validates them
    arguments: dict[str, Any]  # as the tool took them (defaults filled in), for the activity summary
    published: dict[str, str]  # model key -> tool argument, to name a bad argument as the client knows it


def resolve(op: Operation) -> Operation:
    """The operation (or surface adapter) a tool maps onto: the object itself, never a name."""
    if not isinstance(op, Operation):
        raise TypeError(f"a tool maps onto an Operation or Adapter object, not {op!r}")
    return op


def _accepts_str(annotation: Any) -> bool:
    """Whether a field takes a string as is (so a string that looks like JSON stays a string)."""
    if annotation is str or annotation is Any:
        return annotation is str
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _accepts_str(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        return any(isinstance(a, str) for a in typing.get_args(annotation))
    if origin is typing.Union or origin is types.UnionType:
        return any(_accepts_str(a) for a in typing.get_args(annotation))
    return False


def _pre_parsed(value: Any) -> Any:
    # Some clients (Claude Desktop) send lists and objects as JSON inside a string; the SDK's
    # own servers parse those for arguments that are not strings, and so do we. Only those:
    # "12", "true" or "null" stay strings, which the strict model refuses for a number or flag.
    if not isinstance(value, str) or not value.lstrip().startswith(("[", "{")):
        return value
    try:
        parsed = json_input.loads(value)  # with the nesting limit every client input gets
    except json_input.JSONInputError:
        return value
    return parsed if isinstance(parsed, list | dict) else value


def _unknown(given: dict[str, Any], known: frozenset[str]) -> None:
    if known.issuperset(given):  # the usual case, checked without a Python loop
        return
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        raise ArgumentError(
            f"unknown argument{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"this tool takes: {', '.join(sorted(known))}",
            argument=unknown[0],
        )


@dataclass(frozen=True)
class Publishing:
    """How a surface publishes its tools' schemas (``Surface.compact``, ``Surface.wording``)."""

    compact: bool = False
    wording: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, surface: Surface | None) -> Publishing:
        return PUBLISH_FULL if surface is None else cls(surface.compact, surface.wording)

    def describe(self, finfo: FieldInfo) -> str | None:
        """This surface's wording of a field's description (None: the field's own)."""
        return self.wording.get(finfo.description) if finfo.description else None


PUBLISH_FULL = Publishing()


def _hints(ops: list[Operation], title: str | None) -> mcp_types.ToolAnnotations:
    # A composite tool is as careful as its least careful action.
    return mcp_types.ToolAnnotations(
        title=title,
        read_only_hint=all(o.read_only for o in ops),
        destructive_hint=any(o.destructive for o in ops),
        idempotent_hint=all(o.idempotent for o in ops),
        open_world_hint=False,
    )


class FlatBinding:
    """One tool for one operation, with the profile's argument names and defaults."""

    def __init__(self, spec: FlatTool, publishing: Publishing = PUBLISH_FULL) -> None:
        op = resolve(spec.op)
        fields_ = op.params.model_fields
        keys = {f: input_key(f, finfo) for f, finfo in fields_.items()}
        by_key = {k: f for f, k in keys.items()}
        # tool argument -> the key the operation's model validates it under
        to_field = {spec.rename.get(f, keys[f]): keys[f] for f in fields_ if f not in spec.hidden}
        required = [
            a for a, k in to_field.items() if fields_[by_key[k]].is_required() and by_key[k] not in spec.defaults
        ]
        names = python_names(list(to_field))
        params = [
            parameter(
                arg,
                fields_[by_key[key]],
                default=None if arg in required else spec.defaults.get(by_key[key], UNSET),
                python_name=names[arg],
                description=publishing.describe(fields_[by_key[key]]),
            )
            for arg, key in to_field.items()
        ]
        title = spec.title or op.title
        input_schema, output_schema = schemas(spec.name, params, op.result, required)
        self.name = spec.name
        self.op = op
        self.definition = mcp_types.Tool(
            name=spec.name,
            title=title,
            description=spec.description or op.description,
            input_schema=input_schema,
            output_schema=output_schema,
            # The tool's own title says it; a compact surface does not repeat it in the hints.
            annotations=_hints([op], None if publishing.compact else title),
        )
        self._to_field = to_field
        self._required = frozenset(required)
        self._known = frozenset(to_field)
        # What a tool argument is when the client leaves it out (the activity log shows it).
        self._fallback = {p_arg: p.default for p_arg, p in zip(to_field, params, strict=True) if p_arg not in required}
        self._defaults = {keys.get(f, f): v for f, v in spec.defaults.items()}
        self._published = {key: arg for arg, key in to_field.items()}
        self._parse = frozenset(a for a, k in to_field.items() if not _accepts_str(fields_[by_key[k]].annotation))

    def bind(self, given: dict[str, Any]) -> Invocation:
        _unknown(given, self._known)
        arguments: dict[str, Any] = {}
        for arg in self._to_field:
            if arg in given:
                value = given[arg]
                arguments[arg] = _pre_parsed(value) if arg in self._parse else value
            elif arg not in self._required:
                arguments[arg] = self._fallback[arg]
        check_numbers(arguments)
        fields = {**self._defaults, **{self._to_field[k]: v for k, v in arguments.items()}}
        return Invocation(self.name, self.op, fields, arguments, self._published)


class CompositeBinding:
    """One tool whose ``action`` argument picks the operation."""

    def __init__(self, spec: CompositeTool, publishing: Publishing = PUBLISH_FULL) -> None:
        ops = {action: resolve(op) for action, op in spec.actions.items()}
        users: dict[str, list[str]] = {}
        infos: dict[str, FieldInfo] = {}
        needs: dict[str, set[str]] = {}  # per action: the arguments it requires
        self._to_field: dict[str, dict[str, str]] = {}  # per action: tool argument -> model key
        self._parse: dict[str, frozenset[str]] = {}
        self._defaults: dict[str, dict[str, Any]] = {}
        for action, op in ops.items():
            mapping: dict[str, str] = {}
            parse: set[str] = set()
            for fname, finfo in op.params.model_fields.items():
                if fname in spec.hidden:
                    continue
                key = input_key(fname, finfo)
                arg = spec.rename.get(fname, key)
                mapping[arg] = key
                if not _accepts_str(finfo.annotation):
                    parse.add(arg)
                users.setdefault(arg, []).append(action)
                if finfo.is_required() and fname not in spec.defaults:
                    needs.setdefault(action, set()).add(arg)
                if arg in infos and infos[arg].annotation != finfo.annotation:
                    merged = FieldInfo.from_annotation(Any)
                    merged.description = infos[arg].description or finfo.description
                    infos[arg] = merged
                else:
                    infos.setdefault(arg, finfo)
            self._to_field[action] = mapping
            self._parse[action] = frozenset(parse)
            model_fields = op.params.model_fields
            self._defaults[action] = {
                input_key(f, model_fields[f]): v for f, v in spec.defaults.items() if f in model_fields
            }
        stray = sorted(set(spec.describe) - set(infos))
        if stray:
            raise TypeError(f"tool {spec.name!r} describes arguments it does not take: {', '.join(stray)}")
        names = python_names(list(infos), reserved=frozenset({"ctx", "action"}))
        compact = publishing.compact
        # Which action takes which arguments (kernel_tools' forms read it too): once per action
        # on a compact surface, else a note on each argument.
        summary = signatures(self._to_field, needs) if compact else "The operation to run."
        params = [action_parameter(list(ops), summary)]
        for arg in infos:
            description = spec.describe[arg] if arg in spec.describe else publishing.describe(infos[arg])
            note = "" if compact else f" (used by: {', '.join(users[arg])})"
            params.append(
                parameter(arg, infos[arg], optional=True, note=note, python_name=names[arg], description=description)
            )
        title = spec.title or spec.name.capitalize()
        input_schema, output_schema = schemas(spec.name, params, CompositeResult, ["action"], lean_=compact)
        self.name = spec.name
        self.ops = ops
        self.definition = mcp_types.Tool(
            name=spec.name,
            title=title,
            description=spec.description,
            input_schema=input_schema,
            output_schema=OPEN_RESULT if compact else output_schema,
            annotations=_hints(list(ops.values()), None if compact else title),
        )
        self._order = list(infos)
        self._known = frozenset(["action", *infos])

    def bind(self, given: dict[str, Any]) -> Invocation:
        _unknown(given, self._known)
        action = given.get("action")
        op = self.ops.get(action) if isinstance(action, str) else None
        if op is None:
            raise ArgumentError(f"unknown action {action!r}; one of: {', '.join(self.ops)}", argument="action")
        assert isinstance(action, str)
        parse = self._parse[action]
        # An argument sent as null counts as not sent: every argument but action is optional here.
        arguments = {}
        for arg in self._order:
            value = given.get(arg)
            if arg in parse:
                value = _pre_parsed(value)
            if value is not None:
                arguments[arg] = value
        mapping = self._to_field[action]
        stray = sorted(set(arguments) - set(mapping))
        if stray:
            raise ArgumentError(f"action {action!r} does not take {', '.join(stray)}", argument=stray[0])
        check_numbers(arguments)
        fields = {**self._defaults[action], **{mapping[k]: v for k, v in arguments.items()}}
        published = {key: arg for arg, key in mapping.items()}
        return Invocation(f"{self.name}.{action}", op, fields, arguments, published)


def signatures(takes: dict[str, dict[str, str]], needs: dict[str, set[str]]) -> str | None:
    """``read {section?, maxBytes?}; search {query, regex?}; undo``: each action with the
    arguments it takes (``?``: optional), required ones first. An argument every action
    takes as optional is left out (the tool's properties list it once)."""
    everywhere = set.intersection(*(set(a) for a in takes.values())) if takes else set()
    everywhere -= set().union(*needs.values()) if needs else set()
    parts, any_args = [], False
    for action, mapping in takes.items():
        required = needs.get(action, set())
        args = [a for a in mapping if a in required] + [f"{a}?" for a in mapping if a not in required | everywhere]
        parts.append(f"{action} {{{', '.join(args)}}}" if args else action)
        any_args = any_args or bool(args)
    return "; ".join(parts) if any_args else None  # the enum says as much


ToolBinding = FlatBinding | CompositeBinding


def compile_tool(spec: FlatTool | CompositeTool, surface: Surface | None = None) -> ToolBinding:
    """``spec`` as ``surface`` publishes it (``Surface.compact``, ``Surface.wording``)."""
    publishing = Publishing.of(surface)
    return FlatBinding(spec, publishing) if isinstance(spec, FlatTool) else CompositeBinding(spec, publishing)
