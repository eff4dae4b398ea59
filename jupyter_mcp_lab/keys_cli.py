"""Command line for agent keys: ``keys add|list|revoke`` on the server's machine, and the
key ``config`` issues through a running server.

``keys`` works on the data directory's key store directly, with or without a server
running (a running one notices new and revoked keys at its next request, and ends a
revoked key's sessions within a second). ``config`` asks the running server (with the
person's Jupyter token, from Jupyter's runtime files or ``--token``) for a key named
after the client, so the key lands in whatever data directory that server uses.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .core.paths import default_data_dir


def data_dir(args: argparse.Namespace) -> Path:
    return Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()


def workspace_root(args: argparse.Namespace, servers: list[dict[str, Any]]) -> Path:
    """``--root``, else the root of the running server that holds the current directory, else it."""
    if args.root:
        root = Path(args.root).expanduser().resolve()
        if not root.is_dir():
            sys.exit(f"jupyter-mcp-lab: --root {args.root!r} is not a directory")
        return root
    cwd = Path.cwd().resolve()
    for info in reversed(servers):
        root = Path(info.get("root_dir") or info.get("notebook_dir") or "/").resolve()
        if cwd == root or root in cwd.parents:
            return root
    return cwd


def when(stamp: float | None, never: str = "never") -> str:
    if stamp is None:
        return never
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _store(args: argparse.Namespace, servers: list[dict[str, Any]]) -> Any:
    from .core.keys import KeyStore

    root = workspace_root(args, servers)
    return KeyStore.in_data_dir(data_dir(args), root)


def cmd_add(args: argparse.Namespace, servers: list[dict[str, Any]]) -> None:
    from .core.errors import DomainError
    from .core.keys import check_profiles, parse_expiry
    from .surfaces import PROFILES
    from .surfaces.caller import LOCAL_USER

    try:
        expires = parse_expiry(args.expires) if args.expires else None
        profiles = check_profiles(args.profiles.split(","), PROFILES) if args.profiles else None
        with _store(args, servers) as store:
            key, secret, replaced = store.add(
                args.name, created_by=LOCAL_USER, expires=expires, profiles=profiles, replace=args.replace
            )
            root = store.root
    except DomainError as exc:
        sys.exit(f"jupyter-mcp-lab: {exc.message}")
    if replaced is not None:
        print(f"Revoked the earlier key {replaced.name!r} (issued {when(replaced.created)}).", file=sys.stderr)
    limits = f"profiles: {', '.join(key.profiles)}" if key.profiles else "every profile"
    print(
        f"Issued agent key {key.name!r} for the workspace {root} (expires: {when(key.expires)}; {limits}).\n"
        "It opens the MCP endpoints only. Its secret, shown this once (send 'Authorization: Bearer <secret>'):",
        file=sys.stderr,
    )
    print(secret)


def cmd_list(args: argparse.Namespace, servers: list[dict[str, Any]]) -> None:
    import time

    with _store(args, servers) as store:
        keys = store.list(include_revoked=args.all)
        root = store.root
    if not keys:
        print(f"No agent keys for the workspace {root}.", file=sys.stderr)
        return
    now = time.time()
    rows = [("NAME", "STATE", "CREATED", "EXPIRES", "LAST USED", "PROFILES")]
    for k in keys:
        rows.append(
            (
                k.name,
                k.state(now),
                when(k.created),
                when(k.expires),
                when(k.last_used, "-"),
                ",".join(k.profiles) if k.profiles else "all",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(f"Agent keys of the workspace {root}:", file=sys.stderr)
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())


def cmd_revoke(args: argparse.Namespace, servers: list[dict[str, Any]]) -> None:
    from .core.errors import DomainError

    try:
        with _store(args, servers) as store:
            key = store.revoke(args.name)
    except DomainError as exc:
        sys.exit(f"jupyter-mcp-lab: {exc.message}")
    print(
        f"Revoked agent key {key.name!r}; a running server ends its open MCP sessions within a second.",
        file=sys.stderr,
    )


def add_parser(sub: Any, servers: Any) -> None:
    keys = sub.add_parser("keys", help="issue, list and revoke agent keys (on the server's machine)")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--root", default="", help="the workspace (default: the running server's root holding the current folder)"
        )
        p.add_argument("--data-dir", default="", help="the server's data directory (default: Jupyter's)")

    p = keys_sub.add_parser("add", help="issue a key to one agent; prints its secret once")
    p.add_argument("name", help="the agent's name, e.g. claude-code (its identity in authorship and grants)")
    p.add_argument("--expires", default="", help="30d, 12h, 90m, 2w or an ISO date/time (default: never)")
    p.add_argument("--profiles", default="", help="comma-separated MCP profiles it may open (default: all)")
    p.add_argument("--replace", action="store_true", help="revoke a live key of that name first")
    common(p)
    p.set_defaults(func=lambda a: cmd_add(a, servers()))

    p = keys_sub.add_parser("list", help="list the workspace's keys (never their secrets)")
    p.add_argument("--all", action="store_true", help="revoked keys too")
    common(p)
    p.set_defaults(func=lambda a: cmd_list(a, servers()))

    p = keys_sub.add_parser("revoke", help="revoke a key; a running server ends its sessions")
    p.add_argument("name")
    common(p)
    p.set_defaults(func=lambda a: cmd_revoke(a, servers()))


# --------------------------------------------------------------------------- config


def api_base(mcp_url: str) -> str:
    """The server's base URL from one of its MCP endpoint URLs."""
    url = mcp_url.rstrip("/")
    head, sep, tail = url.rpartition("/mcp-lab/")
    if sep and tail.endswith("/mcp"):
        return head + "/"
    if url.endswith("/mcp"):
        return url[: -len("mcp")]
    sys.exit(f"jupyter-mcp-lab: {mcp_url!r} is not an MCP endpoint URL of jupyter-mcp-lab (…/mcp)")


def _call(mcp_url: str, token: str, method: str, route: str, body: Any = None) -> Any:
    """A REST call as the person; exits with the server's message when it is refused."""
    request = urllib.request.Request(
        api_base(mcp_url) + "mcp-lab/api/" + route,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("message", "")
        except ValueError:
            message = ""
        sys.exit(f"jupyter-mcp-lab: the server refused ({exc.code}): {message or exc.reason}")
    except (urllib.error.URLError, OSError) as exc:
        sys.exit(f"jupyter-mcp-lab: cannot reach {api_base(mcp_url)}: {exc}")


def live_keys(mcp_url: str, token: str) -> dict[str, dict[str, Any]]:
    """The server's live agent keys by name (GET mcp-lab/api/keys as the person)."""
    return {k["name"]: k for k in _call(mcp_url, token, "GET", "keys")["keys"] if k["state"] == "active"}


def issue_key(mcp_url: str, token: str, name: str) -> dict[str, Any]:
    """POST mcp-lab/api/keys as the person: a new key named ``name`` (replacing one of that name)."""
    body: dict[str, Any] = _call(mcp_url, token, "POST", "keys", {"name": name, "replace": True})
    if body.get("replaced"):
        print(f"(replaced the earlier agent key {name!r}; its sessions ended)", file=sys.stderr)
    return body
