"""The ``data`` of each event on ``GET events`` (Server-Sent Events), one model per type.

Each event's ``data`` repeats its ``id`` and its ``type`` (the SSE ``event:`` name), so a
client that queues the decoded data alone still knows what it holds. Records in events
are the stored ones: a grant without ``active``, a checkpoint without its lines (fetch
``checkpoints/{id}`` for those).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from .base import Body, Count
from .review import CheckpointRecord, GrantRecord, Suggestion
from .status import ActivityEntry

EventId = Annotated[int, Field(ge=1, description="The stream's event id (also the SSE `id:`).")]


class StreamStart(Body):
    """The first event of every stream (type `stream`, no id): what the replay covers."""

    after: Count = Field(description="The replay covers the ids after this one ...")
    latest: Count = Field(description="... up to this one; later ids are live.")


ResyncReason = Literal["new", "expired", "restarted", "too-large", "fell-behind"]


class Resync(Body):
    """Sent (type `resync`) when the stream cannot give the client every event since its
    position: fetch the lists again (suggestions, checkpoints, grants). Right after `stream`
    its id is `latest`, where the client then stands; a later one (fell-behind) has none."""

    reason: ResyncReason = Field(
        description="new: no position was given; expired: events after it left the replay buffer; restarted: "
        "it is past the newest id (the server restarted); too-large: the replay would exceed its limit; "
        "fell-behind: this stream read too slowly and live events were dropped."
    )


class SuggestionEvent(Body):
    id: EventId
    type: Literal["suggestion"]
    action: Literal["created", "accepted", "rejected", "conflict", "reopened"]
    suggestion: Suggestion


class CheckpointEvent(Body):
    id: EventId
    type: Literal["checkpoint"]
    action: Literal["created"]
    checkpoint: CheckpointRecord


class GrantEvent(Body):
    id: EventId
    type: Literal["grant"]
    action: Literal["created", "revoked"]
    grant: GrantRecord


class DocumentEvent(Body):
    """A document changed through the review service (an applied or reverted change)."""

    id: EventId
    type: Literal["document"]
    path: str
    revision: str = Field(description="The document's revision after the change.")


class ActivityEvent(Body):
    """A tool call ended (live only: never replayed; `GET activity` has the past ones)."""

    id: EventId
    type: Literal["activity"]
    entry: ActivityEntry


ServerEvent = Annotated[
    SuggestionEvent | CheckpointEvent | GrantEvent | DocumentEvent | ActivityEvent, Field(discriminator="type")
]
SERVER_EVENT: TypeAdapter[ServerEvent] = TypeAdapter(ServerEvent)
