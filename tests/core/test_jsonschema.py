"""core.jsonschema: flat_union (a tagged union published as one flat object) and lean (what
leaving an argument out already says, left out)."""

from __future__ import annotations

from typing import Any

from jupyter_mcp_lab.core.jsonschema import flat_union, lean


def _member(tag: Any, **props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "title": "M", "properties": {"op": tag, **props}, "required": ["op"]}


def test_the_tag_lists_every_members_value_and_properties_are_compacted() -> None:
    a = _member({"const": "a", "title": "Op"}, text={"title": "Text", "type": "string", "description": "A's"})
    b = _member(
        {"enum": ["b", "c"]},
        text={"type": "string", "description": "B's"},
        n={"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "default": None, "title": "N"},
    )
    assert flat_union([a, b], "op") == {
        "type": "object",
        "properties": {
            "op": {"type": "string", "enum": ["a", "b", "c"]},
            "text": {"type": "string", "description": "A's"},  # the first member's schema wins
            "n": {"type": "integer", "minimum": 0},
        },
        "required": ["op"],
    }


def test_shared_enums_merge_and_dropped_keys_go() -> None:
    a = _member({"const": "a"}, side={"enum": ["before", "after"], "type": "string", "description": "x"})
    b = _member(
        {"const": "b"}, side={"enum": ["after", "inside"], "type": "string"}, at={"type": "integer", "minimum": 0}
    )
    flat = flat_union([a, b], "op", drop=frozenset({"description", "minimum"}))
    assert flat["properties"]["side"] == {"enum": ["before", "after", "inside"], "type": "string"}
    assert flat["properties"]["at"] == {"type": "integer"}


def test_lean_drops_what_absence_says_and_keeps_every_constraint() -> None:
    schema = {
        "type": "object",
        "properties": {
            "flag": {"type": "boolean", "default": False},
            "on": {"type": "boolean", "default": True},  # not what absence means: kept
            "before": {"type": "string", "default": ""},
            "count": {"type": "integer", "default": 0, "minimum": 0},  # 0 is a value, not "absent"
            "cell": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}], "description": "A cell."},
            "args": {"type": "object", "additionalProperties": True},
            "strict": {"type": "object", "additionalProperties": False, "properties": {}},
            "items": {
                "type": "array",
                "items": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}], "default": None},
            },
            "either": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "integer"}, {"type": "null"}]},
            # Property names are names, never keywords: a property called "default" or
            # "additionalProperties" stays.
            "default": {"type": "string", "default": ""},
        },
        "required": ["flag"],
    }
    assert lean(schema) == {
        "type": "object",
        "properties": {
            "flag": {"type": "boolean"},
            "on": {"type": "boolean", "default": True},
            "before": {"type": "string"},
            "count": {"type": "integer", "default": 0, "minimum": 0},
            "cell": {"type": ["string", "integer"], "description": "A cell."},
            "args": {"type": "object"},
            "strict": {"type": "object", "additionalProperties": False, "properties": {}},
            "items": {"type": "array", "items": {"type": "string", "minLength": 1}},
            "either": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "integer"}]},
            "default": {"type": "string"},
        },
        "required": ["flag"],
    }
    assert lean({"anyOf": [{"type": "null"}]}) == {}
