"""The JSON Schemas a surface publishes for its tools, derived once when the server is built.

A tool's arguments are the operation's params fields, renamed per profile. The schema is
generated from a signature through the SDK's public ``Tool.from_function`` (the same
generator every SDK server uses), then compacted; a compact surface's (the lab profile's)
also made ``lean`` (``core.jsonschema``). Nothing here runs per call: the dispatcher
validates with the operation's own model, so a wrong argument gets this profile's error
envelope instead of the SDK's message, whatever the published schema leaves out.
"""

from __future__ import annotations

import inspect
import keyword
import re
from typing import Annotated, Any

from mcp.server.mcpserver.tools import Tool as SDKTool
from mcp_types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, WithJsonSchema
from pydantic.fields import FieldInfo

from ...core.jsonschema import compact, lean

UNSET: Any = object()
# A composite tool's result on a compact surface: any object (the description says which fields).
OPEN_RESULT: dict[str, Any] = {"type": "object"}


class CompositeResult(BaseModel):
    """The result of the chosen action (see the tool description for its fields)."""

    model_config = ConfigDict(extra="allow")


def input_key(name: str, finfo: FieldInfo) -> str:
    """The key the params model validates a field under: its alias when it has one
    (``from_`` with ``alias="from"`` takes ``from``), else its name."""
    alias = finfo.validation_alias if isinstance(finfo.validation_alias, str) else finfo.alias
    return alias or name


def schemas(
    name: str,
    params: list[inspect.Parameter],
    result: type[BaseModel],
    required: list[str],
    *,
    lean_: bool = False,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(inputSchema, outputSchema) of a tool whose arguments are ``params``; ``lean_``: the
    input schema without what leaving an argument out already says (``core.jsonschema.lean``)."""

    async def signature_only(**kwargs: Any) -> Any:  # never called: it only carries the signature
        raise NotImplementedError

    # The SDK reads the output schema from the model a CallToolResult is annotated with.
    returns = Annotated[CallToolResult, result]
    signature_only.__signature__ = inspect.Signature(params, return_annotation=returns)  # type: ignore[attr-defined]
    signature_only.__annotations__ = {p.name: p.annotation for p in params} | {"return": returns}
    tool = SDKTool.from_function(signature_only, name=name, description="-", structured_output=True)
    parameters = compact(tool.parameters)
    if lean_:
        parameters = lean(parameters)
    if required:
        parameters["required"] = required
    else:
        parameters.pop("required", None)
    return parameters, tool.output_schema


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


def python_names(args: list[str], reserved: frozenset[str] = frozenset({"ctx"})) -> dict[str, str]:
    """Parameter names for the signature that publishes ``args``: each argument itself when
    Python allows it, else a safe identifier that carries the argument as its alias (a tool
    argument may be a keyword such as ``from``, or no identifier at all)."""

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


def parameter(
    name: str,
    finfo: FieldInfo,
    *,
    optional: bool = False,
    note: str = "",
    default: Any = UNSET,
    python_name: str | None = None,
    description: str | None = None,
) -> inspect.Parameter:
    """The signature parameter that publishes tool argument ``name``; ``python_name`` when
    ``name`` cannot be a Python parameter (the schema then names it by its alias);
    ``description`` in place of the field's."""
    description = (finfo.description if description is None else description) or ""
    description += note
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
    if default is UNSET:
        if optional:
            default = None
        elif finfo.is_required():
            default = inspect.Parameter.empty
        else:
            default = finfo.get_default(call_default_factory=True)
    return inspect.Parameter(
        python_name or name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[Any, *custom, meta],
        default=default,
    )


def action_parameter(actions: list[JsonValue], description: str | None) -> inspect.Parameter:
    # A plain string with an enum, validated by the dispatcher, so a wrong action gets our envelope.
    return inspect.Parameter(
        "action",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[str, Field(description=description, json_schema_extra={"enum": actions})],
    )
