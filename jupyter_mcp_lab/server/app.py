"""The Jupyter server extension: configuration, routes, and the MCP endpoints' lifetime."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jupyter_server.extension.application import ExtensionApp
from jupyter_server.utils import url_path_join
from mcp.server.transport_security import TransportSecuritySettings
from traitlets import Bool, Enum, Float, Int, List, Type, Unicode, default, validate

from .._version import __version__
from ..core.documents import Documents
from ..core.keys import KeyStore
from ..core.paths import default_data_dir
from ..core.recovery import RecoveryReport, recover
from ..core.review import Review
from ..core.suggestions import Retention, SuggestionStore
from ..ops.context import Endpoint, Services, Settings
from ..surfaces import DEFAULT_PROFILES, PROFILES
from . import hub
from .api import api_handlers
from .api.status import RECOVERY_SETTING
from .bridge import BRIDGE_ROUTE, BridgeHandler, LabBridge
from .contents_storage import ContentsStorage
from .endpoints import MCPEndpoints
from .kernels import JupyterKernels
from .key_auth import KEYS_SETTING, AgentKeys
from .live_storage import LiveStorage
from .mcp_handler import MCPHandler
from .request_limit import DEFAULT_MAX_REQUEST_BYTES
from .routes import profile_path

PROFILE_RE = r"(?P<profile>[a-z][a-z0-9_-]*)"


class MCPLabApp(ExtensionApp):
    name = "jupyter_mcp_lab"
    description = "An MCP server for the documents of this Jupyter workspace."
    load_other_extensions = True

    approval = Enum(
        ["suggest", "auto"],
        default_value="suggest",
        config=True,
        help="""Who has the last word on agent edits. 'suggest': every edit is staged as a
        suggestion a person accepts or rejects (an agent asking for mode='apply' is staged
        too). 'auto': edits apply at once, each recorded as a revertible checkpoint.""",
    )
    profiles = List(
        Unicode(),
        default_value=list(DEFAULT_PROFILES),
        config=True,
        help=f"""The MCP profiles to serve. 'lab' is served at {{base_url}}mcp, every other
        profile at {{base_url}}mcp-lab/<profile>/mcp. Known: {", ".join(PROFILES)}.
        'conformance' carries the official conformance suite's fixtures (tests only).""",
    )
    vault_dir = Unicode(
        "",
        config=True,
        help="Folder of the markdown vault, relative to the Jupyter root. Default: the root.",
    )
    read_only = Bool(False, config=True, help="Refuse every change to documents.")
    max_response_bytes = Int(
        75_000,
        config=True,
        help="Largest tool result in bytes; larger ones answer RESPONSE_TOO_LARGE with a hint to page.",
    )
    max_request_bytes = Int(
        DEFAULT_MAX_REQUEST_BYTES,
        config=True,
        help="""Largest MCP request body in bytes (a write carries the whole text). A larger one
        is refused before it is read, with HTTP 413 and a JSON-RPC error that names the limit.
        Jupyter's ServerApp.max_body_size caps every request before this one.""",
    )
    data_dir = Unicode(
        "",
        config=True,
        help="Where suggestions, checkpoints and indexes are stored. Default: <jupyter data dir>/jupyter_mcp_lab.",
    )
    checkpoint_max_count = Int(
        2_000,
        config=True,
        help="""Checkpoints (applied agent changes a person can revert) kept per workspace:
        older ones are pruned, with decided suggestions past the same count. 0: no limit.""",
    )
    checkpoint_max_age_days = Float(
        30.0,
        config=True,
        help="""Days a checkpoint (and a decided suggestion, an ended grant) is kept. 0: no limit.""",
    )
    checkpoint_max_bytes = Int(
        256 * 2**20,
        config=True,
        help="""Bytes of checkpoint diffs (compressed) kept per workspace, newest first; the
        data directory's store gives pruned space back to the filesystem. 0: no limit.""",
    )
    allow_jupyter_credential = Bool(
        True,
        config=True,
        help="""Whether the person's own Jupyter credential (token, login cookie, JupyterHub
        token) also opens the MCP endpoints, beside agent keys. The kernel helpers
        (kernel_tools.connect) use it. False: only agent keys open them (python -m
        jupyter_mcp_lab keys add NAME); a key never opens anything but the MCP endpoints.""",
    )
    hidden_paths = List(
        Unicode(),
        default_value=[".github/"],
        config=True,
        help="""Dot-folders agents may read and write even while Jupyter hides dotfiles
        (ContentsManager.allow_hidden=False). .github/ holds the workflow YAML the workflow
        tools edit. Paths stay confined to the root.""",
    )
    document_storage_class = Type(
        default_value=LiveStorage,
        klass=ContentsStorage,
        config=True,
        help="""Where agents read and write documents: a ContentsStorage class (or its import
        path), built with the server app and the allowed hidden folders. LiveStorage (the
        default) edits the shared document of a file open in JupyterLab when
        jupyter-collaboration runs, so every open editor shows the change at once, and goes
        through the contents manager otherwise. ContentsStorage always goes through the
        contents manager (open editors reload a changed file). A subclass of either can
        observe or redirect documents.""",
    )
    freeze_startup_heap = Bool(
        True,
        config=True,
        help="""Move the objects alive after start-up out of the garbage collector's sight
        (gc.freeze). Jupyter's start-up heap is large and full collections would scan it on
        every cycle: this makes each MCP call about a tenth cheaper and evens out latency.""",
    )
    session_idle_timeout = Float(
        30 * 60.0,
        config=True,
        help="Seconds after which an idle MCP session is closed (its client re-initializes).",
    )
    lab_request_timeout = Float(
        10.0,
        config=True,
        help="Seconds to wait for a JupyterLab to carry out an agent's request (open a file, run a command, …).",
    )
    lab_confirm_timeout = Float(
        60.0,
        config=True,
        help="""Seconds the person has to allow or deny an agent's command or terminal input in
        JupyterLab (approval 'suggest'); no answer counts as a refusal.""",
    )
    lab_reconnect_grace = Float(
        10.0,
        config=True,
        help="""Seconds a disconnected JupyterLab's window is kept for it to come back (a reload,
        a network blip) before its tabs close.""",
    )

    @default("data_dir")
    def _default_data_dir(self) -> str:
        return str(default_data_dir())

    @validate("profiles")
    def _check_profiles(self, proposal: dict[str, Any]) -> list[str]:
        value = list(proposal["value"])
        if len(value) == 1 and value[0].lstrip().startswith("["):
            # --MCPLabApp.profiles='["lab","vmark"]' arrives as one item; accept the JSON list.
            try:
                value = [str(v) for v in json.loads(value[0])]
            except ValueError as exc:
                raise ValueError(f"profiles: {value[0]!r} is not a JSON list") from exc
        value = list(dict.fromkeys(value))
        unknown = [p for p in value if p not in PROFILES]
        if unknown:
            raise ValueError(f"Unknown MCP profile(s) {unknown}; known: {list(PROFILES)}")
        return value

    def initialize_settings(self) -> None:
        assert self.serverapp is not None
        root = Path(self.serverapp.root_dir).resolve()
        # Before anyone reads a document: put back files a killed server left cut.
        self.recovery = self._recover(root)
        self.settings[RECOVERY_SETTING] = self.recovery
        vault = (root / self.vault_dir).resolve() if self.vault_dir else None
        settings = Settings(
            root_dir=root,
            data_dir=Path(self.data_dir),
            approval="auto" if self.approval == "auto" else "suggest",
            read_only=self.read_only,
            max_response_bytes=self.max_response_bytes,
            profiles=tuple(self.profiles),
            vault_dir=vault,
        )
        documents = Documents(self.document_storage_class(self.serverapp, self.hidden_paths))
        retention = Retention(self.checkpoint_max_count, self.checkpoint_max_age_days, self.checkpoint_max_bytes)
        store = SuggestionStore.in_data_dir(self.data_dir, root=root, retention=retention)
        self.services = Services(
            settings=settings,
            host="jupyter",
            version=__version__,
            documents=documents,
            review=Review(store, documents),
            kernels=JupyterKernels(self.serverapp),
        )
        base = self.serverapp.base_url
        self.services.endpoints = [
            Endpoint(profile=p, path=url_path_join(base, profile_path(p)), url="") for p in self.profiles
        ]
        self.endpoints = MCPEndpoints(
            self.services,
            list(self.profiles),
            # Jupyter's handlers already check Host and Origin.
            TransportSecuritySettings(enable_dns_rebinding_protection=False),
            session_idle_timeout=self.session_idle_timeout,
            max_request_bytes=self.max_request_bytes,
        )
        # Agent keys of this workspace: they open the MCP endpoints, and only them.
        self.keys = AgentKeys(KeyStore.in_data_dir(self.data_dir, root), self.endpoints)
        self.settings[KEYS_SETTING] = self.keys
        # Connected JupyterLabs: the workspace's windows, and where agents' lab requests go.
        self.bridge = LabBridge(
            self.services,
            request_timeout=self.lab_request_timeout,
            confirm_timeout=self.lab_confirm_timeout,
            reconnect_grace=self.lab_reconnect_grace,
        )
        self.services.workspace.lab = self.bridge

    def _recover(self, root: Path) -> RecoveryReport:
        report = recover(root, Path(self.data_dir) / "recovered")
        for item in report.items:
            level = self.log.info if item.action in ("removed-temp", "removed-backup") else self.log.warning
            kept = f" (kept: {item.kept})" if item.kept else ""
            level("jupyter-mcp-lab: %s: %s: %s%s", item.path, item.action, item.detail, kept)
        if not report.complete:
            self.log.warning(
                "jupyter-mcp-lab: the scan for interrupted saves stopped after %.1f s; the rest of %s was not checked",
                report.seconds,
                root,
            )
        return report

    def initialize_handlers(self) -> None:
        kwargs = {
            "endpoints": self.endpoints,
            "keys": self.keys,
            "allow_jupyter_credential": self.allow_jupyter_credential,
        }
        if "lab" in self.profiles:
            self.handlers.append((profile_path("lab"), MCPHandler, {**kwargs, "profile": "lab"}))
        self.handlers.append((profile_path(PROFILE_RE), MCPHandler, kwargs))  # mcp-lab/{profile}/mcp
        self.handlers.append((BRIDGE_ROUTE, BridgeHandler, {"bridge": self.bridge}))
        self.handlers.extend(api_handlers(self.services, self.endpoints))

    async def _start_jupyter_server_extension(self, serverapp: Any) -> None:
        if getattr(self, "endpoints", None) is None:
            return  # initialize_settings failed and Jupyter logged why
        url = urlsplit(serverapp.connection_url)
        # On a JupyterHub the address Jupyter listens on is the Hub's business: people and
        # agents come through the Hub's proxy (its public address, when the Hub knows it).
        origin = hub.public_origin() or f"{url.scheme}://{url.netloc}"
        self.services.endpoints = [
            Endpoint(profile=e.profile, path=e.path, url=origin + e.path) for e in self.services.endpoints
        ]
        await self.endpoints.start()
        await self.keys.start()
        hub.stop_on_sigint(serverapp)
        self.bridge.lab_url = url_path_join(origin, serverapp.base_url, "lab")
        if self.freeze_startup_heap:
            gc.collect()
            gc.freeze()
        urls = ", ".join(f"{e.profile}: {e.url}" for e in self.services.endpoints)
        self.log.info("jupyter-mcp-lab %s serving MCP (%s)", __version__, urls)

    async def stop_extension(self) -> None:
        # Never raise here: an exception during shutdown leaves Jupyter deaf to SIGTERM.
        bridge = getattr(self, "bridge", None)
        if bridge is not None:
            try:
                await bridge.stop()
            except Exception:
                self.log.exception("jupyter-mcp-lab: stopping the lab bridge failed")
        keys = getattr(self, "keys", None)
        if keys is not None:
            try:
                await keys.stop()
            except Exception:
                self.log.exception("jupyter-mcp-lab: stopping the agent keys failed")
        endpoints = getattr(self, "endpoints", None)
        if endpoints is not None:
            await endpoints.stop()
        if keys is not None:
            try:
                keys.store.close()
            except Exception:
                self.log.exception("jupyter-mcp-lab: closing the key store failed")
        services = getattr(self, "services", None)
        if services is not None and isinstance(services.kernels, JupyterKernels):
            services.kernels.close()
        if services is not None:
            try:
                services.close()
            except Exception:
                self.log.exception("jupyter-mcp-lab: closing the suggestion store failed")
