"""Ordered lists stay numbered after a row edit (``outline_edits``): add, delete and move.

An ordered list is a run of sibling items with numbers and the same delimiter (``.`` or
``)``) with only blank lines between them. After an edit, the list a row left and the list
it joined, when they were numbered one after another, are so again from the list's first
number as it was (CommonMark renders the first number and counts on from it: the source
then reads as the list a person sees). As in ``list_model``, a list that gives every item the
same number (``1. 1. 1.``, which renders 1, 2, 3) keeps doing so, and a list numbered
otherwise is left as it is (a row joining it takes its neighbour's number, plus one after
it). Only the numbers that change are edited. An item whose number gets a digit more or fewer
has its other lines shifted to its new content column: a paragraph after a blank line that
stayed where it was would no longer belong to the item.
"""

from __future__ import annotations

from typing import NamedTuple

from ..text import TextEdit
from .list_model import _shift
from .outline_doc import OutlineDoc
from .outline_rows import Place

NEW = "\x00new"  # stands for the joining row in a list's new order


class Numbering(NamedTuple):
    marker: str  # the joining row's marker (its number in the list it joins)
    edits: list[TextEdit]  # the other items' new numbers (and shifted lines)
    shifted: bool  # whether some item's lines were shifted (its number changed width)


def _ordered(p: Place) -> bool:
    return p.kind == "item" and p.marker[0].isdigit()


def _together(d: OutlineDoc, a: Place, b: Place) -> bool:
    """Whether sibling ``b`` follows ``a`` in the same ordered list."""
    return (
        _ordered(a)
        and _ordered(b)
        and a.marker[-1] == b.marker[-1]
        and all(d.blank(k) for k in range(a.end + 1, b.line))
    )


def run_of(d: OutlineDoc, parent: str | None, item: str) -> dict[str, Place]:
    """The items of ``item``'s ordered list with their places, in order (``item`` is an ordered item)."""
    kids = d.o.children(parent)
    index, places = d.o.index, d.o.places

    def at(k: int) -> Place:
        j = index(kids[k])
        assert j is not None
        return places[j]

    k = kids.index(item)
    a = z = k
    first = last = at(k)
    before: list[tuple[str, Place]] = []
    while a > 0 and _together(d, p := at(a - 1), first):
        a, first = a - 1, p
        before.append((kids[a], p))
    run = dict(reversed(before))
    run[item] = at(k)
    while z + 1 < len(kids) and _together(d, last, p := at(z + 1)):
        z, last = z + 1, p
        run[kids[z]] = p
    return run


def _number(p: Place) -> int:
    return int(p.marker[:-1])


def _set_number(d: OutlineDoc, p: Place, number: int) -> list[TextEdit]:
    old, new = p.marker[:-1], str(number)
    if old == new:
        return []
    at = d.idx.start_of(p.line) + len(p.indent)
    out = [TextEdit(at, at + len(old), new)]
    delta = len(new) - len(old)
    for k in range(p.line + 1, p.end + 1) if delta else ():
        line = d.line(k)
        start = d.idx.start_of(k)
        moved = _shift(line, delta)
        if moved != line:
            out.append(TextEdit(start, start + max(0, len(line) - len(moved)), " " * max(0, delta)))
    return out


def numbering(
    d: OutlineDoc,
    leaves: str | None = None,
    joins: tuple[str | None, str | None, str | None] | None = None,
    marker: str = "-",
) -> Numbering:
    """The numbers once row ``leaves`` left its list and / or a row with ``marker`` (its
    neighbour's, ``OutlineDoc.item_style``) joined the list under ``joins`` = (parent, prev,
    next): the joining row's marker and the edits renumbering the other items."""
    plans: list[tuple[dict[str, Place], list[str]]] = []  # (the list as it is, its items after the edit)
    left: dict[str, Place] | None = None
    if leaves is not None and _ordered(d.places[leaves]):
        left = run_of(d, d.o.row(leaves).parent, leaves)
    if joins is not None and marker[0].isdigit():
        parent, prev, nxt = joins
        anchor = prev if prev is not None and d.places[prev].kind == "item" else nxt
        if anchor is not None and _ordered(d.places[anchor]):
            run = left if left is not None and anchor in left else run_of(d, parent, anchor)
            if run is left:
                left = None  # it moves within its own list: one plan
            final = [i for i in run if i != leaves]
            final.insert(final.index(anchor) + 1 if anchor == prev else final.index(anchor), NEW)
            plans.append((run, final))
    if left is not None:
        plans.append((left, [i for i in left if i != leaves]))
    edits: list[TextEdit] = []
    shifted = False
    for run, final in plans:
        numbers = [_number(p) for p in run.values()]
        start = numbers[0]
        same = len(run) > 1 and len(set(numbers)) == 1
        if not same and numbers != list(range(start, start + len(run))):  # numbered otherwise: kept
            if NEW in final:
                k = final.index(NEW)
                near = run[final[k - 1]] if k > 0 else run[final[k + 1]]
                marker = f"{_number(near) + (k > 0)}{marker[-1]}"
            continue
        for n, i in enumerate(final):
            number = start if same else start + n
            if i == NEW:
                marker = f"{number}{marker[-1]}"
            else:
                mine = _set_number(d, run[i], number)
                shifted |= len(mine) > 1
                edits += mine
    return Numbering(marker, edits, shifted)
