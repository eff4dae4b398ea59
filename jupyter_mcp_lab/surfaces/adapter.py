"""Adapters: how a surface maps a reference system's tool onto capability operations.

A reference tool often wants another result shape, other argument names or its own error
vocabulary than the operation that does the work. An adapter is a typed function in the
surface's package, ``async def tool(ctx, params: ToolParams) -> ToolResult``, that builds
the operation's params, awaits the operations it ``uses`` and reshapes their results. It
holds no document logic: that belongs in an operation (or ``core``), where every profile,
``lab`` first, can reach it. A ``FlatTool`` or ``CompositeTool`` takes an adapter where it
takes an operation.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, get_type_hints

from pydantic import BaseModel

from ..ops.base import Operation
from ..ops.context import OpContext

P = TypeVar("P", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True)
class Adapter(Operation):
    """A surface's mapping onto operations; published and dispatched like one."""

    uses: tuple[Operation, ...] = ()


def adapter(
    *uses: Operation,
    name: str | None = None,
    title: str | None = None,
    read_only: bool | None = None,
    destructive: bool | None = None,
    idempotent: bool | None = None,
) -> Callable[[Callable[[OpContext, P], Awaitable[R]]], Adapter]:
    """Make ``fn`` an adapter over the operations it ``uses``. Its hints follow them (a
    read-only tool only if every operation is) unless given; its description is the
    docstring, or the first operation's."""
    if not uses:
        raise TypeError("an adapter uses at least one operation")

    def decorate(fn: Callable[[OpContext, P], Awaitable[R]]) -> Adapter:
        hints = get_type_hints(fn)
        params_t: Any = hints.get("params")
        result_t: Any = hints.get("return")
        if not (isinstance(params_t, type) and issubclass(params_t, BaseModel)):
            raise TypeError(f"{fn.__name__}: the 'params' argument must be a pydantic model")
        if not (isinstance(result_t, type) and issubclass(result_t, BaseModel)):
            raise TypeError(f"{fn.__name__}: the return type must be a pydantic model")
        ro = all(u.read_only for u in uses) if read_only is None else read_only
        label = name or f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"
        return Adapter(
            name=label,
            handler=fn,
            params=params_t,
            result=result_t,
            description=inspect.getdoc(fn) or uses[0].description,
            title=title or uses[0].title,
            read_only=ro,
            destructive=any(u.destructive for u in uses) if destructive is None else destructive,
            idempotent=(all(u.idempotent for u in uses) if idempotent is None else idempotent) or ro,
            mutating=not ro,
            uses=uses,
        )

    return decorate
