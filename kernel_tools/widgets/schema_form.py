"""A tool's JSON Schema as a form spec: the plain tree the widgets' JavaScript renders.

Pure functions, no widgets, so every rule is unit-tested without a browser. A field spec is
a dict with ``kind`` and what that kind needs:

- ``string`` (``input``: text | textarea | date | datetime-local | time | email | url | password),
  ``number`` / ``integer`` (``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``,
  ``step``), ``boolean`` (``tristate`` when it may stay unset), ``enum`` (``options``:
  ``[{value, label}]``), ``multi`` (several of ``options``), ``const`` (``value``), ``json``
  (anything, typed as JSON or plain text);
- ``object`` (``fields``; ``discriminator``: the field whose value picks the others, as a
  composite tool's ``action``), ``array`` (``item``, ``minItems``, ``maxItems``), ``choice``
  (``variants``: ``[{label, spec}]`` for ``oneOf`` / ``anyOf``).

Every spec has ``name``, ``label``, ``help`` (the description), ``required``, ``nullable``,
``default`` (when the schema has one) and ``actions`` (the discriminator values the field
is used by; ``None`` = always): from a composite tool's "(used by: read, edit)" notes, or
from its ``action`` description when that lists each action's arguments, as the lab
profile's does (``read {section?, maxBytes?}; search {query, regex?}; undo``).
"""

from __future__ import annotations

import re
from typing import Any

Spec = dict[str, Any]

_USED_BY = re.compile(r"\s*\(used by: ([^)]*)\)\s*$")
# One action of an action summary, "search {query, regex?}" or "undo".
_SIGNATURE = re.compile(r"([\w.-]+)(?: \{([^{}]*)\})?")
# Names and descriptions that mean a long or multi-line text (a textarea, not a line).
_LONG_NAMES = {"content", "body", "markdown", "source", "code", "script", "text", "replacement", "prompt", "message"}
_LONG_WORDS = re.compile(r"multi-?line|full content|markdown|the body|source code|script", re.IGNORECASE)
_FORMATS = {
    "date": "date",
    "date-time": "datetime-local",
    "time": "time",
    "email": "email",
    "uri": "url",
    "url": "url",
    "iri": "url",
    "password": "password",
}
MAX_DEPTH = 8  # deeper (or recursive) schemas become a JSON field


class SchemaError(ValueError):
    """The schema cannot be made into a form (a dangling ``$ref``, say)."""


def form_spec(schema: dict[str, Any]) -> Spec:
    """The form spec of a tool's ``inputSchema`` (or any object schema)."""
    if not isinstance(schema, dict):
        raise SchemaError(f"a JSON Schema is an object, not {type(schema).__name__}")
    spec = _spec(schema, schema, name="", required=True, depth=0)
    if spec["kind"] == "object":
        spec["discriminator"] = _discriminator(spec)
    return spec


def resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``$ref`` (to ``#/$defs/…``, ``#/definitions/…``, any ``#/…``) followed."""
    seen: set[str] = set()
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise SchemaError(f"only local $ref are supported, not {ref!r}")
        if ref in seen:
            raise SchemaError(f"$ref cycle at {ref!r}")
        seen.add(ref)
        target: Any = root
        for part in ref.lstrip("#").split("/"):
            if part:
                part = part.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or part not in target:
                    raise SchemaError(f"$ref {ref!r} points at nothing")
                target = target[part]
        # Keywords beside a $ref (a description, a default) refine what it points at.
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _spec(schema: Any, root: dict[str, Any], *, name: str, required: bool, depth: int) -> Spec:
    if schema is True or schema == {} or schema is None:
        schema = {}
    schema = resolve(schema, root)
    help_text, actions = _help(schema.get("description"))
    base: Spec = {
        "name": name,
        "label": schema.get("title") or name,
        "help": help_text,
        "required": required,
        "nullable": False,
        "actions": actions,
    }
    if "default" in schema:
        base["default"] = schema["default"]
    if depth > MAX_DEPTH:
        return {**base, "kind": "json"}
    if "allOf" in schema:
        schema = _merge_all_of(schema, root)
    return _typed(schema, root, base, depth)


def _typed(schema: dict[str, Any], root: dict[str, Any], base: Spec, depth: int) -> Spec:
    if "const" in schema:
        return {**base, "kind": "const", "value": schema["const"]}
    if "enum" in schema:
        labels = schema.get("enumNames") or schema.get("x-enumNames") or []
        options = [
            {"value": v, "label": labels[i] if i < len(labels) else _label(v)} for i, v in enumerate(schema["enum"])
        ]
        nullable = None in schema["enum"]
        return {**base, "kind": "enum", "options": [o for o in options if o["value"] is not None], "nullable": nullable}
    variants = schema.get("oneOf") or schema.get("anyOf")
    if isinstance(variants, list) and variants:
        return _union(schema, variants, root, base, depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        types = [t for t in kind if t != "null"]
        base["nullable"] = len(types) < len(kind)
        if len(types) != 1:
            variants = [{**schema, "type": t, "title": t} for t in types]
            return _union(schema, variants, root, base, depth) if variants else {**base, "kind": "json"}
        kind = types[0]
    if kind is None and "properties" in schema:
        kind = "object"
    if kind == "object":
        return _object(schema, root, base, depth)
    if kind == "array":
        return _array(schema, root, base, depth)
    if kind == "string":
        return {**base, **_string(schema, base["name"])}
    if kind in ("number", "integer"):
        bounds: Spec = {
            k: schema[k] for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if k in schema
        }
        step = schema.get("multipleOf", 1 if kind == "integer" else "any")
        return {**base, "kind": kind, **bounds, "step": step}
    if kind == "boolean":
        return {**base, "kind": "boolean", "tristate": not base["required"] and "default" not in base}
    if kind == "null":
        return {**base, "kind": "const", "value": None}
    return {**base, "kind": "json"}


def _object(schema: dict[str, Any], root: dict[str, Any], base: Spec, depth: int) -> Spec:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {**base, "kind": "json", "object": True}  # free-form mapping: typed as JSON
    required = set(schema.get("required") or [])
    fields = [_spec(sub, root, name=key, required=key in required, depth=depth + 1) for key, sub in props.items()]
    _gate_by_summary(fields)
    spec = {**base, "kind": "object", "fields": fields}
    spec["discriminator"] = _discriminator(spec)
    return spec


def _gate_by_summary(fields: list[Spec]) -> None:
    """Each field's ``actions`` from an enum field whose description names, for each of its
    values, the arguments it takes; a field no action names is for every action."""
    if any(f["actions"] for f in fields):
        return  # gated by notes already
    for f in fields:
        if f["kind"] != "enum":
            continue
        takes = _summary(f["help"], {o["value"] for o in f["options"]})
        if takes is None:
            continue
        for other in fields:
            users = [action for action, names in takes.items() if other["name"] in names]
            if users and other is not f:
                other["actions"] = users
        return


def _summary(text: str, values: set[Any]) -> dict[str, set[str]] | None:
    """``read {section?, maxBytes?}; undo`` as {action: argument names}, if it names exactly
    the enum's ``values``."""
    takes: dict[str, set[str]] = {}
    for part in text.split("; "):
        match = _SIGNATURE.fullmatch(part.strip())
        if match is None:
            return None
        names = (match.group(2) or "").split(",")
        takes[match.group(1)] = {n.strip().rstrip("?") for n in names if n.strip()}
    return takes if set(takes) == values else None


def _array(schema: dict[str, Any], root: dict[str, Any], base: Spec, depth: int) -> Spec:
    items = schema.get("items", {})
    item = _spec(items, root, name="", required=True, depth=depth + 1)
    bounds: Spec = {k: schema[k] for k in ("minItems", "maxItems") if k in schema}
    if item["kind"] == "enum":
        return {**base, "kind": "multi", "options": item["options"], **bounds}
    return {**base, "kind": "array", "item": item, **bounds}


def _string(schema: dict[str, Any], name: str) -> Spec:
    fmt = schema.get("format")
    long = (
        name.lower() in _LONG_NAMES
        or bool(_LONG_WORDS.search(schema.get("description") or ""))
        or int(schema.get("maxLength", 0)) > 200
        or "contentMediaType" in schema
    )
    spec: Spec = {"kind": "string", "input": _FORMATS.get(fmt or "", "textarea" if long else "text")}
    if fmt:
        spec["format"] = fmt
    spec.update({k: schema[k] for k in ("minLength", "maxLength", "pattern") if k in schema})
    return spec


def _union(schema: dict[str, Any], variants: list[Any], root: dict[str, Any], base: Spec, depth: int) -> Spec:
    resolved = [resolve(v, root) if isinstance(v, dict) else {} for v in variants]
    non_null = [v for v in resolved if v.get("type") != "null"]
    if len(non_null) < len(resolved) and len(non_null) == 1:
        # Optional[X] (pydantic's anyOf [X, null]): X, which may stay empty.
        inner = _spec({**non_null[0], **_keep(schema)}, root, name=base["name"], required=base["required"], depth=depth)
        return {**inner, "nullable": True}
    if non_null and all("const" in v for v in non_null):
        options = [{"value": v["const"], "label": v.get("title") or _label(v["const"])} for v in non_null]
        return {**base, "kind": "enum", "options": options, "nullable": len(non_null) < len(resolved)}
    specs = [_spec(v, root, name=base["name"], required=True, depth=depth + 1) for v in non_null]
    key = (schema.get("discriminator") or {}).get("propertyName") or _common_const(specs)
    out = []
    for i, spec in enumerate(specs):
        const = _field(spec, key) if key else None
        label = spec["label"] if spec["label"] and spec["label"] != base["name"] else None
        label = label or (_label(const["value"]) if const and const["kind"] == "const" else None)
        out.append({"label": label or _type_label(spec, i), "spec": spec})
    return {**base, "kind": "choice", "variants": out, "key": key, "nullable": len(non_null) < len(resolved)}


def _keep(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: schema[k] for k in ("title", "description", "default") if k in schema}


def _merge_all_of(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    for part in schema["allOf"]:
        part = resolve(part, root)
        merged.setdefault("properties", {}).update(part.get("properties", {}))
        merged["required"] = [*merged.get("required", []), *part.get("required", [])]
        for k, v in part.items():
            merged.setdefault(k, v)
    if not merged.get("properties"):
        merged.pop("properties", None)
    return merged


def _discriminator(spec: Spec) -> str | None:
    """The enum field the others' ``actions`` refer to (a composite tool's ``action``)."""
    gated = {a for f in spec["fields"] if f["actions"] for a in f["actions"]}
    for f in spec["fields"]:
        if f["kind"] == "enum" and gated and gated <= {o["value"] for o in f["options"]}:
            return str(f["name"])
    return None


def _common_const(specs: list[Spec]) -> str | None:
    """A property every variant fixes with a ``const`` (``action``, ``type``, ``kind``…)."""
    if not specs or any(s["kind"] != "object" for s in specs):
        return None
    names = [f["name"] for f in specs[0]["fields"] if f["kind"] == "const"]
    for name in names:
        if all((_field(s, name) or {}).get("kind") == "const" for s in specs):
            return str(name)
    return None


def _field(spec: Spec, name: str | None) -> Spec | None:
    return next((f for f in spec.get("fields", []) if f["name"] == name), None)


def _help(description: Any) -> tuple[str, list[str] | None]:
    if not isinstance(description, str):
        return "", None
    match = _USED_BY.search(description)
    if not match:
        return description.strip(), None
    actions = [a.strip() for a in match.group(1).split(",") if a.strip()]
    return description[: match.start()].strip(), actions


def _label(value: Any) -> str:
    return value if isinstance(value, str) else repr(value)


def _type_label(spec: Spec, index: int) -> str:
    return str(spec["kind"]) if spec["kind"] != "object" else f"option {index + 1}"
