"""What a generated form holds, and the arguments it makes: defaults, coercion, validation.

The browser keeps a *raw* value per field, shaped like the spec (``schema_form``): strings
as typed (numbers too), ``True``/``False``/``None`` for booleans, the option's value for an
enum, a list for ``multi`` and ``array``, a dict for ``object``, ``{"variant": i, "value":
raw}`` for a ``choice``. ``coerce`` turns that into the tool's arguments, collecting every
problem as ``{"path", "message"}`` (``edits[0].op: is required``) instead of stopping at the
first, so the form can mark them all. ``to_raw`` is the way back (a call replayed into the form).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .form_check import Errors, applies, check, chosen_action, count_problems, join_path, problem, variant_of
from .schema_form import Spec

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()
_JSON_START = re.compile(r'^\s*(\[|\{|"|true\s*$|false\s*$|null\s*$)')


def defaults(spec: Spec) -> Any:
    """The raw value a fresh form starts with: the schema's defaults, else empty."""
    if "default" in spec:
        return to_raw(spec, spec["default"])
    kind = spec["kind"]
    if kind == "object":
        return {f["name"]: defaults(f) for f in spec["fields"]}
    if kind in ("array", "multi"):
        return []
    if kind == "choice":
        return {"variant": 0, "value": defaults(spec["variants"][0]["spec"])}
    if kind == "boolean" and not spec.get("tristate"):
        return False
    if kind == "const":
        return spec["value"]
    return None


def prepare(spec: Spec) -> Spec:
    """The spec with ``start`` (its fresh raw value) on every field and choice variant, for the
    browser: a new array item starts there, and a field still at its start is not "filled in"."""
    if spec["kind"] == "object":
        for field in spec["fields"]:
            prepare(field)
    elif spec["kind"] == "array":
        prepare(spec["item"])
    elif spec["kind"] == "choice":
        for variant in spec["variants"]:
            variant["start"] = prepare(variant["spec"])["start"]
    spec["start"] = defaults(spec)
    return spec


def coerce(spec: Spec, raw: Any, path: str = "") -> tuple[Any, Errors]:
    """The arguments a raw value makes (``MISSING`` when empty), and every problem found."""
    errors: Errors = []
    value = _coerce(spec, raw, path, errors)
    if value is MISSING and spec["required"] and spec["kind"] != "object" and not errors:
        errors.append(problem(path, "is required"))
    return value, errors


def arguments(spec: Spec, raw: Any) -> dict[str, Any]:
    """The tool's arguments from the form, or ``FormInvalid`` naming every problem."""
    value, errors = coerce(spec, raw)
    if errors:
        raise FormInvalid(errors)
    return value if isinstance(value, dict) else {}


class FormInvalid(ValueError):
    """The form's values do not make valid arguments; ``errors`` lists them by field path."""

    def __init__(self, errors: Errors) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{e['path'] or 'arguments'}: {e['message']}" for e in errors))


def _coerce(spec: Spec, raw: Any, path: str, errors: Errors) -> Any:
    kind = spec["kind"]
    if kind == "object":
        return _coerce_object(spec, raw if isinstance(raw, dict) else {}, path, errors)
    if kind == "array":
        items = raw if isinstance(raw, list) else []
        if not items:
            if not spec["required"]:
                return MISSING
            errors.extend(count_problems(spec, [], path))
            return []
        out = []
        for i, item in enumerate(items):
            value = _coerce(spec["item"], item, f"{path}[{i}]", errors)
            if value is MISSING:
                errors.append(problem(f"{path}[{i}]", "is empty"))
            out.append(value)
        errors.extend(check(spec, out, path, deep=False))
        return out
    if kind == "choice":
        raw = raw if isinstance(raw, dict) else {}
        index = raw.get("variant", 0)
        if not isinstance(index, int) or not 0 <= index < len(spec["variants"]):
            errors.append(problem(path, f"has no option {index!r}"))
            return MISSING
        variant = spec["variants"][index]["spec"]
        value = _coerce(variant, raw.get("value"), path, errors)
        key = spec.get("key")
        if key and isinstance(value, dict):
            const = next(f for f in variant["fields"] if f["name"] == key)
            value = {key: const["value"], **value}
        return value
    if kind == "const":
        return spec["value"]
    value = _scalar(spec, raw, path, errors)
    if value is not MISSING:
        errors.extend(check(spec, value, path))
    return value


def _coerce_object(spec: Spec, raw: dict[str, Any], path: str, errors: Errors) -> Any:
    if path and not spec["required"] and raw == defaults(spec):
        return MISSING  # an optional object nobody filled in: not sent, its own fields not required
    out: dict[str, Any] = {}
    chosen = chosen_action(spec, raw)
    for field in spec["fields"]:
        if not applies(field, chosen):
            continue  # another action's argument: neither sent nor required
        sub = join_path(path, field["name"])
        if field["kind"] == "const" and not field["required"]:
            continue
        known = len(errors)
        value = _coerce(field, raw.get(field["name"]), sub, errors)
        if value is MISSING:
            if field["required"] and field["kind"] not in ("object", "array") and len(errors) == known:
                errors.append(problem(sub, "is required"))
            continue
        if not field["required"] and "default" in field and value == field["default"]:
            continue  # the tool's default anyway: the call (and its code) stay short
        out[field["name"]] = value
    if not out and not spec["required"]:
        return MISSING
    return out


def _scalar(spec: Spec, raw: Any, path: str, errors: Errors) -> Any:
    kind = spec["kind"]
    if raw is None or (isinstance(raw, str) and raw.strip() == "" and kind != "string"):
        return MISSING
    if kind == "string":
        return raw if raw != "" else MISSING
    if kind in ("integer", "number"):
        return _number(kind, raw, path, errors)
    if kind == "boolean":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in ("true", "false"):
            return raw.lower() == "true"
        errors.append(problem(path, "is not true or false"))
        return MISSING
    if kind == "multi":
        return list(raw) if raw else MISSING
    if kind == "json":
        return _json(spec, raw, path, errors)
    return raw  # enum: the option's value itself


def _number(kind: str, raw: Any, path: str, errors: Errors) -> Any:
    if isinstance(raw, bool):
        errors.append(problem(path, f"is not {'an integer' if kind == 'integer' else 'a number'}"))
        return MISSING
    try:
        value = float(raw) if not isinstance(raw, int | float) else raw
    except (TypeError, ValueError):
        errors.append(problem(path, f"is not {'an integer' if kind == 'integer' else 'a number'}: {raw!r}"))
        return MISSING
    if not math.isfinite(value):
        errors.append(problem(path, "is not a finite number"))
        return MISSING
    if kind == "integer":
        if value != int(value):
            errors.append(problem(path, f"is not an integer: {raw!r}"))
            return MISSING
        return int(value)
    return int(value) if isinstance(value, float) and value.is_integer() and "." not in str(raw) else value


def _json(spec: Spec, raw: Any, path: str, errors: Errors) -> Any:
    if not isinstance(raw, str):
        return raw
    if spec.get("object") or _JSON_START.match(raw):
        try:
            value = json.loads(raw)
        except ValueError as exc:
            errors.append(problem(path, f"is not valid JSON: {exc}"))
            return MISSING
        if spec.get("object") and not isinstance(value, dict):
            errors.append(problem(path, "must be a JSON object"))
            return MISSING
        return value
    return raw  # plain text: a string


def to_raw(spec: Spec, value: Any) -> Any:
    """The raw form value that gives ``value`` back (to re-fill a form from a call)."""
    kind = spec["kind"]
    if kind == "object" and isinstance(value, dict):
        raw = {f["name"]: defaults(f) for f in spec["fields"]}
        for field in spec["fields"]:
            if field["name"] in value:
                raw[field["name"]] = to_raw(field, value[field["name"]])
        return raw
    if kind == "array" and isinstance(value, list):
        return [to_raw(spec["item"], v) for v in value]
    if kind == "choice":
        index = variant_of(spec, value)
        return {"variant": index, "value": to_raw(spec["variants"][index]["spec"], value)}
    if kind == "json" and not (isinstance(value, str) and not _JSON_START.match(value) and not spec.get("object")):
        return json.dumps(value, indent=1, ensure_ascii=False)
    if kind in ("integer", "number") and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value
