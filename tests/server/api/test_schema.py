"""The REST API's models, openapi.yaml and the labext's TypeScript types agree.

openapi.yaml's schemas and labext/src/api_types.ts are generated (``scripts/openapi``) from
the response models the handlers answer with: these tests fail while a committed file is
not what the script writes, while a route answers another model than the one its path
documents, and while an event the review service publishes does not match its model.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML

from jupyter_mcp_lab.server.api import ROUTES, models
from jupyter_mcp_lab.server.api.base import ApiHandler
from jupyter_mcp_lab.server.api.schema import SPEC_FILE, TS_FILE, openapi30, render_spec
from jupyter_mcp_lab.server.api.typescript import options, typescript, union

from ...conftest import LabServer
from .conftest import Api, suggest_replace

SPEC_TEXT = SPEC_FILE.read_text(encoding="utf-8")
SPEC: dict[str, Any] = YAML(typ="safe", pure=True).load(SPEC_TEXT)
STALE = "is not what scripts/openapi writes from the models: run scripts/openapi and commit the result"


def test_openapi_yaml_is_generated_from_the_models() -> None:
    assert render_spec(SPEC_TEXT) == SPEC_TEXT, f"{SPEC_FILE} {STALE}"


@pytest.mark.skipif(not TS_FILE.parent.is_dir(), reason="not a source checkout")
def test_labext_types_are_generated_from_openapi_yaml() -> None:
    assert typescript(SPEC) == TS_FILE.read_text(encoding="utf-8"), f"{TS_FILE} {STALE}"


def ref_name(schema: dict[str, Any]) -> str:
    assert set(schema) == {"$ref"}, f"an inline schema: give it a model of its own ({schema})"
    return str(schema["$ref"]).removeprefix("#/components/schemas/")


def handler_of(path: str) -> type[ApiHandler]:
    concrete = path.lstrip("/").replace("{id}", "an-id")
    return next(h for pattern, h in ROUTES if re.fullmatch(pattern, concrete))


def documented() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, op)
        for path, item in SPEC["paths"].items()
        for method, op in item.items()
        if method != "parameters"
    ]


def test_each_route_answers_the_model_its_path_documents() -> None:
    answered: set[tuple[type[ApiHandler], str]] = set()
    for method, path, op in documented():
        handler = handler_of(path)
        [response] = [r for s, r in op["responses"].items() if s.startswith("2")]
        content = response["content"]
        if "application/json" not in content:  # the event stream, the YAML document
            continue
        model = handler.responses.get(method)
        assert model is not None, f"{handler.__name__} names no model for {method} {path}"
        assert ref_name(content["application/json"]["schema"]) == model.__name__, (method, path)
        answered.add((handler, method))
        body = op.get("requestBody")
        if body is not None:
            assert ref_name(body["content"]["application/json"]["schema"]) in {m.__name__ for m in models.REQUESTS}
    declared = {(h, m) for _, h in ROUTES for m in h.responses}
    assert declared == answered, "a handler names a model for a method openapi.yaml does not document"


def test_every_component_is_a_model_and_every_model_a_component() -> None:
    names = {m.__name__ for m in models.COMPONENTS} | {"ServerEvent"}
    assert set(SPEC["components"]["schemas"]) == names
    for model in models.COMPONENTS:
        schema = SPEC["components"]["schemas"][model.__name__]
        fields = {f.alias or name for name, f in model.model_fields.items()}
        assert set(schema["properties"]) == fields, model
        required = {f.alias or name for name, f in model.model_fields.items() if f.is_required()}
        assert set(schema.get("required", [])) == required, model


def test_json_schema_becomes_openapi_3_0() -> None:
    assert openapi30({"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}], "title": "X"}) == {
        "type": "string",
        "nullable": True,
        "minLength": 1,
    }
    assert openapi30({"anyOf": [{"$ref": "#/a"}, {"type": "null"}]}) == {"allOf": [{"$ref": "#/a"}], "nullable": True}
    assert openapi30({"type": "number", "exclusiveMinimum": 0}) == {
        "type": "number",
        "minimum": 0,
        "exclusiveMinimum": True,
    }
    assert openapi30({"const": "x", "type": "string"}) == {"type": "string", "enum": ["x"]}
    # A property may be called "title": only schema keywords named so are dropped.
    assert openapi30({"properties": {"title": {"type": "string", "title": "Title"}}}) == {
        "properties": {"title": {"type": "string"}}
    }
    with pytest.raises(ValueError):
        openapi30({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})


def test_typescript_unions_are_broken_as_prettier_does() -> None:
    assert options("A | B[] | (C | D)[] | Record<string, E | F>") == ["A", "B[]", "(C | D)[]", "Record<string, E | F>"]
    assert union("  kind: ", ["'a'", "'b'"]) == "  kind: 'a' | 'b';"
    long = [f"'{c * 20}'" for c in "abcd"]
    assert union("  kind: ", long) == "  kind:\n" + "\n".join(f"    | {o}" for o in long) + ";"


def test_every_model_rejects_fields_it_does_not_document() -> None:
    for model in models.COMPONENTS:
        if model.model_config.get("extra") == "allow":  # the error envelope, the OpenAPI document
            continue
        with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
            model.model_validate({"undocumented": 1})


async def test_every_published_event_matches_its_model(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    """Suggestions created, accepted, rejected, conflicting; checkpoints and documents;
    grants created and revoked; tool calls: each as the review service publishes it."""
    events = mcp_lab.extension.services.reviews.events
    queue = events.subscribe()
    try:
        async with agent() as tools:
            [alpha] = await suggest_replace(tools, "alpha", "ALPHA")
            [beta] = await suggest_replace(tools, "beta", "BETA")
            [gamma] = await suggest_replace(tools, "gamma", "GAMMA")
        await api.ok("POST", f"suggestions/{alpha}/accept")
        [cp] = (await api.ok("GET", "checkpoints"))["checkpoints"]
        await api.ok("POST", f"checkpoints/{cp['id']}/revert")
        await api.ok("POST", f"suggestions/{beta}/reject")
        (root / "notes.md").write_text("# Notes\n\nsomething else\n", encoding="utf-8")
        await api.ok("POST", f"suggestions/{gamma}/accept")  # its text is gone: a conflict
        grant = {"scope": "notes/", "agent": "someone", "agentKind": "client", "minutes": 5}
        created = await api.ok("POST", "grants", grant, expect=201)
        await api.ok("DELETE", f"grants/{created['id']}")
        published: list[dict[str, Any]] = []
        while not queue.empty():
            published.append(queue.get_nowait())
    finally:
        events.unsubscribe(queue)
    seen = set()
    for event in published:
        checked = models.SERVER_EVENT.validate_python(event)
        assert isinstance(checked, BaseModel)
        assert models.SERVER_EVENT.dump_python(checked, mode="json") == event
        seen.add((event["type"], event.get("action")))
    assert seen >= {
        ("suggestion", "created"),
        ("suggestion", "accepted"),
        ("suggestion", "rejected"),
        ("suggestion", "conflict"),
        ("checkpoint", "created"),
        ("document", None),
        ("grant", "created"),
        ("grant", "revoked"),
        ("activity", None),
    }, seen
