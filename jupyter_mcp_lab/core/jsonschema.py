"""Compact JSON Schemas for tools/list: the same constraints in fewer bytes.

Agents pay context for every byte of every tool listed. Pydantic's schemas repeat a
``title`` on every field and spell optional fields as ``anyOf [X, null]`` with
``default: null``; neither tells an agent anything the property name and ``required``
do not.
"""

from __future__ import annotations

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
