"""Read-back checks: after an edit the text must read as the patch says, and as nothing else.

``expected`` models each patch kind on plain data (the document as read before the edit);
``took`` reads the edited text back and compares. A surgical edit that would change any
other value (or not take) is thus caught before anything is returned.
"""

from __future__ import annotations

import copy
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ._models import JobSet, NeedsAdd, NeedsRemove, StepSet, TriggerSetFilters, WithRemove, WithSet, WorkflowSet

MISSING: Any = object()


def read(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def _get(data: Any, path: list[Any]) -> Any:
    for key in path:
        if (isinstance(data, dict) and key in data) or (
            isinstance(data, list) and isinstance(key, int) and key < len(data)
        ):
            data = data[key]
        else:
            return MISSING
    return data


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _ids(v: Any) -> list[Any]:
    return [] if v is MISSING or v is None else list(v) if isinstance(v, list) else [v]


def _on_key(data: dict[Any, Any]) -> Any:
    return True if "on" not in data and True in data else "on"


def _set(target: Any, path: list[str], value: Any) -> None:
    for key in path[:-1]:
        if target.get(key) is None:
            target[key] = {}
        target = target[key]
    target[path[-1]] = copy.deepcopy(value)


def _model(data: Any, p: Any) -> None:
    """Apply patch ``p`` to plain ``data`` in place."""
    job: Any = data["jobs"][p.jobId] if hasattr(p, "jobId") else None
    step: Any = job["steps"][p.stepIndex] if isinstance(p, StepSet | WithSet | WithRemove) else None
    if isinstance(p, WorkflowSet):
        _set(data, p.path, p.value)
    elif isinstance(p, JobSet):
        _set(job, p.path, p.value)
    elif isinstance(p, StepSet):
        _set(step, p.path, p.value)
    elif isinstance(p, WithSet):
        _set(step, ["with", p.key], p.value)
    elif isinstance(p, WithRemove):
        del step["with"][p.key]
        if not step["with"]:
            del step["with"]
    elif isinstance(p, NeedsAdd):
        needs = _ids(job.get("needs"))
        job["needs"] = needs if p.dep in needs else [*needs, p.dep]
    elif isinstance(p, NeedsRemove):
        needs = [n for n in _ids(job.get("needs")) if n != p.dep]
        if needs:
            job["needs"] = needs
        else:
            job.pop("needs", None)
    else:
        assert isinstance(p, TriggerSetFilters)
        key = _on_key(data)
        on = data.get(key)
        on = {e: None for e in _ids(on)} if not isinstance(on, dict) else on
        if on.get(p.event) is None:
            on[p.event] = {}
        on[p.event][p.filter] = list(p.value)
        data[key] = on


def _normal(data: Any) -> Any:
    """``needs: x`` and ``needs: [x]`` are the same."""
    jobs = data.get("jobs") if isinstance(data, dict) else None
    if isinstance(jobs, dict):
        for job in jobs.values():
            if isinstance(job, dict) and isinstance(job.get("needs"), str):
                job["needs"] = [job["needs"]]
    return data


def expected(data: Any, p: Any) -> Any:
    """The data the document should read as after patch ``p`` (None: cannot be modelled)."""
    out = copy.deepcopy(data)
    try:
        _model(out, p)
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    return _normal(out)


def _target_ok(p: Any, data: Any) -> bool:
    job = _get(data, ["jobs", p.jobId]) if hasattr(p, "jobId") else None
    step = _get(job, ["steps", p.stepIndex]) if isinstance(p, StepSet | WithSet | WithRemove) else None
    if isinstance(p, WorkflowSet):
        return _same(_get(data, p.path), p.value)
    if isinstance(p, JobSet):
        return _same(_get(job, p.path), p.value)
    if isinstance(p, StepSet):
        return _same(_get(step, p.path), p.value)
    if isinstance(p, WithSet):
        return _same(_get(step, ["with", p.key]), p.value)
    if isinstance(p, WithRemove):
        return _get(step, ["with", p.key]) is MISSING
    if isinstance(p, NeedsAdd | NeedsRemove):
        return (p.dep in _ids(_get(job, ["needs"]))) == isinstance(p, NeedsAdd)
    on = _get(data, [_on_key(data)]) if isinstance(data, dict) else MISSING
    return _same(_get(on, [p.event, p.filter]), p.value)


def took(p: Any, text: str, want: Any) -> Any:
    """The data ``text`` reads as if patch ``p`` took effect (and, given ``want``, nothing else
    changed); else MISSING."""
    try:
        data = read(text)
    except YAMLError:
        return MISSING
    if not _target_ok(p, data):
        return MISSING
    if want is not None and not _same(_normal(copy.deepcopy(data)), want):
        return MISSING
    return data
