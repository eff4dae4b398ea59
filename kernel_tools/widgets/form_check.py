"""Checking a typed value against a form spec: types, bounds, lengths, options, required fields.

Every problem is ``{"path", "message"}`` with the field's path (``edits[0].op``), the same
paths the browser's form marks. Used on a form's coerced values and on arguments given
directly (a replayed call).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .schema_form import Spec

Errors = list[dict[str, str]]


def problem(path: str, message: str) -> dict[str, str]:
    return {"path": path, "message": message}


def join_path(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def chosen_action(spec: Spec, raw: dict[str, Any]) -> Any:
    key = spec.get("discriminator")
    return raw.get(key) if key else None


def applies(field: Spec, chosen: Any) -> bool:
    """Whether a field belongs to the chosen action (always, when nothing is chosen yet)."""
    return not field.get("actions") or chosen is None or chosen in field["actions"]


def check(spec: Spec, value: Any, path: str = "", *, deep: bool = True) -> Errors:
    """Problems of an already typed value (bounds, lengths, options, types, required fields)."""
    kind, errors = spec["kind"], []
    if value is None:
        return [] if spec.get("nullable") else [problem(path, "may not be empty (null)")]
    if kind == "string":
        if not isinstance(value, str):
            return [problem(path, "is not a string")]
        if "minLength" in spec and len(value) < spec["minLength"]:
            errors.append(problem(path, f"needs at least {spec['minLength']} characters"))
        if "maxLength" in spec and len(value) > spec["maxLength"]:
            errors.append(problem(path, f"allows at most {spec['maxLength']} characters"))
        if "pattern" in spec and not re.search(spec["pattern"], value):
            errors.append(problem(path, f"does not match {spec['pattern']}"))
    elif kind in ("integer", "number"):
        if isinstance(value, bool) or not isinstance(value, int | float) or (kind == "integer" and value != int(value)):
            return [problem(path, f"is not {'an integer' if kind == 'integer' else 'a number'}")]
        for key, test, word in (
            ("minimum", lambda v, b: v >= b, "≥"),
            ("maximum", lambda v, b: v <= b, "≤"),
            ("exclusiveMinimum", lambda v, b: v > b, ">"),
            ("exclusiveMaximum", lambda v, b: v < b, "<"),
        ):
            bound = spec.get(key)
            if isinstance(bound, int | float) and not isinstance(bound, bool) and not test(value, bound):
                errors.append(problem(path, f"must be {word} {bound:g}"))
    elif kind == "boolean" and not isinstance(value, bool):
        errors.append(problem(path, "is not true or false"))
    elif kind == "enum" and value not in [o["value"] for o in spec["options"]]:
        errors.append(problem(path, f"must be one of {', '.join(json.dumps(o['value']) for o in spec['options'])}"))
    elif kind == "multi":
        allowed = [o["value"] for o in spec["options"]]
        errors += [problem(path, f"has {v!r}, not an option") for v in value if v not in allowed]
        errors += count_problems(spec, value, path)
    elif kind == "array":
        if not isinstance(value, list):
            return [problem(path, "is not a list")]
        errors += count_problems(spec, value, path)
        if deep:
            for i, item in enumerate(value):
                errors += check(spec["item"], item, f"{path}[{i}]")
    elif kind == "object" and deep:
        errors += _check_object(spec, value, path)
    elif kind == "choice" and deep:
        errors += _check_choice(spec, value, path)
    elif kind == "const" and value != spec["value"]:
        errors.append(problem(path, f"must be {json.dumps(spec['value'])}"))
    return errors


def count_problems(spec: Spec, value: list[Any], path: str) -> Errors:
    if "minItems" in spec and len(value) < spec["minItems"]:
        return [problem(path, f"needs at least {spec['minItems']} item{'s' if spec['minItems'] != 1 else ''}")]
    if "maxItems" in spec and len(value) > spec["maxItems"]:
        return [problem(path, f"allows at most {spec['maxItems']} items")]
    return []


def _check_object(spec: Spec, value: Any, path: str) -> Errors:
    if not isinstance(value, dict):
        return [problem(path, "is not an object")]
    errors: Errors = []
    chosen = chosen_action(spec, value)
    for field in spec["fields"]:
        sub = join_path(path, field["name"])
        if field["name"] in value:
            errors += check(field, value[field["name"]], sub)
        elif field["required"] and applies(field, chosen):
            errors.append(problem(sub, "is required"))
    return errors


def _check_choice(spec: Spec, value: Any, path: str) -> Errors:
    index = variant_of(spec, value)
    return check(spec["variants"][index]["spec"], value, path)


def variant_of(spec: Spec, value: Any) -> int:
    """Which of a choice's variants a value is: by its key's const, else the first it fits."""
    key = spec.get("key")
    for i, variant in enumerate(spec["variants"]):
        fields = variant["spec"].get("fields", [])
        const = next((f for f in fields if f["name"] == key), None)
        if key and isinstance(value, dict) and const is not None and value.get(key) == const["value"]:
            return i
    fits = [i for i, v in enumerate(spec["variants"]) if not check(v["spec"], value)]
    return fits[0] if fits else 0
