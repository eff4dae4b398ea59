"""openapi.yaml's ``components.schemas``, generated from the API's pydantic models.

The paths, parameters and prose of ``openapi.yaml`` are written by hand; everything below
its ``GENERATED`` line is this module's output, so a model and the schema clients read
cannot disagree. ``scripts/openapi`` rewrites the file (and the labext's TypeScript types,
see ``typescript.py``); a test fails while the committed files differ from the output.

pydantic writes JSON Schema 2020-12; the document is OpenAPI 3.0.3, whose schema dialect
spells a few things differently: ``nullable`` instead of a ``null`` branch, a boolean
``exclusiveMinimum``, ``enum`` instead of ``const``, and no ``title``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from pydantic.json_schema import models_json_schema
from ruamel.yaml import YAML

from . import models
from .typescript import typescript

SPEC_FILE = Path(__file__).resolve().parents[1] / "openapi.yaml"
TS_FILE = Path(__file__).resolve().parents[3] / "labext" / "src" / "api_types.ts"
REF = "#/components/schemas/{model}"
GENERATED = "  # GENERATED from jupyter_mcp_lab/server/api/models by scripts/openapi: do not edit below.\n"
WIDTH = 110
# Keys of a schema object in the order they are written (others after them, as they come).
ORDER = [
    "$ref",
    "allOf",
    "oneOf",
    "discriminator",
    "type",
    "enum",
    "nullable",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "not",
    "minItems",
    "maxItems",
    "items",
    "minProperties",
    "required",
    "properties",
    "additionalProperties",
    "description",
    "example",
]
PLAIN = re.compile(r"[A-Za-z_$][\w.$/-]*")
YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def components() -> dict[str, dict[str, Any]]:
    """Every model's schema, by component name, in ``models.COMPONENTS`` order, then the events' union."""
    inputs = [(m, "validation" if m in models.REQUESTS else "serialization") for m in models.COMPONENTS]
    _, top = models_json_schema(inputs, ref_template=REF)  # type: ignore[arg-type]
    defs = top["$defs"]
    names = [m.__name__ for m in models.COMPONENTS]
    if set(defs) != set(names):  # a nested model missing from COMPONENTS, or one written twice
        raise RuntimeError(f"models.COMPONENTS and the models' schemas differ: {sorted(set(defs) ^ set(names))}")
    schemas = {name: openapi30(defs[name]) for name in names}
    union = models.SERVER_EVENT.json_schema(ref_template=REF, mode="serialization")
    union.pop("$defs", None)
    schemas["ServerEvent"] = openapi30(
        {**union, "description": "The `data` of an event on `GET events`, by its `type` (the SSE `event:` name)."}
    )
    return schemas


def openapi30(schema: Any) -> Any:
    """A pydantic (JSON Schema 2020-12) schema in OpenAPI 3.0's dialect."""
    if isinstance(schema, list):
        return [openapi30(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title":
            continue
        if key == "properties":
            out[key] = {name: openapi30(s) for name, s in value.items()}
        elif key == "const":
            out["enum"] = [value]
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and not isinstance(value, bool):
            out["minimum" if key == "exclusiveMinimum" else "maximum"] = value
            out[key] = True
        elif key == "anyOf" and {"type": "null"} in value:
            rest = [s for s in value if s != {"type": "null"}]
            if len(rest) != 1:
                raise ValueError(f"cannot say {schema} in OpenAPI 3.0")
            inner = openapi30(rest[0])
            out.update({"allOf": [inner]} if "$ref" in inner else inner)
            out["nullable"] = True
        elif key in ("items", "not", "additionalProperties", "oneOf", "anyOf", "allOf"):
            out[key] = openapi30(value)
        else:
            out[key] = value
    return ordered(out)


def ordered(schema: dict[str, Any]) -> dict[str, Any]:
    keys = sorted(schema, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER))
    if "properties" in schema and "description" in schema:  # an object's prose before its fields
        keys.remove("description")
        keys.insert(keys.index("type") + 1 if "type" in keys else 0, "description")
    return {k: schema[k] for k in keys}


# ---------------------------------------------------------------------- YAML


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    text = str(value)
    if PLAIN.fullmatch(text) and text.lower() not in YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def block(value: Any, indent: int) -> list[str]:
    """``value`` (a mapping) as YAML lines: small collections in flow style, long prose folded."""
    pad = " " * indent
    lines: list[str] = []
    for key, item in value.items():
        head = f"{pad}{scalar(key)}:"
        if isinstance(item, dict | list) and len(head) + 1 + len(flow(item)) <= WIDTH:
            lines.append(f"{head} {flow(item)}")
        elif isinstance(item, dict):
            lines.append(head)
            lines.extend(block(item, indent + 2))
        elif isinstance(item, list) and not any(isinstance(x, dict | list) for x in item):
            lines.extend(wrapped(head, [flow(x) for x in item]))
        elif isinstance(item, list):
            lines.append(head)
            lines.extend(f"{pad}  - {flow(x)}" for x in item)
        elif isinstance(item, str) and len(head) + 1 + len(scalar(item)) > WIDTH and "\n" not in item:
            lines.append(f"{head} >-")  # folded: the line breaks below read as spaces
            lines.extend(fold(item, indent + 2))
        else:
            lines.append(f"{head} {scalar(item)}")
    return lines


def wrapped(head: str, items: list[str]) -> list[str]:
    """A long flow sequence over several lines, continued under its first item."""
    lines = [f"{head} ["]
    for i, item in enumerate(items):
        text = item + ("]" if i == len(items) - 1 else ",")
        if len(lines[-1]) + 1 + len(text) > WIDTH:
            lines.append(" " * (len(head) + 2) + text)
        else:
            lines[-1] += text if lines[-1].endswith("[") else " " + text
    return lines


def fold(text: str, indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(pad) + len(line) + 1 + len(word) > WIDTH:
            lines.append(pad + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, pad + line]


def schemas_yaml() -> str:
    """The generated tail of openapi.yaml: ``components.schemas``."""
    return "  schemas:\n" + "\n".join(
        "\n".join(block({name: schema}, 4)) + "\n" for name, schema in components().items()
    )


def render_spec(current: str) -> str:
    """``current`` (openapi.yaml's text) with its generated part written anew."""
    if current.count(GENERATED) != 1:
        raise RuntimeError(f"openapi.yaml must have the line {GENERATED.strip()!r} once, after its responses")
    return current[: current.index(GENERATED)] + GENERATED + schemas_yaml()


# ---------------------------------------------------------------------- the files


def outputs() -> dict[Path, str]:
    """What ``scripts/openapi`` writes: openapi.yaml, and the labext's types from it (in a checkout)."""
    spec_text = render_spec(SPEC_FILE.read_text(encoding="utf-8"))
    written = {SPEC_FILE: spec_text}
    if TS_FILE.parent.is_dir():  # a source checkout, not an installed wheel
        written[TS_FILE] = typescript(YAML(typ="safe", pure=True).load(spec_text))
    return written


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: scripts/openapi [--check]", file=sys.stderr)
        return 2
    stale = [path for path, text in outputs().items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        if check:
            print(f"{path} is not what scripts/openapi writes: run it", file=sys.stderr)
        else:
            path.write_text(outputs()[path], encoding="utf-8")
            print(f"wrote {path}")
    return 1 if check and stale else 0
