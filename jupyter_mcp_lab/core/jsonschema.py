"""Compact JSON Schemas for tools/list: the same constraints in fewer bytes (``compact``,
``lean``), and a tagged union as one flat object (``flat_union``).

Agents pay context for every byte of every tool listed. Pydantic's schemas repeat a
``title`` on every field and spell optional fields as ``anyOf [X, null]`` with
``default: null``; neither tells an agent anything the property name and ``required``
do not.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def compact(schema: Any) -> Any:
    if isinstance(schema, list):
        return [compact(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "default" and value is None:
            continue  # an optional field's absence says as much
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: compact(prop) for name, prop in value.items()}
        elif key == "$defs" and isinstance(value, dict):
            out[key] = {name: compact(d) for name, d in value.items()}
        else:
            out[key] = compact(value)
    options = out.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        (other,) = [o for o in options if o != {"type": "null"}]
        del out["anyOf"]
        out = {**other, **out} if isinstance(other, dict) else out
    return out


# Keywords whose value is a schema, a list of schemas, or a map of names to schemas: ``lean``
# walks only these, so a property named ``title`` or ``default`` stays what it is.
_ONE = frozenset({"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"})
_MANY = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_NAMED = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})


def lean(schema: Any) -> Any:
    """``schema`` without what an argument that may be left out already says: no
    ``additionalProperties: true`` (JSON Schema's default), no ``default`` of false, "" or
    null (what leaving it out means), no ``null`` among an ``anyOf``'s options, and an
    ``anyOf`` of plain types as one ``type`` list. For tools whose arguments are all optional
    and whose dispatcher takes a null as not sent (the lab profile's composite tools)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ONE:
            out[key] = lean(value)
        elif key in _MANY and isinstance(value, list):
            out[key] = [lean(s) for s in value]
        elif key in _NAMED and isinstance(value, dict):
            out[key] = {name: lean(s) for name, s in value.items()}
        else:
            out[key] = value
    if out.get("additionalProperties") is True:
        del out["additionalProperties"]
    if "default" in out and (out["default"] is None or out["default"] is False or out["default"] == ""):
        del out["default"]
    options = out.get("anyOf")
    if isinstance(options, list):
        options = [o for o in options if o != {"type": "null"}]
        if not options:
            del out["anyOf"]
        elif len(options) == 1 and isinstance(options[0], dict):
            del out["anyOf"]
            out = {**options[0], **out}
        elif all(isinstance(o, dict) and set(o) == {"type"} and isinstance(o["type"], str) for o in options):
            del out["anyOf"]
            out = {"type": [o["type"] for o in options], **out}
        else:
            out["anyOf"] = options
    return out


def flat_union(members: Iterable[dict[str, Any]], tag: str, *, drop: frozenset[str] = frozenset()) -> dict[str, Any]:
    """One object schema for a tagged union of object schemas: ``tag`` (an enum of every
    member's value) plus every property any member has, compacted and without the keys in
    ``drop``. A property several members share keeps the first one's schema, except that
    enums are merged (each member's values listed once). An agent reads this far more easily,
    and for a fraction of the bytes, than a oneOf of every member; the union itself (the
    pydantic model) still validates each value exactly."""
    tags: list[Any] = []
    props: dict[str, Any] = {}
    for schema in members:
        own = schema["properties"][tag]
        tags.extend(own.get("enum") or [own["const"]])
        for name, prop in schema["properties"].items():
            if name == tag:
                continue
            prop = {k: v for k, v in compact(prop).items() if k not in drop}
            seen = props.get(name)
            if seen is None:
                props[name] = prop
            elif "enum" in seen and "enum" in prop:
                seen["enum"] = seen["enum"] + [v for v in prop["enum"] if v not in seen["enum"]]
    return {"type": "object", "properties": {tag: {"type": "string", "enum": tags}, **props}, "required": [tag]}
