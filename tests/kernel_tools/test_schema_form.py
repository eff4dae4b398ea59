"""Schema → form spec, raw form values → arguments, validation and code, without a browser.

The lab profile's real tool schemas come from a running server (``lab_server``); the
hand-written schemas cover each JSON Schema construct the forms support, and a pydantic
model's schema covers what the SDK's servers actually send (``$defs``, ``anyOf`` with null,
discriminated unions).
"""

from __future__ import annotations

import ast
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from kernel_tools.widgets.codegen import call_code, literal
from kernel_tools.widgets.form_values import MISSING, FormInvalid, arguments, check, coerce, defaults, prepare, to_raw
from kernel_tools.widgets.schema_form import SchemaError, form_spec
from tests.kernel_tools.conftest import Lab, note


def field(spec: dict[str, Any], *names: str) -> dict[str, Any]:
    """A nested field of a spec by names."""
    for name in names:
        spec = next(f for f in spec["fields"] if f["name"] == name)
    return spec


def paths(errors: list[dict[str, str]]) -> list[str]:
    return [e["path"] for e in errors]


# --------------------------------------------------------------------------- the lab profile


@pytest.fixture(scope="module")
def lab_tools(lab_server: Lab) -> dict[str, dict[str, Any]]:
    """The lab profile's tools' input schemas, as the server lists them."""
    from kernel_tools import connect

    with connect(url=lab_server.base + "/", token=lab_server.token, quiet=True) as client:
        return {t.name: dict(t.input_schema) for t in client.tools()}


def test_every_lab_tool_makes_a_form_chosen_by_action(lab_tools: dict[str, dict[str, Any]]) -> None:
    assert {"session", "workspace", "document", "workflow", "review", "lab"} <= set(lab_tools)
    for name, schema in lab_tools.items():
        spec = form_spec(schema)
        assert spec["kind"] == "object", name
        assert spec["discriminator"] == "action" or name == "session", name
        action = field(spec, "action")
        assert action["kind"] == "enum" and action["required"], name
        # Every gated field names actions that exist.
        actions = {o["value"] for o in action["options"]}
        for f in spec["fields"]:
            assert f["actions"] is None or set(f["actions"]) <= actions, (name, f["name"], f["actions"])
        values = defaults(spec)
        assert values["action"] is None  # the person picks the action
        _, errors = coerce(spec, values)
        assert paths(errors) == ["action"] and errors[0]["message"] == "is required"


def test_document_form_keeps_only_the_chosen_actions_arguments(lab_tools: dict[str, dict[str, Any]]) -> None:
    spec = form_spec(lab_tools["document"])
    # The action's description lists what each action takes ("read {section?, …}; …; undo
    # {save?}"); an argument every action takes (path, tabId) is listed for none: always shown.
    path = field(spec, "path")
    assert path["kind"] == "string" and path["actions"] is None
    assert field(spec, "query")["actions"] == ["search"]
    assert field(spec, "save")["actions"] == ["edit", "write", "transform", "undo", "redo"]
    assert field(spec, "content")["input"] == "textarea"  # write's full content
    assert field(spec, "content")["actions"] == ["write"]
    values = {**defaults(spec), "action": "read", "path": "notes.md", "content": "typed for write", "lineStart": "2"}
    assert arguments(spec, values) == {"action": "read", "path": "notes.md", "lineStart": 2}
    values["action"] = "write"
    assert arguments(spec, values) == {"action": "write", "path": "notes.md", "content": "typed for write"}


def test_document_edits_are_an_array_of_objects_with_bounds_and_defaults(lab_tools: dict[str, dict[str, Any]]) -> None:
    spec = prepare(form_spec(lab_tools["document"]))
    edits = field(spec, "edits")
    assert edits["kind"] == "array" and edits["minItems"] == 1
    item = edits["item"]
    assert item["kind"] == "object" and field(item, "op")["required"]
    assert field(item, "match")["default"] == "error_if_multiple"
    assert field(item, "level")["minimum"] == 1 and field(item, "level")["maximum"] == 6
    assert item["start"]["match"] == "error_if_multiple"  # a new item starts with the defaults
    values = {**defaults(spec), "action": "edit", "path": "n.md", "edits": []}
    assert arguments(spec, values) == {"action": "edit", "path": "n.md"}  # optional: no edits, none sent
    values["edits"] = [{**item["start"], "op": "find_replace", "find": "a", "replace": "b", "level": "9"}]
    _, errors = coerce(spec, values)
    assert errors == [{"path": "edits[0].level", "message": "must be ≤ 6"}]
    values["edits"][0]["level"] = ""
    values["edits"][0]["match"] = "all"
    args = arguments(spec, values)
    # Defaults the person left alone stay out of the call; what they changed goes in.
    assert args == {
        "action": "edit",
        "path": "n.md",
        "edits": [{"op": "find_replace", "find": "a", "replace": "b", "match": "all"}],
    }
    values["edits"].append(item["start"])
    _, errors = coerce(spec, values)
    assert paths(errors) == ["edits[1].op"]


def test_free_form_objects_and_untyped_fields_take_json(lab_tools: dict[str, dict[str, Any]]) -> None:
    lab_spec = form_spec(lab_tools["lab"])
    args = field(lab_spec, "args")
    assert args["kind"] == "json" and args["object"]
    values = {**defaults(lab_spec), "action": "run_command", "command": "x", "args": '{"path": "a.md"}'}
    assert arguments(lab_spec, values)["args"] == {"path": "a.md"}
    values["args"] = "[1, 2]"
    assert coerce(lab_spec, values)[1] == [{"path": "args", "message": "must be a JSON object"}]
    values["args"] = "{oops"
    assert coerce(lab_spec, values)[1][0]["message"].startswith("is not valid JSON")

    review = form_spec(lab_tools["review"])
    ids = field(review, "suggestionIds")
    assert ids["kind"] == "json" and not ids.get("object")
    base = {**defaults(review), "action": "accept"}
    assert arguments(review, {**base, "suggestionIds": "s-1"})["suggestionIds"] == "s-1"  # plain text
    assert arguments(review, {**base, "suggestionIds": '["s-1", "s-2"]'})["suggestionIds"] == ["s-1", "s-2"]

    workflow = form_spec(lab_tools["workflow"])
    patches = field(workflow, "patches")
    assert patches["kind"] == "array" and patches["item"]["kind"] == "json"


def test_generated_code_runs_and_gives_the_same_answer(lab_server: Lab, lab: Any, lab_tools: dict[str, Any]) -> None:
    note(lab_server, "code.md", "# Code\n\nRun me.\n")
    spec = form_spec(lab_tools["document"])
    args = arguments(spec, {**defaults(spec), "action": "read", "path": "code.md"})
    code = call_code("document", args)
    assert code == 'lab.call("document", action="read", path="code.md")'
    result = eval(code, {"lab": lab})
    assert result["content"] == "# Code\n\nRun me.\n"
    assert dict(result) == dict(lab.call("document", args))


# --------------------------------------------------------------------------- every construct


def test_an_action_summary_gates_fields_as_used_by_notes_do() -> None:
    summary = {
        "type": "object",
        "properties": {
            "action": {
                "type": "string",
                "enum": ["read", "write", "undo"],
                "description": "read {limit?}; write {content, limit?}; undo",
            },
            "path": {"type": "string"},  # named by no action: every action's
            "limit": {"type": "integer"},
            "content": {"type": "string"},
        },
        "required": ["action"],
    }
    spec = form_spec(summary)
    assert spec["discriminator"] == "action"
    assert [(f["name"], f["actions"]) for f in spec["fields"]] == [
        ("action", None),
        ("path", None),
        ("limit", ["read", "write"]),
        ("content", ["write"]),
    ]
    assert field(spec, "action")["help"].startswith("read {limit?}")
    values = {**defaults(spec), "action": "read", "path": "a.md", "limit": "3", "content": "typed for write"}
    assert arguments(spec, values) == {"action": "read", "path": "a.md", "limit": 3}

    # A description that is not a summary of exactly the enum's values gates nothing.
    for text in ("The operation to run.", "read {limit?}; write {content}", "read {limit?}; write; undo; redo"):
        other = {
            **summary,
            "properties": {**summary["properties"], "action": {**summary["properties"]["action"], "description": text}},
        }
        spec = form_spec(other)
        assert spec["discriminator"] is None and all(f["actions"] is None for f in spec["fields"]), text


def test_strings_formats_and_long_text() -> None:
    spec = form_spec(
        {
            "type": "object",
            "properties": {
                "title": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
                "body": {"type": "string"},
                "notes": {"type": "string", "description": "Multi-line notes."},
                "when": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "mail": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "blurb": {"type": "string", "maxLength": 5000},
            },
            "required": ["title"],
        }
    )
    inputs = {f["name"]: f["input"] for f in spec["fields"]}
    assert inputs == {
        "title": "text",
        "body": "textarea",
        "notes": "textarea",
        "when": "date",
        "at": "datetime-local",
        "mail": "email",
        "site": "url",
        "blurb": "textarea",
    }
    assert coerce(spec, {"title": ""})[1] == [{"path": "title", "message": "is required"}]
    errors = coerce(spec, {"title": "ABCDEF"})[1]
    assert [e["message"] for e in errors] == ["allows at most 5 characters", "does not match ^[a-z]+$"]
    assert coerce(spec, {"title": "a"})[1] == [{"path": "title", "message": "needs at least 2 characters"}]
    assert arguments(spec, {"title": "ok", "when": "2024-05-01", "body": ""}) == {"title": "ok", "when": "2024-05-01"}


def test_numbers_integers_and_bounds() -> None:
    spec = form_spec(
        {
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1, "maximum": 10},
                "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "step": {"type": "number", "multipleOf": 0.5},
            },
            "required": ["n"],
        }
    )
    n, x, step = spec["fields"]
    assert (n["kind"], n["minimum"], n["maximum"], n["step"]) == ("integer", 1, 10, 1)
    assert (x["step"], step["step"]) == ("any", 0.5)
    assert arguments(spec, {"n": "3", "x": "0.25"}) == {"n": 3, "x": 0.25}
    assert arguments(spec, {"n": 4.0}) == {"n": 4}
    assert coerce(spec, {"n": "3.5"})[1] == [{"path": "n", "message": "is not an integer: '3.5'"}]
    assert coerce(spec, {"n": "ten"})[1] == [{"path": "n", "message": "is not an integer: 'ten'"}]
    assert coerce(spec, {"n": "0"})[1] == [{"path": "n", "message": "must be ≥ 1"}]
    assert coerce(spec, {"n": "11"})[1] == [{"path": "n", "message": "must be ≤ 10"}]
    assert coerce(spec, {"n": "1", "x": "1"})[1] == [{"path": "x", "message": "must be < 1"}]
    assert coerce(spec, {"n": "1", "x": "0"})[1] == [{"path": "x", "message": "must be > 0"}]
    assert coerce(spec, {"n": "nan"})[1] == [{"path": "n", "message": "is not a finite number"}]
    assert coerce(spec, {"n": True})[1] == [{"path": "n", "message": "is not an integer"}]


def test_booleans_enums_and_defaults_prefilled() -> None:
    spec = form_spec(
        {
            "type": "object",
            "properties": {
                "force": {"type": "boolean"},
                "save": {"type": "boolean", "default": True},
                "must": {"type": "boolean"},
                "color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"], "default": "g"},
                "size": {"oneOf": [{"const": 1, "title": "Small"}, {"const": 2, "title": "Large"}]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "maxItems": 2},
            },
            "required": ["must"],
        }
    )
    force, save, must, color, size, tags = spec["fields"]
    assert force["tristate"] and not save["tristate"] and not must["tristate"]
    assert color["options"] == [{"value": "r", "label": "Red"}, {"value": "g", "label": "Green"}]
    assert size["kind"] == "enum" and size["options"] == [
        {"value": 1, "label": "Small"},
        {"value": 2, "label": "Large"},
    ]
    assert tags["kind"] == "multi" and [o["value"] for o in tags["options"]] == ["a", "b", "c"]
    start = defaults(spec)
    assert start == {"force": None, "save": True, "must": False, "color": "g", "size": None, "tags": []}
    # Untouched defaults stay out of the call; a required boolean is always sent.
    assert arguments(spec, start) == {"must": False}
    assert arguments(spec, {**start, "force": False, "save": False, "color": "r", "size": 2, "tags": ["a"]}) == {
        "force": False,
        "save": False,
        "must": False,
        "color": "r",
        "size": 2,
        "tags": ["a"],
    }
    assert coerce(spec, {**start, "color": "blue"})[1] == [{"path": "color", "message": 'must be one of "r", "g"'}]
    assert coerce(spec, {**start, "tags": ["a", "b", "c"]})[1] == [
        {"path": "tags", "message": "allows at most 2 items"}
    ]
    assert coerce(spec, {**start, "tags": ["z"]})[1] == [{"path": "tags", "message": "has 'z', not an option"}]


def test_nested_objects_and_arrays_of_scalars_and_objects() -> None:
    spec = prepare(
        form_spec(
            {
                "type": "object",
                "properties": {
                    "owner": {
                        "type": "object",
                        "title": "Owner",
                        "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
                        "required": ["name"],
                    },
                    "labels": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "rows": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"k": {"type": "string"}, "v": {"type": "number", "default": 1}},
                            "required": ["k"],
                        },
                    },
                },
                "required": ["owner", "labels"],
            }
        )
    )
    owner, _labels, rows = spec["fields"]
    assert owner["kind"] == "object" and owner["label"] == "Owner" and field(owner, "name")["required"]
    assert rows["item"]["start"] == {"k": None, "v": "1"}
    _, errors = coerce(spec, defaults(spec))
    assert errors == [
        {"path": "owner.name", "message": "is required"},
        {"path": "labels", "message": "needs at least 1 item"},
    ]
    raw = {
        "owner": {"name": "Ann", "age": "-1"},
        "labels": ["a", ""],
        "rows": [{"k": "x", "v": "2"}, {"k": "", "v": "1"}],
    }
    assert paths(coerce(spec, raw)[1]) == ["owner.age", "labels[1]", "rows[1].k"]
    raw = {
        "owner": {"name": "Ann", "age": "40"},
        "labels": ["a", "b"],
        "rows": [{"k": "x", "v": "2.5"}, {"k": "y", "v": "1"}],
    }
    assert arguments(spec, raw) == {
        "owner": {"name": "Ann", "age": 40},
        "labels": ["a", "b"],
        "rows": [{"k": "x", "v": 2.5}, {"k": "y"}],
    }


ONE_OF = {
    "type": "object",
    "properties": {
        "target": {
            "description": "Where to send it.",
            "oneOf": [
                {
                    "type": "object",
                    "title": "By path",
                    "properties": {"by": {"const": "path"}, "path": {"type": "string"}},
                    "required": ["by", "path"],
                },
                {
                    "type": "object",
                    "properties": {"by": {"const": "tab"}, "tabId": {"type": "integer"}},
                    "required": ["by", "tabId"],
                },
            ],
        },
        "note": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    },
    "required": ["target"],
}


def test_an_optional_object_left_empty_is_not_sent_and_its_fields_not_required() -> None:
    """The lab editor tool's ``edit`` argument: an optional object with a required ``kind``.
    Untouched, it is simply not sent; once the person fills in any of it, ``kind`` is required."""
    schema = {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["get", "edit"]},
            "edit": {
                "type": "object",
                "properties": {"kind": {"type": "string", "enum": ["insert", "delete"]}, "text": {"type": "string"}},
                "required": ["kind"],
            },
        },
        "required": ["action"],
    }
    spec = form_spec(schema)
    values = {**defaults(spec), "action": "get"}
    assert arguments(spec, values) == {"action": "get"}
    values["edit"] = {**values["edit"], "text": "typed"}
    with pytest.raises(FormInvalid) as invalid:
        arguments(spec, values)
    assert [e["path"] for e in invalid.value.errors] == ["edit.kind"]
    values["edit"]["kind"] = "insert"
    assert arguments(spec, values) == {"action": "get", "edit": {"kind": "insert", "text": "typed"}}


def test_one_of_is_a_choice_between_variants_keyed_by_their_const() -> None:
    spec = prepare(form_spec(ONE_OF))
    target, note_field = spec["fields"]
    assert target["kind"] == "choice" and target["key"] == "by" and target["help"] == "Where to send it."
    assert [v["label"] for v in target["variants"]] == ["By path", "tab"]
    assert target["variants"][1]["start"] == {"by": "tab", "tabId": None}
    assert [v["label"] for v in note_field["variants"]] == ["string", "integer"]
    raw = defaults(spec)
    assert raw["target"] == {"variant": 0, "value": {"by": "path", "path": None}}
    assert coerce(spec, raw)[1] == [{"path": "target.path", "message": "is required"}]
    raw["target"] = {"variant": 1, "value": {"tabId": "7"}}
    raw["note"] = {"variant": 1, "value": "3"}
    args = arguments(spec, raw)
    assert args == {"target": {"by": "tab", "tabId": 7}, "note": 3}
    assert to_raw(spec, args)["target"] == {"variant": 1, "value": {"by": "tab", "tabId": "7"}}
    assert check(spec, {"target": {"by": "tab", "tabId": "x"}}) == [
        {"path": "target.tabId", "message": "is not an integer"}
    ]
    raw["target"] = {"variant": 5, "value": {}}
    assert coerce(spec, raw)[1] == [{"path": "target", "message": "has no option 5"}]


def test_refs_defs_all_of_and_type_lists() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "Point": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"$ref": "#/$defs/Coord"}},
                "required": ["x"],
            },
            "Coord": {"type": "integer", "minimum": 0},
            "Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}},
            "Named": {"properties": {"name": {"type": "string"}}, "required": ["name"]},
        },
        "properties": {
            "at": {"$ref": "#/$defs/Point", "description": "Where."},
            "tree": {"$ref": "#/$defs/Node"},
            "both": {"allOf": [{"$ref": "#/$defs/Named"}, {"properties": {"size": {"type": "integer"}}}]},
            "maybe": {"type": ["string", "null"]},
        },
    }
    spec = form_spec(schema)
    at, tree, both, maybe = spec["fields"]
    assert at["kind"] == "object" and at["help"] == "Where." and field(at, "y")["minimum"] == 0
    depth, node = 0, tree
    while node["kind"] == "object":  # a recursive schema ends in a JSON field, not in a loop
        node, depth = field(node, "child"), depth + 1
    assert node["kind"] == "json" and depth > 3
    assert both["kind"] == "object" and [f["name"] for f in both["fields"]] == ["name", "size"]
    assert field(both, "name")["required"]
    assert maybe["kind"] == "string" and maybe["nullable"]
    with pytest.raises(SchemaError, match="points at nothing"):
        form_spec({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}})
    with pytest.raises(SchemaError, match="only local"):
        form_spec({"type": "object", "properties": {"a": {"$ref": "https://example.org/s.json"}}})
    with pytest.raises(SchemaError, match="cycle"):
        form_spec({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"})


class Cat(BaseModel):
    kind: Literal["cat"] = "cat"
    lives: int = Field(9, ge=0, le=9)


class Dog(BaseModel):
    kind: Literal["dog"] = "dog"
    good: bool = True


class Owner(BaseModel):
    name: str = Field(description="Who")
    nickname: str | None = None
    pets: list[Annotated[Cat | Dog, Field(discriminator="kind")]] = []
    home: Cat | None = None


def test_a_pydantic_models_schema() -> None:
    spec = prepare(form_spec(Owner.model_json_schema()))
    name, nickname, pets, home = spec["fields"]
    assert name["required"] and name["help"] == "Who"
    assert nickname["kind"] == "string" and nickname["nullable"] and not nickname["required"]
    assert pets["kind"] == "array" and pets["item"]["kind"] == "choice" and pets["item"]["key"] == "kind"
    assert [v["label"] for v in pets["item"]["variants"]] == ["Cat", "Dog"]
    assert home["kind"] == "object" and home["nullable"]
    raw = defaults(spec)
    raw["name"] = "Ann"
    raw["pets"] = [{"variant": 1, "value": {"good": False}}, {"variant": 0, "value": {"lives": "3"}}]
    args = arguments(spec, raw)
    assert args == {"name": "Ann", "pets": [{"kind": "dog", "good": False}, {"kind": "cat", "lives": 3}]}
    Owner.model_validate(args)  # what the form makes is what the model accepts


def test_to_raw_gives_the_arguments_back() -> None:
    spec = form_spec(Owner.model_json_schema())
    for args in (
        {"name": "A"},
        {"name": "B", "nickname": "b", "pets": [{"kind": "cat", "lives": 2}, {"kind": "dog", "good": False}]},
        {"name": "C", "home": {"lives": 1}},
    ):
        assert arguments(spec, to_raw(spec, args)) == args


def test_invalid_forms_name_every_problem() -> None:
    spec = form_spec(ONE_OF)
    with pytest.raises(FormInvalid) as caught:
        arguments(spec, {"target": {"variant": 0, "value": {"path": ""}}, "note": {"variant": 1, "value": "x"}})
    assert str(caught.value) == "target.path: is required; note: is not an integer: 'x'"
    assert coerce(form_spec({"type": "object", "properties": {"a": {"type": "string"}}}), {})[0] == {}
    assert coerce(form_spec({"type": "string"}), "")[0] is MISSING
    with pytest.raises(SchemaError):
        form_spec([])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- code


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        'quote " and \\ backslash',
        "line\nbreak\ttab",
        "ünïcødé ✓",
        "\ud800",
        0,
        -3,
        2.5,
        1e300,
        True,
        False,
        None,
        [1, [2]],
        {"a": {"b": [None]}},
    ],
)
def test_literals_are_python_that_gives_the_value_back(value: Any) -> None:
    assert ast.literal_eval(literal(value)) == value


def test_call_code_is_valid_python_in_every_shape() -> None:
    assert (
        call_code("document", {"action": "read", "path": "notes.md"})
        == 'lab.call("document", action="read", path="notes.md")'
    )
    assert call_code("session", {}) == 'lab.call("session")'
    assert call_code("t", {"from": 1, "x": True}, var="demo") == 'demo.call("t", {"from": 1, "x": True})'
    assert call_code("t", {"progress": 1}) == 'lab.call("t", {"progress": 1})'  # Lab.call's own keyword
    assert call_code("t", {"my-arg": None}) == 'lab.call("t", {"my-arg": None})'
    long = call_code("document", {"action": "write", "path": "a/b/c.md", "content": "x" * 80, "rationale": "why"})
    assert long.startswith('lab.call(\n    "document",\n    action="write",\n') and long.endswith(")")
    for code in (long, call_code("t", {"from": 1})):
        tree = ast.parse(code, mode="eval")
        assert isinstance(tree.body, ast.Call)
    assert literal(float("inf")) == 'float("inf")'
    with pytest.raises(TypeError):
        literal(object())


def test_a_tool_whose_schema_cannot_be_a_form_takes_json() -> None:
    from mcp_types import Tool, ToolAnnotations

    from kernel_tools.widgets.inspect_data import tool_json

    broken = Tool(
        name="odd",
        description="First line.\nMore.",
        input_schema={"type": "object", "properties": {"a": {"$ref": "#/$defs/Gone"}}},
        annotations=ToolAnnotations(read_only_hint=True, destructive_hint=True),
    )
    shown = tool_json(broken)
    assert shown["summary"] == "First line." and [b["label"] for b in shown["badges"]] == ["read-only"]
    assert "points at nothing" in shown["problem"] and shown["spec"]["kind"] == "json"
    assert arguments(shown["spec"], '{"a": 1}') == {"a": 1}
