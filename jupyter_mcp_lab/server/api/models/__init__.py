"""The REST + events API's JSON bodies as pydantic models, one module per area.

Handlers build every answer from these (``ApiHandler.reply``); ``openapi.yaml``'s schemas
are generated from them (``scripts/openapi``), and the labext's ``api_types.ts`` from
that file, so the three cannot drift apart unnoticed (tests/server/api/test_schema.py).
Field names are the wire names.
"""

from __future__ import annotations

from pydantic import BaseModel

from .base import Body, Error
from .events import (
    SERVER_EVENT,
    ActivityEvent,
    CheckpointEvent,
    DocumentEvent,
    GrantEvent,
    Resync,
    ServerEvent,
    StreamStart,
    SuggestionEvent,
)
from .keys import AgentKey, IssuedKey, KeyList, NewKey
from .requests import NewGrant, Reapply, Selection
from .review import (
    AcceptAllResult,
    Checkpoint,
    CheckpointDetail,
    CheckpointList,
    CheckpointRecord,
    Grant,
    GrantList,
    GrantRecord,
    PartChange,
    ReapplyPreview,
    ReapplyResult,
    RejectAllResult,
    Suggestion,
    SuggestionDetail,
    SuggestionList,
)
from .status import (
    ActivityEntry,
    ActivityList,
    Agent,
    ClientConfig,
    Endpoint,
    Heading,
    OpenAPIDocument,
    Outline,
    Status,
)
from .storage import Quarantined, RecoveredFile, Recovery, Retention, Store

# What clients send, checked as sent (validation schema); everything else is answered.
REQUESTS: tuple[type[BaseModel], ...] = (Selection, Reapply, NewGrant, NewKey)
# openapi.yaml's components.schemas in this order (the event union comes last, by name).
COMPONENTS: tuple[type[BaseModel], ...] = (
    Error,
    Status,
    Endpoint,
    ClientConfig,
    Agent,
    Store,
    Retention,
    Quarantined,
    Recovery,
    RecoveredFile,
    ActivityEntry,
    ActivityList,
    PartChange,
    Suggestion,
    SuggestionDetail,
    SuggestionList,
    Selection,
    AcceptAllResult,
    RejectAllResult,
    ReapplyPreview,
    Reapply,
    ReapplyResult,
    CheckpointRecord,
    Checkpoint,
    CheckpointDetail,
    CheckpointList,
    GrantRecord,
    Grant,
    GrantList,
    NewGrant,
    AgentKey,
    KeyList,
    IssuedKey,
    NewKey,
    Heading,
    Outline,
    OpenAPIDocument,
    StreamStart,
    Resync,
    SuggestionEvent,
    CheckpointEvent,
    GrantEvent,
    DocumentEvent,
    ActivityEvent,
)

__all__ = [
    "COMPONENTS",
    "REQUESTS",
    "SERVER_EVENT",
    "AcceptAllResult",
    "ActivityEntry",
    "ActivityEvent",
    "ActivityList",
    "Agent",
    "AgentKey",
    "Body",
    "Checkpoint",
    "CheckpointDetail",
    "CheckpointEvent",
    "CheckpointList",
    "CheckpointRecord",
    "ClientConfig",
    "DocumentEvent",
    "Endpoint",
    "Error",
    "Grant",
    "GrantEvent",
    "GrantList",
    "GrantRecord",
    "Heading",
    "IssuedKey",
    "KeyList",
    "NewGrant",
    "NewKey",
    "OpenAPIDocument",
    "Outline",
    "PartChange",
    "Quarantined",
    "Reapply",
    "ReapplyPreview",
    "ReapplyResult",
    "RecoveredFile",
    "Recovery",
    "RejectAllResult",
    "Resync",
    "Retention",
    "Selection",
    "ServerEvent",
    "Status",
    "Store",
    "StreamStart",
    "Suggestion",
    "SuggestionDetail",
    "SuggestionEvent",
    "SuggestionList",
]
