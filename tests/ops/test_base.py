"""``@operation`` and the registry (ops/base.py): what a typed function becomes, what is refused."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from jupyter_mcp_lab.ops import PACKAGES, registry
from jupyter_mcp_lab.ops.base import Operation, OperationRegistry, operation
from jupyter_mcp_lab.ops.context import OpContext


class EchoParams(BaseModel):
    text: str


class EchoResult(BaseModel):
    text: str


@operation("demo.echo_back", read_only=True)
async def echo(ctx: OpContext, params: EchoParams) -> EchoResult:
    """Say it again."""
    return EchoResult(text=params.text)


async def test_a_typed_function_becomes_an_operation() -> None:
    assert isinstance(echo, Operation)
    assert (echo.name, echo.params, echo.result) == ("demo.echo_back", EchoParams, EchoResult)
    assert (echo.description, echo.title) == ("Say it again.", "Demo echo back")
    # Reading changes nothing, so it may be repeated: read-only implies idempotent.
    assert (echo.read_only, echo.idempotent, echo.destructive, echo.mutating) == (True, True, False, False)
    assert echo.hints() == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert await echo(None, EchoParams(text="hi")) == EchoResult(text="hi")  # type: ignore[arg-type]


def test_a_mutating_operation_keeps_its_hints() -> None:
    @operation("demo.drop", title="Drop", destructive=True)
    async def drop(ctx: OpContext, params: EchoParams) -> EchoResult:
        """Drop it."""
        return EchoResult(text="")

    assert (drop.title, drop.mutating, drop.destructive, drop.idempotent) == ("Drop", True, True, False)


def test_what_an_operation_needs_is_checked_when_it_is_made() -> None:
    with pytest.raises(TypeError, match="docstring"):

        @operation("demo.silent")
        async def silent(ctx: OpContext, params: EchoParams) -> EchoResult:
            return EchoResult(text="")

    with pytest.raises(TypeError, match="'params' argument"):

        @operation("demo.untyped")
        async def untyped(ctx: OpContext, params: dict) -> EchoResult:  # type: ignore[type-arg]
            """Untyped."""
            return EchoResult(text="")

    with pytest.raises(TypeError, match="return type"):

        @operation("demo.no_result")
        async def no_result(ctx: OpContext, params: EchoParams) -> dict:  # type: ignore[type-arg]
            """No result model."""
            return {}


def test_a_registry_holds_each_name_once() -> None:
    reg = OperationRegistry((echo,))
    assert "demo.echo_back" in reg and reg.get("demo.echo_back") is echo
    assert (reg.names(), list(reg), len(reg)) == (["demo.echo_back"], [echo], 1)
    with pytest.raises(ValueError, match="already registered"):
        reg.add(echo)
    with pytest.raises(KeyError, match=r"no operation named 'demo\.nothing'"):
        reg.get("demo.nothing")


def test_the_registry_is_the_packages_lists() -> None:
    listed = [op for package in PACKAGES for op in package.OPERATIONS]
    assert sorted(op.name for op in listed) == registry.names()
    assert all(registry.get(op.name) is op for op in listed)
