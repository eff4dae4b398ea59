"""``apply_patches``: IRPatch semantics on top of the surgical editor, all or nothing."""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.error import YAMLError

from ..errors import DomainError
from ._edit import JOB_ORDER, STEP_ORDER, TOP_ORDER, Doc, PatchError
from ._models import (
    JobSet,
    NeedsAdd,
    NeedsRemove,
    StepSet,
    TriggerSetFilters,
    WithRemove,
    WithSet,
    WorkflowSet,
    parse_patches,
)
from ._render import FlowList
from ._tree import Alias, Mapping, Node, Scalar, Sequence, parse_error
from ._verify import MISSING, expected, read, took

_SIMPLE_ITEM = re.compile(r"[\w.-]+|\"[^\"\\]*\"|'[^']*'")


def apply_patches(text: str, patches: list[dict[str, Any]]) -> str:
    """Apply IRPatch objects to GitHub Actions workflow YAML and return the new text.

    Every patch is validated first (shape, then against the document as the previous patches
    left it); on any error nothing is applied: ``DomainError("INVALID_PATCH")`` names the
    patch index and field. Text that is not one YAML mapping: ``NOT_WORKFLOW``. Each edit
    replaces only the span of the value it changes, so every other byte of the file
    (comments, blank lines, quoting, anchors, merge keys, key order, CRLF line endings, a
    missing final newline) stays as it was. The result is read back and compared with what
    the patch means (for a document without aliases: every value in it); an edit that cannot
    be made exactly raises ``INTERNAL`` rather than return a wrong document.
    """
    parsed = parse_patches(patches)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    doc: Doc | None = Doc(body)
    try:  # what the parser lets through but a reader rejects (undefined aliases, bad merges, tags)
        data = read(body)
    except YAMLError as exc:
        line, _, problem = parse_error(exc)
        raise DomainError("NOT_WORKFLOW", f"Not a readable workflow (line {line}): {problem}", line=line) from None
    for i, patch in enumerate(parsed):
        doc = doc or Doc(body)
        # Without aliases the whole document must read back as the patch says; with them (an
        # edit at an anchor shows through every alias and merge) the patched value must.
        want = None if doc.tree.aliased else expected(data, patch)
        # Literal blocks (run: |) and the replaced value's quoting read best; where they cannot
        # carry the value exactly (say, a trailing newline at the end of a file that has none),
        # fall back to flow scalars, then to double quotes everywhere.
        for mode in ("pretty", "flat", "quoted"):
            doc.render.mode = mode
            try:
                new = _apply_one(doc, patch)
            except PatchError as exc:
                raise DomainError(
                    "INVALID_PATCH", f"patch {i} ({patch.kind}): {exc.message}", index=i, field=exc.field
                ) from None
            got = took(patch, new, want)
            if got is not MISSING:
                break
        else:
            raise DomainError("INTERNAL", f"patch {i} ({patch.kind}) could not be applied exactly; nothing was applied")
        body, doc, data = new, None, got
    return bom + body


# -- lookups ----------------------------------------------------------------------------------
def _jobs(doc: Doc) -> Mapping:
    pair = doc.root.get("jobs")
    if pair is None or not isinstance(pair[1], Mapping):
        raise PatchError("jobId", "the workflow has no jobs: mapping")
    return pair[1]


def _job(doc: Doc, job_id: str) -> Mapping:
    jobs = _jobs(doc)
    pair = jobs.get(job_id)
    if pair is None:
        names = ", ".join(k.value for k, _ in jobs.pairs if isinstance(k, Scalar))
        raise PatchError("jobId", f"unknown jobId '{job_id}' (jobs: {names})")
    job = pair[1]
    if isinstance(job, Alias):
        raise PatchError("jobId", f"job '{job_id}' is an alias (*{job.name}); editing it would change every use")
    if not isinstance(job, Mapping):
        raise PatchError("jobId", f"job '{job_id}' is not a mapping")
    return job


def _step(doc: Doc, job_id: str, index: int) -> Mapping:
    job = _job(doc, job_id)
    pair = job.get("steps")
    if pair is None:
        inherited = any(src.get("steps") for src in doc.tree.merged_sources(job))
        why = "come from a merge key (<<); set them with job.set" if inherited else "are missing"
        raise PatchError("stepIndex", f"the steps of job '{job_id}' {why}")
    steps = pair[1]
    if not isinstance(steps, Sequence):
        raise PatchError("stepIndex", f"steps of job '{job_id}' is not a list")
    if index >= len(steps.items):
        raise PatchError("stepIndex", f"stepIndex {index} is out of range: job '{job_id}' has {len(steps.items)} steps")
    step = steps.items[index]
    if not isinstance(step, Mapping):
        raise PatchError("stepIndex", f"step {index} of job '{job_id}' is not a mapping (an alias or a scalar)")
    return step


# -- kinds --------------------------------------------------------------------------------------
def _apply_one(doc: Doc, p: Any) -> str:
    if isinstance(p, WorkflowSet):
        return doc.set_path(doc.root, p.path, p.value, TOP_ORDER)
    if isinstance(p, JobSet):
        return doc.set_path(_job(doc, p.jobId), p.path, p.value, JOB_ORDER)
    if isinstance(p, StepSet):
        return doc.set_path(_step(doc, p.jobId, p.stepIndex), p.path, p.value, STEP_ORDER)
    if isinstance(p, WithSet):
        try:
            return doc.set_path(_step(doc, p.jobId, p.stepIndex), ["with", p.key], p.value, STEP_ORDER)
        except PatchError as exc:
            raise PatchError("key" if exc.field == "path" else exc.field, exc.message) from None
    if isinstance(p, WithRemove):
        return _with_remove(doc, p)
    if isinstance(p, NeedsAdd):
        return _needs_add(doc, p.jobId, p.dep)
    if isinstance(p, NeedsRemove):
        return _needs_remove(doc, p.jobId, p.dep)
    assert isinstance(p, TriggerSetFilters)
    return _set_filters(doc, p.event, p.filter, p.value)


def _with_remove(doc: Doc, p: WithRemove) -> str:
    step = _step(doc, p.jobId, p.stepIndex)
    pair = step.get("with")
    where = f"step {p.stepIndex} of job '{p.jobId}'"
    if pair is None or not isinstance(pair[1], Mapping):
        raise PatchError("key", f"{where} has no with: mapping")
    block = pair[1]
    index = block.index(p.key)
    if index is None:
        names = ", ".join(k.value for k, _ in block.pairs if isinstance(k, Scalar))
        raise PatchError("key", f"{where} has no with.{p.key} (with: {names})")
    if _inherited(doc, block, p.key) is not None:
        raise PatchError("key", f"with.{p.key} of {where} is also merged in through <<; set it instead")
    if len(block.pairs) == 1:  # an empty with: is an error for GitHub: drop the block
        return doc.remove_pair(step, step.index("with") or 0)
    return doc.remove_pair(block, index)


def _check_dep(doc: Doc, job_id: str, dep: str) -> None:
    if dep == job_id:
        raise PatchError("needs", f"job '{job_id}' cannot need itself")
    if _jobs(doc).get(dep) is None:
        raise PatchError("needs", f"unknown job '{dep}' in needs")


def _inherited(doc: Doc, mapping: Mapping, key: str) -> Node | None:
    """The value ``key`` takes through the merge keys (<<) of ``mapping``, if any."""
    for source in doc.tree.merged_sources(mapping):
        pair = source.get(key)
        if pair is not None:
            return pair[1]
    return None


def _ids(node: Node | None) -> list[str]:
    items = node.items if isinstance(node, Sequence) else [node] if node is not None else []
    return [i.value for i in items if isinstance(i, Scalar) and not i.empty]


def _needs_add(doc: Doc, job_id: str, dep: str) -> str:
    job = _job(doc, job_id)
    _check_dep(doc, job_id, dep)
    pair = job.get("needs")
    if pair is None:
        inherited = _ids(_inherited(doc, job, "needs"))
        if dep in inherited:
            return doc.text
        value: Any = FlowList([*inherited, dep]) if inherited else dep  # an own needs: replaces the merged one
        return doc.add_key(job, "needs", value, JOB_ORDER)
    k, v = pair
    if isinstance(v, Scalar) and v.empty:
        return doc.set_value(k, v, dep, job.flow)
    if isinstance(v, Scalar) and not v.block:
        if v.value == dep:
            return doc.text
        old = doc.scalar_text(v)
        if not _SIMPLE_ITEM.fullmatch(old):
            old = doc.render.inline(v.value, flow=True) or old
        new = doc.render.inline(dep, v.style if v.style in ('"', "'") else None, flow=True)
        return doc.text[: v.body] + f"[{old}, {new}]" + doc.text[v.end :]
    if isinstance(v, Sequence):
        if dep in _ids(v):
            return doc.text
        return doc.seq_add(v, dep)
    raise PatchError("jobId", f"needs: of job '{job_id}' is neither a job id nor a list of job ids")


def _needs_remove(doc: Doc, job_id: str, dep: str) -> str:
    job = _job(doc, job_id)
    pair = job.get("needs")
    inherited = _inherited(doc, job, "needs")
    current = _ids(pair[1] if pair else inherited)
    if dep not in current:
        have = ", ".join(current) or "nothing"
        raise PatchError("needs", f"job '{job_id}' does not need '{dep}' (needs: {have})")
    if pair is None:  # merged: an own needs: overrides it
        return doc.add_key(job, "needs", FlowList([n for n in current if n != dep]), JOB_ORDER)
    k, v = pair
    if len(current) == 1:
        if inherited is not None:
            return doc.set_value(k, v, FlowList([]), job.flow)
        return doc.remove_pair(job, job.index("needs") or 0)
    assert isinstance(v, Sequence)
    return doc.seq_remove(v, next(n for n, i in enumerate(v.items) if isinstance(i, Scalar) and i.value == dep))


def _filter_template(on: Mapping) -> tuple[Node, Sequence] | None:
    """An existing filter list under on: (key, list) whose layout new filter lists copy."""
    for _, config in on.pairs:
        if isinstance(config, Mapping):
            for k, v in config.pairs:
                if isinstance(v, Sequence) and all(isinstance(i, Scalar) for i in v.items):
                    return k, v
    return None


def _set_filters(doc: Doc, event: str, name: str, values: list[str]) -> str:
    root = doc.root
    pair = root.get("on")
    template = _filter_template(pair[1]) if pair and isinstance(pair[1], Mapping) else None
    style = None
    if template:
        style = next((i.style for i in template[1].items if isinstance(i, Scalar) and i.style in ('"', "'")), None)
    flow_values = FlowList(values, style)
    if pair is None:
        return doc.add_key(root, "on", {event: {name: flow_values}}, TOP_ORDER)
    k, v = pair
    if isinstance(v, Sequence) or (isinstance(v, Scalar) and not v.empty):  # on: push / on: [push, pull_request]
        items = v.items if isinstance(v, Sequence) else [v]
        if (isinstance(v, Scalar) and v.block) or not all(isinstance(i, Scalar) for i in items):
            raise PatchError("event", "on: is neither an event name, a list of events nor a mapping")
        events: dict[str, Any] = {i.value: None for i in items if isinstance(i, Scalar)}
        events[event] = {name: flow_values}
        return doc.set_value(k, v, events, root.flow, rest=doc.render.rest(events, doc.src.col(k.start)))
    if isinstance(v, Scalar):  # on: with nothing after it
        return doc.set_value(k, v, {event: {name: flow_values}}, root.flow)
    if not isinstance(v, Mapping):
        raise PatchError("event", "on: is an alias; edit the anchored trigger instead")
    ep = v.get(event)
    if ep is None:
        return doc.add_key(v, event, {name: flow_values})
    ek, config = ep
    if isinstance(config, Scalar) and config.empty:
        return doc.set_value(ek, config, {name: flow_values}, v.flow)
    if not isinstance(config, Mapping):
        raise PatchError("event", f"on.{event} is not a mapping of filters")
    fp = config.get(name)
    kcol = doc.src.col(config.pairs[0][0].start) if config.pairs and not config.flow else 0
    like = fp[1] if fp and isinstance(fp[1], Sequence) else template[1] if template else None
    rest = None
    if like is not None and not config.flow:
        dash = doc.src.col(like.body) if fp and like is fp[1] else kcol + _dash_offset(doc, template)
        rest = doc.seq_rest(like, values, dash)
    if rest is None and not config.flow:
        rest = doc.render.rest(flow_values, kcol)
    if fp is None:
        return doc.add_key(config, name, flow_values, rest=rest)
    return doc.set_value(fp[0], fp[1], flow_values, config.flow, rest=rest)


def _dash_offset(doc: Doc, template: tuple[Node, Sequence] | None) -> int:
    if template is None:
        return doc.render.indent.offset
    return doc.src.col(template[1].body) - doc.src.col(template[0].start)
