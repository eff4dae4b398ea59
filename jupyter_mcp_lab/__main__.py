"""Command line: standalone servers (stdio, http) and client configs for a running server.

python -m jupyter_mcp_lab stdio  --root DIR [--profile lab]
python -m jupyter_mcp_lab http   --root DIR --port N [--token T]
python -m jupyter_mcp_lab config [--url URL] [--token T | --key K] [--client NAME]
python -m jupyter_mcp_lab keys add NAME [--expires 30d|ISO] [--profiles lab,vmark]
python -m jupyter_mcp_lab keys list | keys revoke NAME
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

from ._version import __version__
from .core.paths import default_data_dir

SERVER_NAME = "jupyter-lab"


def _services(args: argparse.Namespace, profiles: list[str]) -> Any:
    from .ops.context import Services, Settings

    root = Path(args.root).expanduser().resolve()
    if not root.is_dir():
        sys.exit(f"jupyter-mcp-lab: --root {args.root!r} is not a directory")
    data = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    settings = Settings(
        root_dir=root,
        data_dir=data,
        approval=args.approval,
        read_only=args.read_only,
        max_response_bytes=args.max_response_bytes,
        profiles=tuple(profiles),
    )
    _recover(root, data)
    return Services(settings=settings, host="standalone", version=__version__)


def _recover(root: Path, data: Path) -> None:
    """Put back files a killed server left cut (see core.recovery), and say what was done."""
    from .core.recovery import recover

    report = recover(root, data / "recovered")
    for item in report.items:
        kept = f" (kept: {item.kept})" if item.kept else ""
        print(f"jupyter-mcp-lab: {item.path}: {item.action}: {item.detail}{kept}", file=sys.stderr)
    if not report.complete:
        print(f"jupyter-mcp-lab: the scan for interrupted saves stopped after {report.seconds:.1f} s", file=sys.stderr)


def _check_profiles(profiles: list[str]) -> list[str]:
    from .surfaces import PROFILES

    unknown = [p for p in profiles if p not in PROFILES]
    if unknown:
        sys.exit(f"jupyter-mcp-lab: unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}")
    return profiles


def cmd_stdio(args: argparse.Namespace) -> None:
    import anyio

    from .surfaces import PROFILES, build_server

    [profile] = _check_profiles([args.profile])
    server = build_server(PROFILES[profile], _services(args, [profile]))
    anyio.run(server.run_stdio)


def cmd_http(args: argparse.Namespace) -> None:
    import uvicorn

    from .server.client_config import render
    from .server.standalone import create_app, endpoint_path
    from .surfaces import DEFAULT_PROFILES

    profiles = _check_profiles(args.profile or list(DEFAULT_PROFILES))
    token = args.token or secrets.token_urlsafe(24)
    app = create_app(_services(args, profiles), args.host, args.port, token)
    url = f"http://{args.host}:{args.port}{endpoint_path(profiles[0])}"
    print(f"jupyter-mcp-lab {__version__} (standalone) serving {args.root}", file=sys.stderr)
    print(
        f"MCP endpoint: {url}\nToken: {token}\n\n{render('claude-code', SERVER_NAME, url, token)}\n",
        file=sys.stderr,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


def _running_servers() -> list[dict[str, Any]]:
    from jupyter_server.serverapp import list_running_servers

    return list(list_running_servers())


def _pick_server(servers: list[dict[str, Any]]) -> dict[str, Any]:
    """The server whose root holds the current directory, else the last one listed."""
    cwd = Path.cwd().resolve()
    for info in reversed(servers):
        root = Path(info.get("root_dir") or info.get("notebook_dir") or "/").resolve()
        if cwd == root or root in cwd.parents:
            chosen = info
            break
    else:
        chosen = servers[-1]
    if len(servers) > 1:
        others = ", ".join(s["url"] for s in servers if s is not chosen)
        print(f"(several Jupyter servers are running; using {chosen['url']}, not {others})", file=sys.stderr)
    return chosen


def _hub_url(info: dict[str, Any], url: str) -> str:
    """``url`` (of the server ``info`` describes) as agents reach it: through the JupyterHub
    this terminal's server belongs to, at the Hub's public address when it says one."""
    from urllib.parse import urlsplit

    from .server import hub

    if hub.prefix() is None or info.get("base_url") != hub.prefix():
        return url
    origin = hub.public_origin()
    if origin is None:
        print(
            "(JupyterHub does not say its public address, JupyterHub.public_url: these configs carry this "
            "server's address inside the Hub, right for an agent running here; for one elsewhere use the "
            "MCP Lab panel's configs, or pass --url https://<your hub>" + urlsplit(url).path + ")",
            file=sys.stderr,
        )
        return url
    return origin + urlsplit(url).path


def cmd_config(args: argparse.Namespace) -> None:
    """Configs for each client, each with an agent key of its own: issued by the running
    server under the client's name (replacing an earlier key of that name, or, with
    ``--if-missing``, leaving a client that has one alone), or ``--key``."""
    from .keys_cli import issue_key, live_keys, when
    from .server.client_config import CLIENTS, LABELS, render

    if args.client != "all" and args.client not in CLIENTS:
        sys.exit(f"jupyter-mcp-lab: unknown client {args.client!r}; known: all, {', '.join(CLIENTS)}")
    url, token = args.url, args.token
    shown = url  # what the configs carry: on a JupyterHub, the Hub's address, not the loopback one
    if url is None:
        servers = _running_servers()
        if not servers:
            sys.exit("jupyter-mcp-lab: no running Jupyter server found; start one or pass --url")
        info = _pick_server(servers)
        url = info["url"].rstrip("/") + ("/mcp" if args.profile == "lab" else f"/mcp-lab/{args.profile}/mcp")
        token = token or info.get("token", "")
        shown = _hub_url(info, url)
    clients = list(CLIENTS) if args.client == "all" else [args.client]
    if not args.key and not token:
        sys.exit("jupyter-mcp-lab: no Jupyter token known to issue a key with; pass --token (or --key)")
    existing = live_keys(url, token) if args.if_missing and not args.key else {}
    blocks = []
    for client in clients:
        name = args.key_name or client
        if name in existing:
            blocks.append(
                f"# {LABELS[client]}: has its agent key {name!r} (issued {when(existing[name]['created'])}); "
                f"for a new one: python -m jupyter_mcp_lab config --client {client}"
            )
            continue
        key = args.key or issue_key(url, token, name)["secret"]
        blocks.append(render(client, args.name, shown, key))
    if args.client == "all":
        print(f"MCP endpoint: {shown}\n")
    print("\n\n".join(blocks))


def _server_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", required=True, help="the workspace folder to serve")
    p.add_argument("--approval", choices=["suggest", "auto"], default="suggest")
    p.add_argument("--read-only", action="store_true")
    p.add_argument("--max-response-bytes", type=int, default=75_000)
    p.add_argument("--data-dir", default="", help="suggestion store and indexes (default: Jupyter's)")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m jupyter_mcp_lab", description=__doc__.splitlines()[0])
    ap.add_argument("--version", action="version", version=__version__)
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("stdio", help="serve one profile over stdio, without Jupyter")
    _server_options(p)
    p.add_argument("--profile", default="lab")
    p.set_defaults(func=cmd_stdio)

    p = sub.add_parser("http", help="serve the profiles over HTTP (loopback, token), without Jupyter")
    _server_options(p)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--token", default="", help="required bearer token (default: a new random one)")
    p.add_argument("--profile", action="append", help="profile to serve (repeatable; default: all)")
    p.set_defaults(func=cmd_http)

    p = sub.add_parser("config", help="print client configs for a running server, each with a new agent key")
    p.add_argument("--url", help="MCP endpoint URL (default: the running Jupyter server's)")
    p.add_argument(
        "--token", help="the person's Jupyter token, to issue keys with (default: from Jupyter's runtime files)"
    )
    p.add_argument("--key", default="", help="an agent key to put into the configs instead of issuing new ones")
    p.add_argument("--key-name", default="", help="the issued key's name (default: the client's, e.g. claude-code)")
    p.add_argument(
        "--if-missing", action="store_true", help="issue keys only for clients without one (others are left alone)"
    )
    p.add_argument("--profile", default="lab")
    p.add_argument("--client", default="all", help="all, claude-code, claude-desktop, vscode or cursor")
    p.add_argument("--name", default=SERVER_NAME, help="the server's name in the client")
    p.set_defaults(func=cmd_config)

    from .keys_cli import add_parser as add_keys_parser

    add_keys_parser(sub, _running_servers)
    return ap


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
