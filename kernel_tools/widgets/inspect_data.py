"""What the widgets show, as plain JSON: tools, server info, resources, templates, prompts, log lines.

Pure functions of the SDK's objects, tested without a browser. Forms (a template's variables,
a prompt's arguments) are form specs from ``schema_form``, filled and checked the same way as
a tool's arguments.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from typing import Any

from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate
from mcp_types import (
    BlobResourceContents,
    EmbeddedResource,
    GetPromptResult,
    ImageContent,
    Prompt,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextContent,
    TextResourceContents,
    Tool,
)

from .base import first_line
from .form_values import defaults, prepare
from .schema_form import SchemaError, Spec, form_spec

TEXT_LIMIT = 200_000  # characters of a resource shown; the rest is cut, with a note
IMAGE_LIMIT = 5_000_000  # bytes of an image previewed inline


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True) if model is not None else None


def server_json(lab: Any) -> dict[str, Any]:
    """Who the server is and what it can do, where this client reaches it, and the roots offered."""
    client = lab.client
    info = client.server_info
    return {
        "name": getattr(info, "name", ""),
        "title": getattr(info, "title", None) or "",
        "version": getattr(info, "version", ""),
        "protocol": client.protocol_version or "",
        "instructions": client.instructions or "",
        "capabilities": _dump(client.server_capabilities) or {},
        "target": lab.target.label,
        "roots": [root.as_uri() for root in lab.requests.roots],
    }


def resource_json(resource: Resource) -> dict[str, Any]:
    return {
        "uri": str(resource.uri),
        "name": resource.name,
        "title": resource.title or "",
        "description": resource.description or "",
        "mimeType": resource.mime_type or "",
        "size": resource.size,
    }


def template_json(template: ResourceTemplate) -> dict[str, Any]:
    """A resource template with the form of its variables (each a required string)."""
    try:
        names = UriTemplate.parse(template.uri_template).variable_names
        problem = ""
    except InvalidUriTemplate as exc:
        names, problem = [], str(exc)
    schema = {"type": "object", "properties": {n: {"type": "string"} for n in names}, "required": list(names)}
    spec = prepare(form_spec(schema))
    return {
        "uriTemplate": template.uri_template,
        "name": template.name,
        "title": template.title or "",
        "description": template.description or "",
        "mimeType": template.mime_type or "",
        "spec": spec,
        "values": defaults(spec),
        "problem": problem,
    }


def expand(template: str, variables: dict[str, Any]) -> str:
    """The URI a template makes with these variables (RFC 6570, the SDK's implementation)."""
    return UriTemplate.parse(template).expand({k: str(v) for k, v in variables.items()})


def contents_json(result: ReadResourceResult) -> list[dict[str, Any]]:
    """A read resource's contents: text shown (long text cut), blobs as size and type, images previewed."""
    out = []
    for item in result.contents:
        entry: dict[str, Any] = {"uri": str(item.uri), "mimeType": item.mime_type or ""}
        if isinstance(item, TextResourceContents):
            entry.update(
                text=item.text[:TEXT_LIMIT], size=len(item.text.encode()), truncated=len(item.text) > TEXT_LIMIT
            )
        elif isinstance(item, BlobResourceContents):
            try:
                size = len(base64.b64decode(item.blob, validate=False))
            except (binascii.Error, ValueError):
                size = len(item.blob) * 3 // 4
            entry.update(size=size, blob=True)
            if entry["mimeType"].startswith("image/") and size <= IMAGE_LIMIT:
                entry["image"] = f"data:{entry['mimeType']};base64,{item.blob}"
        out.append(entry)
    return out


def prompt_json(prompt: Prompt) -> dict[str, Any]:
    """A prompt with the form of its arguments (strings; required ones marked)."""
    args = prompt.arguments or []
    schema = {
        "type": "object",
        "properties": {
            a.name: {"type": "string", "title": a.title or a.name, "description": a.description or ""} for a in args
        },
        "required": [a.name for a in args if a.required],
    }
    spec = prepare(form_spec(schema))
    return {
        "name": prompt.name,
        "title": prompt.title or "",
        "description": prompt.description or "",
        "spec": spec,
        "values": defaults(spec),
    }


def messages_json(result: GetPromptResult) -> list[dict[str, Any]]:
    """A prompt's messages: role and text; images as data URLs; embedded resources by URI and text."""
    out = []
    for message in result.messages:
        content = message.content
        entry: dict[str, Any] = {"role": message.role, "type": getattr(content, "type", "")}
        if isinstance(content, TextContent):
            entry["text"] = content.text
        elif isinstance(content, ImageContent):
            entry["image"] = f"data:{content.mime_type};base64,{content.data}"
        elif isinstance(content, EmbeddedResource):
            entry.update(uri=str(content.resource.uri), text=getattr(content.resource, "text", None) or "(binary)")
        else:
            entry["text"] = json.dumps(_dump(content))
        out.append(entry)
    return out


def log_line(entry: dict[str, Any]) -> dict[str, Any]:
    """One line of the log pane: when, what kind (a level or a notification), from whom, what."""
    data = entry.get("data")
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, default=str)
    return {
        "time": entry.get("time", time.time()),
        "kind": entry.get("kind", ""),
        "level": entry.get("level") or "",
        "source": entry.get("logger") or entry.get("method") or "",
        "text": text if len(text) <= 2000 else text[:2000] + "…",
    }


_BADGES = (  # annotation → (label, tone)
    ("readOnlyHint", True, "read-only", "ok"),
    ("destructiveHint", True, "destructive", "danger"),
    ("idempotentHint", True, "idempotent", "info"),
    ("openWorldHint", True, "open world", "info"),
)


def tool_json(tool: Tool) -> dict[str, Any]:
    """What the browser lists and renders of a tool: names, badges, the form spec."""
    notes = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
    badges = [{"label": label, "tone": tone} for key, want, label, tone in _BADGES if notes.get(key) is want]
    if notes.get("readOnlyHint"):
        badges = [b for b in badges if b["label"] != "destructive"]
    try:
        spec, problem = prepare(form_spec(dict(tool.input_schema))), ""
    except SchemaError as exc:
        spec, problem = _json_spec(), f"the schema cannot be made into a form ({exc}): arguments as JSON"
    return {
        "name": tool.name,
        "title": tool.title or notes.get("title") or "",
        "summary": first_line(tool.description),
        "description": tool.description or "",
        "badges": badges,
        "spec": spec,
        "problem": problem,
    }


def _json_spec() -> Spec:
    spec = {"kind": "json", "object": True, "name": "", "label": "arguments", "help": "", "required": True}
    return prepare({**spec, "nullable": False, "actions": None})
