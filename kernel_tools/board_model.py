"""The review board's data, as pure functions: API answers → the tables and HTML it shows."""

from __future__ import annotations

import html
import time
from typing import Any

import pandas as pd

from .widgets.review_model import age_text, card

ALL = "(all)"
COLUMNS = ["id", "Document", "Lines", "Agent", "Change", "Rationale", "Status", "Age"]


def change_html(diff: list[list[str]], limit: int = 120) -> str:
    """A card's word diff as short HTML (deletions struck, insertions underlined)."""
    out, shown = [], 0
    for op, text in diff:
        piece = text.replace("\n", "⏎ ")[: max(limit - shown, 0)]
        shown += len(piece)
        escaped = html.escape(piece)
        if op == "-":
            out.append(f'<del style="background:rgba(248,81,73,.22)">{escaped}</del>')
        elif op == "+":
            out.append(f'<ins style="background:rgba(46,160,67,.25);text-decoration:none">{escaped}</ins>')
        else:
            out.append(escaped)
        if shown >= limit:
            out.append("…")
            break
    return "".join(out)


def part_html(c: dict[str, Any]) -> str:
    """What happens to a notebook cell or an outline row, in words, before its diff ("" for text)."""
    part = c.get("part")
    return f"<b>{html.escape('; '.join(part['changes']))}</b> " if part else ""


def table(suggestions: list[dict[str, Any]], at: float | None = None) -> pd.DataFrame:
    """One row per suggestion (``id`` hidden), in document order."""
    at = time.time() if at is None else at
    rows = []
    for s in suggestions:
        c = card(s)
        rows.append(
            {
                "id": c["id"],
                "Document": c["path"],
                "Lines": c["lines"],
                "Agent": c["author"],
                "Change": part_html(c) + change_html(c["diff"]),
                "Rationale": c["rationale"],
                "Status": c["status"],
                "Age": age_text(max(at - c["created"], 0)),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def filtered(frame: pd.DataFrame, agent: str = ALL, document: str = ALL) -> pd.DataFrame:
    """The rows of one agent and one document (``ALL`` for any)."""
    keep = pd.Series(True, index=frame.index)
    if agent != ALL:
        keep &= frame["Agent"] == agent
    if document != ALL:
        keep &= frame["Document"] == document
    return frame[keep].reset_index(drop=True)


def totals(counts: dict[str, dict[str, int]]) -> str:
    """``12 pending in 3 documents · 4 accepted · 1 rejected · 1 conflict`` from the API's counts."""
    by_status: dict[str, int] = {}
    for per_doc in counts.values():
        for status, n in per_doc.items():
            by_status[status] = by_status.get(status, 0) + n
    docs = sum(1 for per_doc in counts.values() if per_doc.get("pending"))
    parts = [f"**{by_status.get('pending', 0)} pending** in {docs} document{'' if docs == 1 else 's'}"]
    parts += [f"{by_status[s]} {s}" for s in ("accepted", "rejected", "conflict") if by_status.get(s)]
    return " · ".join(parts)


def activity_table(entries: list[dict[str, Any]]) -> pd.DataFrame:
    """The agents' tool calls, newest first."""
    rows = [
        {
            "Time": time.strftime("%H:%M:%S", time.localtime(e.get("time", 0))),
            "Agent": e.get("client", ""),
            "Tool": e.get("tool", ""),
            "Arguments": e.get("arguments", ""),
            "Status": e.get("status", ""),
            "ms": round(float(e.get("durationMs", 0)), 1),
        }
        for e in reversed(entries)
    ]
    return pd.DataFrame(rows, columns=["Time", "Agent", "Tool", "Arguments", "Status", "ms"])


def diff_html(detail: dict[str, Any]) -> str:
    """A suggestion's header and unified diff (``GET suggestions/{id}``) as HTML."""
    c = card(detail)
    lines = []
    for line in (detail.get("diff") or "").splitlines():
        color = "rgba(46,160,67,.22)" if line.startswith("+") else "rgba(248,81,73,.2)" if line.startswith("-") else ""
        if line.startswith(("+++", "---", "@@")):
            color = ""
        style = f"background:{color};white-space:pre" if color else "white-space:pre"
        lines.append(f'<div style="{style}">{html.escape(line) or " "}</div>')
    reason = f"<p><b>Conflict:</b> {html.escape(c['reason'])}</p>" if c.get("reason") else ""
    return (
        f"<div><b>{html.escape(c['author'])}</b> on <code>{html.escape(c['path'])}</code>, {c['lines']} "
        f"({c['status']})<p>{html.escape(c['rationale'])}</p>{reason}"
        f"<p>{part_html(c)}{change_html(c['diff'], limit=2000)}</p>"
        f'<div style="font-family:monospace;font-size:12px">{"".join(lines)}</div></div>'
    )
