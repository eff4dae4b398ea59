"""``GET status``'s storage part: the review store's size and retention, and what the
server's start found of writes a crash interrupted."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Body, Count


class Retention(Body):
    """What each workspace keeps of its history (MCPLabApp.checkpoint_max_*); 0: no limit."""

    maxCount: Count = Field(description="Checkpoints kept, newest first (and decided suggestions).")
    maxAgeDays: float = Field(ge=0, description="Days a checkpoint, a decided suggestion or an ended grant is kept.")
    maxBytes: Count = Field(description="Bytes of checkpoint diffs kept, newest first.")


class Quarantined(Body):
    """Records from before stores were kept per workspace that no workspace could prove its
    own: no server lists or acts on them; retention prunes them."""

    suggestions: Count
    checkpoints: Count
    grants: Count


class Store(Body):
    """The review store (suggestions, checkpoints, grants) in the data directory."""

    path: str = Field(description="The SQLite file, shared by every workspace using this data directory.")
    bytes: Count = Field(description="Its size on disk (with its write-ahead log).")
    checkpoints: Count = Field(description="This workspace's checkpoints.")
    checkpointBytes: Count = Field(description="The bytes of their stored diffs.")
    oldestCheckpoint: float | None = Field(description="Unix time of the oldest kept; null when none.")
    retention: Retention
    quarantined: Quarantined


class RecoveredFile(Body):
    """A leftover of a write a crash interrupted, and what the start did about it."""

    path: str = Field(description="The workspace file concerned (root-relative).")
    action: Literal["restored", "removed-temp", "removed-backup", "reported"] = Field(
        description="restored: the file was cut and got its last complete version back; removed-temp: an "
        "unacknowledged write's temporary file; removed-backup: a backup equal to its file; reported: left as it "
        "is for a person to compare."
    )
    detail: str
    kept: str | None = Field(description="Where the file as the crash left it is kept (restored only).")


class Recovery(Body):
    """What this server's start found of writes interrupted by a crash (the log says it too)."""

    files: list[RecoveredFile]
    complete: bool = Field(description="False when the scan of a huge workspace stopped at its time budget.")
