"""Operations: typed async functions with a params model, a result model and MCP hints.

An operation is a capability: it knows nothing of MCP tools or profiles; surfaces adapt a
reference system's tool names, arguments and result shapes onto it and hold the
``Operation`` object itself. ``@operation("area.verb", read_only=True)`` turns a typed
function into one; each package under ``ops/`` lists its operations in ``OPERATIONS``, and
``ops.registry`` is built from those lists (no registration by import side effect).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar, get_type_hints

from pydantic import BaseModel

from .context import OpContext

P = TypeVar("P", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)
Handler = Callable[[OpContext, Any], Awaitable[BaseModel]]


@dataclass(frozen=True)
class Operation:
    name: str
    handler: Handler
    params: type[BaseModel]
    result: type[BaseModel]
    description: str
    title: str
    read_only: bool
    destructive: bool
    idempotent: bool
    mutating: bool

    async def __call__(self, ctx: OpContext, params: BaseModel) -> BaseModel:
        return await self.handler(ctx, params)

    def hints(self) -> dict[str, bool]:
        """The MCP tool annotations (readOnlyHint, destructiveHint, idempotentHint)."""
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": False,
        }


class OperationRegistry:
    def __init__(self, ops: tuple[Operation, ...] = ()) -> None:
        self._ops: dict[str, Operation] = {}
        for op in ops:
            self.add(op)

    def add(self, op: Operation) -> None:
        if op.name in self._ops:
            raise ValueError(f"operation {op.name!r} is already registered")
        self._ops[op.name] = op

    def get(self, name: str) -> Operation:
        try:
            return self._ops[name]
        except KeyError:
            raise KeyError(f"no operation named {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def names(self) -> list[str]:
        return sorted(self._ops)

    def __iter__(self) -> Iterator[Operation]:
        return iter(self._ops.values())

    def __len__(self) -> int:
        return len(self._ops)


def operation(
    name: str,
    *,
    title: str | None = None,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
) -> Callable[[Callable[[OpContext, P], Awaitable[R]]], Operation]:
    """Make ``async def fn(ctx: OpContext, params: XParams) -> XResult`` an operation.

    The params and result models come from the type hints, the description from the
    docstring (an operation without one is refused: agents read it).
    """

    def decorate(fn: Callable[[OpContext, P], Awaitable[R]]) -> Operation:
        hints = get_type_hints(fn)
        params_t = hints.get("params")
        result_t = hints.get("return")
        if not (isinstance(params_t, type) and issubclass(params_t, BaseModel)):
            raise TypeError(f"{name}: the 'params' argument must be a pydantic model")
        if not (isinstance(result_t, type) and issubclass(result_t, BaseModel)):
            raise TypeError(f"{name}: the return type must be a pydantic model")
        doc = inspect.getdoc(fn)
        if not doc:
            raise TypeError(f"{name}: an operation needs a docstring")
        return Operation(
            name=name,
            handler=fn,
            params=params_t,
            result=result_t,
            description=doc,
            title=title or name.replace(".", " ").replace("_", " ").capitalize(),
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent or read_only,
            mutating=not read_only,
        )

    return decorate
