"""Answering a server's question while a cell blocks on a call: text prompts on stdin.

A cell that waits on ``lab.call(...)`` keeps the kernel from hearing widget clicks, but
``input()`` still reaches the person (Jupyter's stdin channel). So an elicitation or a
sampling request that arrives during a blocking call is asked field by field; a front end
without stdin (nbclient, some viewers) cancels it, with a hint to use ``lab.start()`` or a
handler instead.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

from .requests import PendingRequest


def in_kernel_main_thread() -> bool:
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _convert(raw: str, spec: dict[str, Any]) -> Any:
    kind = spec.get("type", "string")
    if raw == "" and "default" in spec:
        return spec["default"]
    if kind == "boolean":
        return raw.strip().lower() in ("y", "yes", "true", "1")
    if kind == "integer":
        return int(raw)
    if kind == "number":
        return float(raw)
    if kind == "array":
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw


def answer_by_prompt(request: PendingRequest) -> None:
    """Ask the person on stdin and answer ``request``; cancel it where there is no stdin."""
    try:
        print(f"The server asks ({request.kind}): {request.message}")
        schema = request.schema
        if request.kind == "sampling":
            request.respond(input("Your reply (as the model): "))
            return
        decision = input("Answer? [Y]es / [n]o (decline) / [c]ancel: ").strip().lower()
        if decision.startswith("n"):
            request.decline()
            return
        if decision.startswith("c"):
            request.cancel()
            return
        values: dict[str, Any] = {}
        required = set(schema.get("required", []))
        for name, spec in schema.get("properties", {}).items():
            hint = spec.get("enum") or spec.get("type", "string")
            default = f" [{spec['default']}]" if "default" in spec else ""
            mark = "*" if name in required else ""
            raw = input(f"  {spec.get('title', name)}{mark} ({hint}){default}: ")
            if raw == "" and name not in required and "default" not in spec:
                continue
            values[name] = _convert(raw, spec)
        request.respond(values)
    except Exception as exc:  # StdinNotImplementedError and friends
        warnings.warn(
            f"The server asked for input ({request.kind}) during a blocking call and this front end has no "
            f"stdin ({type(exc).__name__}); it was cancelled. Answer it with connect(on_elicit=...) / "
            "connect(on_sample=...), or start the call with lab.start(...) and answer lab.pending[...].",
            stacklevel=2,
        )
        request.cancel()
