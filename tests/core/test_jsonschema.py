"""core.jsonschema.flat_union: a tagged union published as one flat object."""

from __future__ import annotations

from typing import Any

from jupyter_mcp_lab.core.jsonschema import flat_union


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
