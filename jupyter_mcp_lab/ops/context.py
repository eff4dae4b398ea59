"""What an operation sees: the server's services, who is calling, and how to report back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from .._version import __version__
from ..core.activity import ActivityEntry, ActivityLog
from ..core.documents import Documents
from ..core.kernels import Kernels
from ..core.review import Author, Review
from ..core.storage import FileStorage
from ..core.suggestions import SuggestionStore
from ..core.workspace import Workspace

ApprovalPolicy = Literal["suggest", "auto"]


@dataclass(frozen=True)
class Settings:
    """The configuration every operation may consult (the ExtensionApp's traits)."""

    root_dir: Path
    data_dir: Path
    approval: ApprovalPolicy = "suggest"
    read_only: bool = False
    max_response_bytes: int = 75_000
    profiles: tuple[str, ...] = ("lab",)
    vault_dir: Path | None = None


@dataclass(frozen=True)
class Endpoint:
    """One MCP surface as a client reaches it."""

    profile: str
    path: str
    url: str


@dataclass
class Services:
    """Long-lived state shared by every surface of one server (Jupyter or standalone)."""

    settings: Settings
    host: Literal["jupyter", "standalone"] = "jupyter"
    version: str = __version__
    endpoints: list[Endpoint] = field(default_factory=list)
    activity: ActivityLog = field(default_factory=ActivityLog)
    workspace: Workspace = field(default_factory=Workspace)
    documents: Documents | None = None  # None: files below settings.root_dir
    review: Review | None = None  # None: this root's suggestions, stored under settings.data_dir
    kernels: Kernels | None = None  # the Jupyter server's kernels; None when standalone

    def __post_init__(self) -> None:
        if self.documents is None:
            self.documents = Documents(FileStorage(self.settings.root_dir))
        if self.review is None:
            store = SuggestionStore.in_data_dir(self.settings.data_dir, root=self.settings.root_dir)
            self.review = Review(store, self.documents)
        # Every tool call reaches the UIs' event stream as it is recorded. Publishing only
        # queues the event for each listener (put_nowait): the call never waits on a reader.
        self.activity.listen(self._announce)

    def _announce(self, entry: ActivityEntry) -> None:
        events = self.reviews.events
        if events.listening:  # the entry's JSON (its answer's summary) only for a UI to hear
            events.publish("activity", entry=entry.to_json())

    @property
    def docs(self) -> Documents:
        assert self.documents is not None
        return self.documents

    @property
    def reviews(self) -> Review:
        assert self.review is not None
        return self.review

    def close(self) -> None:
        if self.review is not None:
            self.review.store.close()


@dataclass(frozen=True)
class Caller:
    """Who is calling: the authenticated person and the MCP client acting for them.

    ``client_name`` is the agent's identity: the name of the agent key it connected with
    (what authorship, activity and grants go by), or the client's own name when the person's
    Jupyter credential opened the session. ``client_label`` is what the client calls itself
    when that differs: shown, never trusted.
    """

    username: str
    display_name: str
    client_name: str
    client_version: str
    session_id: str
    profile: str
    origin: str | None = None  # scheme://host the client reached us at, for URLs we hand out
    client_label: str = ""

    @property
    def author(self) -> Author:
        return Author(self.client_name or "agent", self.username, self.session_id)


async def _no_progress(progress: float, total: float | None, message: str | None) -> None:
    return None


async def _no_log(level: str, message: str) -> None:
    return None


@dataclass
class OpContext:
    services: Services
    caller: Caller
    protocol_version: str | None = None
    report_progress: Callable[[float, float | None, str | None], Awaitable[None]] = _no_progress
    log: Callable[[str, str], Awaitable[None]] = _no_log
    # A question for the person (MCP elicitation): the accepted answer, or None when they
    # declined or nobody can be asked (the client does not support it, a plain-HTTP caller).
    ask: Callable[[str, type[BaseModel]], Awaitable[BaseModel | None]] | None = None
    # Whether the caller follows this call as it runs (an MCP client that sent a progress
    # token): live extras such as a cell's printed text as log messages start at once.
    follows: bool = False

    @property
    def settings(self) -> Settings:
        return self.services.settings
