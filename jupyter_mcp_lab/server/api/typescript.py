"""The labext's TypeScript types for the API (``labext/src/api_types.ts``), from openapi.yaml.

One interface per component schema (``I`` + its name, as the labext's lint wants), the
union of the events, and per operationId the body it answers and the one it takes. The
labext's request helper only returns these types, so ``tsc`` fails where the labext reads
a field the API does not have. Written in the labext's prettier style, so the generated
file passes its lint unchanged.
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any

WIDTH = 80
HEADER = """\
// GENERATED from jupyter_mcp_lab/server/openapi.yaml by scripts/openapi: do not edit.
// The JSON bodies of the REST + events API (mcp-lab/api/); the server builds them
// from jupyter_mcp_lab/server/api/models, tests/server/api/test_schema.py fails
// while this file differs from what the script writes.
"""
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def typescript(spec: dict[str, Any]) -> str:
    """``api_types.ts``: every component schema of ``spec``, then the bodies by operationId."""
    parts = [HEADER]
    for name, schema in spec["components"]["schemas"].items():
        parts.append(doc(schema.get("description", ""), "") + declaration(name, schema))
    responses, requests = operation_bodies(spec)
    parts.append(
        doc("The JSON body each operation answers on success, by its operationId.", "")
        + interface("IApiResponses", [("", op, ts) for op, ts in responses])
    )
    parts.append(
        doc("Any JSON body the API answers on success.", "")
        + "export type ApiResponse = IApiResponses[keyof IApiResponses];\n"
    )
    parts.append(
        doc("The JSON body each operation takes, by its operationId.", "")
        + interface("IApiRequests", [("", op, ts) for op, ts in requests])
    )
    return "\n".join(parts)


def type_name(ref: str) -> str:
    """``#/components/schemas/Status`` → ``IStatus``."""
    return "I" + ref.rsplit("/", 1)[-1]


def operation_bodies(spec: dict[str, Any]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(operationId, TypeScript type) of each JSON success answer, and of each JSON request body."""
    responses: list[tuple[str, str]] = []
    requests: list[tuple[str, str]] = []
    for item in spec["paths"].values():
        for method, op in item.items():
            if method == "parameters":
                continue
            for status, response in op["responses"].items():
                schema = json_schema(response)
                if status.startswith("2") and schema is not None:
                    responses.append((op["operationId"], ts_type(schema)))
            body = json_schema(op.get("requestBody", {}))
            if body is not None:
                requests.append((op["operationId"], ts_type(body)))
    return responses, requests


def json_schema(part: dict[str, Any]) -> dict[str, Any] | None:
    schema: dict[str, Any] | None = part.get("content", {}).get("application/json", {}).get("schema")
    return schema


def declaration(name: str, schema: dict[str, Any]) -> str:
    if "oneOf" in schema:  # a union of components, e.g. the events
        return union(f"export type {name} = ", [ts_type(s) for s in schema["oneOf"]]) + "\n"
    if schema.get("type") != "object" or "properties" not in schema:
        raise ValueError(f"{name}: only objects with properties and unions of them are written, not {schema}")
    required = set(schema.get("required", []))
    members = [
        (
            sub.get("description", ""),
            (prop if IDENTIFIER.fullmatch(prop) else quote(prop)) + ("" if prop in required else "?"),
            ts_type(sub),
        )
        for prop, sub in schema["properties"].items()
    ]
    if schema.get("additionalProperties") is True:
        members.append(("", "[key: string]", "unknown"))
    return interface(type_name(name), members)


def interface(name: str, members: list[tuple[str, str, str]]) -> str:
    """``members`` are (description, key, type)."""
    lines = [f"export interface {name} {{"]
    for comment, key, ts in members:
        lines.append(doc(comment, "  ") + union(f"  {key}: ", options(ts)))
    return "\n".join(lines) + "\n}\n"


def union(head: str, choices: list[str]) -> str:
    """``head`` + the union of ``choices``, one a line when too long (as prettier breaks it)."""
    line = head + " | ".join(choices) + ";"
    if len(line) <= WIDTH or len(choices) == 1:
        return line
    pad = " " * (len(head) - len(head.lstrip()) + 2)
    return head.rstrip() + "".join(f"\n{pad}| {c}" for c in choices) + ";"


def options(ts: str) -> list[str]:
    """A union type's members (``A | B[] | (C | D)[]`` → three), outside brackets only."""
    found: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(ts):
        if ch in "(<{[":
            depth += 1
        elif ch in ")>}]":
            depth -= 1
        elif depth == 0 and ts.startswith(" | ", i):
            found.append(ts[start:i])
            start = i + 3
    return [*found, ts[start:]]


def ts_type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        text = type_name(schema["$ref"])
    elif "allOf" in schema and len(schema["allOf"]) == 1:
        text = ts_type(schema["allOf"][0])
    elif "enum" in schema:
        text = " | ".join(quote(v) if isinstance(v, str) else json.dumps(v) for v in schema["enum"])
    elif schema.get("type") in ("integer", "number"):
        text = "number"
    elif schema.get("type") in ("string", "boolean"):
        text = schema["type"]
    elif schema.get("type") == "array":
        item = ts_type(schema["items"])
        text = f"({item})[]" if " | " in item else f"{item}[]"
    elif schema.get("type") == "object" and "properties" not in schema:
        values = schema.get("additionalProperties", True)
        text = f"Record<string, {'unknown' if values is True else ts_type(values)}>"
    else:
        raise ValueError(f"no TypeScript type for {schema}: give it a component of its own")
    return f"{text} | null" if schema.get("nullable") else text


def quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def doc(text: str, indent: str) -> str:
    """A JSDoc comment (one line when it fits), or nothing."""
    text = " ".join(text.split()).replace("*/", "*\\/")
    if not text:
        return ""
    one = f"{indent}/** {text} */"
    if len(one) <= WIDTH:
        return one + "\n"
    body = textwrap.wrap(text, WIDTH - len(indent) - 3, break_long_words=False, break_on_hyphens=False)
    return f"{indent}/**\n" + "".join(f"{indent} * {line}\n" for line in body) + f"{indent} */\n"
