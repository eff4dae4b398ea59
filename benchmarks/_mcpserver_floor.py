"""The latency benchmark's floor: a surface served by the SDK's high-level ``MCPServer``.

This is how jupyter_mcp_lab built its servers before the dispatcher and the low-level
binding (``jupyter_mcp_lab/server/mcp_server.py``): kept here, unchanged in what it does, so
the floor stays the bare SDK's own tool machinery under uvicorn.

Each tool becomes a generated async function whose signature is the operation's params
model (renamed per profile), so the SDK derives the input schema, validates arguments and
injects its ``Context``. Results are returned as ``CallToolResult`` with structured content;
domain errors as envelopes marked ``isError``. The call path logs nothing at INFO: agents
call tools in tight loops and a log line per call costs more than the call.
"""

from __future__ import annotations

import inspect
import json
import keyword
import logging
import re
import time
from contextlib import contextmanager
from typing import Annotated, Any

from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, WithJsonSchema
from pydantic.fields import FieldInfo

from jupyter_mcp_lab.core.activity import summarize_arguments
from jupyter_mcp_lab.core.errors import ArgumentError, DomainError
from jupyter_mcp_lab.core.jsonschema import compact
from jupyter_mcp_lab.ops import registry
from jupyter_mcp_lab.ops.base import Operation
from jupyter_mcp_lab.ops.context import OpContext, Services
from jupyter_mcp_lab.surfaces.base import CompositeTool, FlatTool, Surface
from jupyter_mcp_lab.surfaces.caller import caller_from_context

log = logging.getLogger(__name__)


class CompositeResult(BaseModel):
    """The result of the chosen action (see the tool description for its fields)."""

    model_config = ConfigDict(extra="allow")


def default_error_result(envelope: dict[str, Any]) -> CallToolResult:
    text = json.dumps(envelope, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=envelope, is_error=True)


@contextmanager
def _no_root_logging_setup():
    # MCPServer() calls logging.basicConfig(), which would install a root handler inside
    # Jupyter's process. basicConfig does nothing when the root logger has a handler.
    root = logging.getLogger()
    placeholder = None
    if not root.handlers:
        placeholder = logging.NullHandler()
        root.addHandler(placeholder)
    try:
        yield
    finally:
        if placeholder is not None:
            root.removeHandler(placeholder)


def new_mcp_server(name: str, title: str, instructions: str, version: str) -> MCPServer:
    with _no_root_logging_setup():
        server = MCPServer(name=name, title=title, instructions=instructions, version=version)
    # The session manager builds initialization options without NotificationOptions, so
    # MCPServer would advertise listChanged: false; our tool and resource lists do change.
    low = server._lowlevel_server
    create = low.create_initialization_options

    def with_list_changed(notification_options: Any = None, *args: Any, **kwargs: Any) -> Any:
        options = notification_options or NotificationOptions(
            prompts_changed=True, resources_changed=True, tools_changed=True
        )
        return create(options, *args, **kwargs)

    low.create_initialization_options = with_list_changed  # type: ignore[method-assign]
    return server


def build_server(surface: Surface, services: Services) -> MCPServer:
    server = new_mcp_server(surface.server_name, surface.title, surface.instructions, services.version)
    for spec in surface.tools:
        if isinstance(spec, FlatTool):
            op = registry.get(spec.op)
            fn, required = _flat_tool(spec, op, surface, services)
            description = spec.description or op.description
            annotations = ToolAnnotations(title=spec.title or op.title, **_hints([op]))
            title = spec.title or op.title
        else:
            ops = {action: registry.get(name) for action, name in spec.actions.items()}
            fn, required = _composite_tool(spec, ops, surface, services), ["action"]
            description = spec.description
            title = spec.title or spec.name.capitalize()
            annotations = ToolAnnotations(title=title, **_hints(list(ops.values())))
        server.add_tool(
            fn,
            name=spec.name,
            title=title,
            description=description,
            annotations=annotations,
            structured_output=True,
        )
        tool = server._tool_manager.get_tool(spec.name)
        assert tool is not None
        tool.parameters = compact(tool.parameters)
        if required:
            tool.parameters["required"] = required
        else:
            tool.parameters.pop("required", None)
    return server


def _hints(ops: list[Operation]) -> dict[str, bool]:
    # A composite tool is as careful as its least careful action.
    return {
        "read_only_hint": all(o.read_only for o in ops),
        "destructive_hint": any(o.destructive for o in ops),
        "idempotent_hint": all(o.idempotent for o in ops),
        "open_world_hint": False,
    }


_UNSET: Any = object()


def _published(annotation: Any) -> WithJsonSchema:
    schema = TypeAdapter(annotation).json_schema(by_alias=True)
    return WithJsonSchema(compact(_inlined(schema, schema.pop("$defs", {}), ())))


def _inlined(schema: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    """``schema`` with its references to ``$defs`` replaced by the definitions: an argument's
    schema is published inside the tool's, where a field's own ``$defs`` would not resolve.
    A recursive model stays an object at its second appearance."""
    if isinstance(schema, list):
        return [_inlined(s, defs, seen) for s in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        if name in seen or name not in defs:
            return {"type": "object", **rest}
        return {**_inlined(defs[name], defs, (*seen, name)), **rest}
    return {k: _inlined(v, defs, seen) for k, v in schema.items()}


def _input_key(name: str, finfo: FieldInfo) -> str:
    """The key the params model validates a field under: its alias when it has one
    (``from_`` with ``alias="from"`` takes ``from``), else its name."""
    alias = finfo.validation_alias if isinstance(finfo.validation_alias, str) else finfo.alias
    return alias or name


def _python_names(args: list[str], reserved: frozenset[str] = frozenset({"ctx"})) -> dict[str, str]:
    """Parameter names for the generated function that publishes ``args``: each argument
    itself when Python allows it, else a safe identifier that carries the argument as its
    alias (a tool argument may be a keyword such as ``from``, or no identifier at all)."""

    def plain(arg: str) -> bool:
        return arg.isidentifier() and not keyword.iskeyword(arg) and not arg.startswith("_") and arg not in reserved

    taken = set(reserved) | {a for a in args if plain(a)}
    out: dict[str, str] = {}
    for arg in args:
        if plain(arg):
            out[arg] = arg
            continue
        base = re.sub(r"\W", "_", arg).strip("_") or "arg"
        name = f"arg_{base}" if base[0].isdigit() else f"{base}_"
        while name in taken or keyword.iskeyword(name):
            name += "_"
        taken.add(name)
        out[arg] = name
    return out


def _parameter(
    name: str,
    finfo: FieldInfo,
    *,
    optional: bool = False,
    note: str = "",
    default: Any = _UNSET,
    python_name: str | None = None,
) -> inspect.Parameter:
    """The generated function's parameter for tool argument ``name``; ``python_name`` when
    ``name`` cannot be a Python parameter (the SDK then publishes and accepts ``name`` as
    the parameter's alias)."""
    description = (finfo.description or "") + note
    annotation: Any = finfo.annotation
    if optional:
        annotation = annotation | None
    # Constraints (ge, le, min_length…) are checked by the operation's own model, which answers
    # with our envelope; a schema the operation chose for the field is kept.
    aliased = python_name is not None and python_name != name
    meta = Field(description=description or None, examples=finfo.examples, alias=name if aliased else None)
    custom = [m for m in finfo.metadata if isinstance(m, WithJsonSchema)]
    if not custom:
        custom = [_published(annotation)]
    # The tool takes anything and publishes the operation's schema: the operation's own model
    # validates, so a wrong type answers with this profile's error shape, naming the argument.
    annotation = Any
    if default is _UNSET:
        if optional:
            default = None
        elif finfo.is_required():
            default = inspect.Parameter.empty
        else:
            default = finfo.get_default(call_default_factory=True)
    return inspect.Parameter(
        python_name or name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[annotation, *custom, meta],
        default=default,
    )


def _with_signature(fn: Any, params: list[inspect.Parameter], result: type[BaseModel]) -> Any:
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    returns = Annotated[CallToolResult, result]
    fn.__signature__ = inspect.Signature([ctx_param, *params], return_annotation=returns)
    fn.__annotations__ = {p.name: p.annotation for p in [ctx_param, *params]} | {"return": returns}
    return fn


def _flat_tool(spec: FlatTool, op: Operation, surface: Surface, services: Services) -> tuple[Any, list[str]]:
    """The tool function and its required arguments. Those are published as required but
    checked by the operation's model, so a missing one gets this profile's error shape."""
    fields_ = op.params.model_fields
    keys = {f: _input_key(f, finfo) for f, finfo in fields_.items()}
    # tool argument -> the key the operation's model validates it under
    to_field = {spec.rename.get(f, keys[f]): keys[f] for f in fields_ if f not in spec.hidden}
    by_key = {k: f for f, k in keys.items()}
    required = [
        arg for arg, key in to_field.items() if fields_[by_key[key]].is_required() and by_key[key] not in spec.defaults
    ]
    names = _python_names(list(to_field))
    params = [
        _parameter(
            arg,
            fields_[by_key[key]],
            default=None if arg in required else spec.defaults.get(by_key[key], _UNSET),
            python_name=names[arg],
        )
        for arg, key in to_field.items()
    ]
    defaults = {keys.get(f, f): v for f, v in spec.defaults.items()}

    known = frozenset(to_field)
    must = frozenset(required)
    published = {key: arg for arg, key in to_field.items()}

    async def tool(ctx: Context, **kwargs: Any) -> CallToolResult:
        if (refused := _unknown_arguments(ctx, known, surface)) is not None:
            return refused
        given = _given(ctx)
        kwargs = {k: v for k, v in kwargs.items() if k in given or k not in must}
        fields = {**defaults, **{to_field[k]: v for k, v in kwargs.items()}}
        return await _invoke(surface, services, spec.name, op, ctx, fields, kwargs, published)

    tool.__name__ = spec.name
    return _with_signature(tool, params, op.result), required


def _composite_tool(spec: CompositeTool, ops: dict[str, Operation], surface: Surface, services: Services) -> Any:
    users: dict[str, list[str]] = {}
    infos: dict[str, FieldInfo] = {}
    # per action: tool argument -> the key the operation's model validates it under
    to_field: dict[str, dict[str, str]] = {}
    for action, op in ops.items():
        to_field[action] = {}
        for fname, finfo in op.params.model_fields.items():
            if fname in spec.hidden:
                continue
            key = _input_key(fname, finfo)
            arg = spec.rename.get(fname, key)
            to_field[action][arg] = key
            users.setdefault(arg, []).append(action)
            if arg in infos and infos[arg].annotation != finfo.annotation:
                merged = FieldInfo.from_annotation(Any)
                merged.description = infos[arg].description or finfo.description
                infos[arg] = merged
            else:
                infos.setdefault(arg, finfo)
    # A plain string with an enum, validated here, so a wrong action gets our envelope.
    action_param = inspect.Parameter(
        "action",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[str, Field(description="The operation to run.", json_schema_extra={"enum": list(ops)})],
    )
    names = _python_names(list(infos), reserved=frozenset({"ctx", "action"}))
    params = [action_param] + [
        _parameter(arg, infos[arg], optional=True, note=f" (used by: {', '.join(users[arg])})", python_name=names[arg])
        for arg in infos
    ]

    known = frozenset(["action", *infos])

    async def tool(ctx: Context, action: str, **kwargs: Any) -> CallToolResult:
        if (refused := _unknown_arguments(ctx, known, surface)) is not None:
            return refused
        op = ops.get(action)
        if op is None:
            envelope = ArgumentError(
                f"unknown action {action!r}; one of: {', '.join(ops)}", argument="action"
            ).envelope()
            return (surface.render_error or default_error_result)(envelope)
        given = {k: v for k, v in kwargs.items() if v is not None}
        stray = sorted(set(given) - set(to_field[action]))
        if stray:
            envelope = ArgumentError(
                f"action {action!r} does not take {', '.join(stray)}", argument=stray[0]
            ).envelope()
            return (surface.render_error or default_error_result)(envelope)
        model_fields = op.params.model_fields
        defaults = {_input_key(f, model_fields[f]): v for f, v in spec.defaults.items() if f in model_fields}
        fields = {**defaults, **{to_field[action][k]: v for k, v in given.items()}}
        published = {key: arg for arg, key in to_field[action].items()}
        return await _invoke(surface, services, f"{spec.name}.{action}", op, ctx, fields, given, published)

    tool.__name__ = spec.name
    return _with_signature(tool, params, CompositeResult)


def _given(ctx: Context) -> dict[str, Any]:
    """The arguments as the client sent them (before the SDK filled in defaults)."""
    params = ctx.request_context.params or {}
    return params.get("arguments") or {}


def _unknown_arguments(ctx: Context, known: frozenset[str], surface: Surface) -> CallToolResult | None:
    """An error for arguments the tool does not take (the SDK would drop them silently,
    and an agent that misspelled ``expected_revision`` would write unguarded)."""
    given = _given(ctx)
    unknown = sorted(k for k in given if k not in known)
    if not unknown:
        return None
    envelope = ArgumentError(
        f"unknown argument{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
        f"this tool takes: {', '.join(sorted(known))}",
        argument=unknown[0],
    ).envelope()
    return (surface.render_error or default_error_result)(envelope)


async def _invoke(
    surface: Surface,
    services: Services,
    tool: str,
    op: Operation,
    ctx: Context,
    fields: dict[str, Any],
    arguments: dict[str, Any],
    published: dict[str, str] | None = None,
) -> CallToolResult:
    started = time.perf_counter()
    caller = caller_from_context(ctx.request_context, surface.name)
    status = "ok"
    render = surface.render_error or default_error_result
    try:
        if op.mutating and services.settings.read_only:
            raise DomainError("READ_ONLY", "This server is read-only: no document can be changed.")
        try:
            params = op.params.model_validate(fields)
        except ValidationError as exc:
            raise _argument_error(exc, published or {}) from None
        opctx = OpContext(
            services=services,
            caller=caller,
            protocol_version=ctx.protocol_version,
            report_progress=ctx.report_progress,
            log=lambda level, message: ctx.log(level, message),  # type: ignore[arg-type]
        )
        result = await op(opctx, params)
        payload = result.model_dump(mode="json", by_alias=True)
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        limit = services.settings.max_response_bytes
        size = len(text.encode())
        if size > limit:
            raise DomainError(
                "RESPONSE_TOO_LARGE",
                f"The result is {size} bytes, over this server's limit of {limit}: "
                "ask for less (a section, a line range, a page with offset/limit).",
                bytes=size,
                limit=limit,
            )
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload)
    except DomainError as exc:
        status = exc.code
        return render(exc.envelope())
    except Exception:
        status = "INTERNAL"
        log.exception("tool %s failed", tool)
        return render(
            {
                "error": "INTERNAL",
                "message": f"{tool} failed unexpectedly; the server log has details.",
            }
        )
    finally:
        services.activity.record(
            profile=surface.name,
            tool=tool,
            client=caller.client_name,
            user=caller.username,
            session_id=caller.session_id,
            arguments=summarize_arguments(arguments),
            status=status,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )


def _argument_error(exc: ValidationError, published: dict[str, str]) -> ArgumentError:
    """The first invalid argument, named as the tool publishes it (``published``: the key the
    operation's model validates -> the tool's argument)."""

    def where(loc: tuple[Any, ...]) -> str:
        parts = [str(p) for p in loc]
        if parts:
            parts[0] = published.get(parts[0], parts[0])
        return ".".join(parts)

    errors = exc.errors()
    msg = "; ".join(f"{where(e['loc']) or 'arguments'}: {e['msg']}" for e in errors)
    return ArgumentError(msg, argument=where(errors[0]["loc"]) or None)
