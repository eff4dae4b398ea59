"""The messages a JupyterLab sends over the bridge, validated (anything else is refused)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_DOCUMENTS = 200  # a person with more open tabs than this is reported in part
MAX_PATH = 4096


class _Message(BaseModel):
    # Clients of a newer version may send more: ignore what this server does not know.
    model_config = ConfigDict(extra="ignore")


class Hello(_Message):
    type: Literal["hello"]
    clientId: str = Field(min_length=1, max_length=128)
    userAgent: str = Field("", max_length=1024)
    version: str = Field("", max_length=64)


class OpenDocumentInfo(_Message):
    path: str = Field(min_length=1, max_length=MAX_PATH)
    kind: str = Field("file", max_length=64)
    dirty: bool = False


class PersonSelection(_Message):
    path: str = Field(min_length=1, max_length=MAX_PATH)
    anchor: int = Field(ge=0)
    head: int = Field(ge=0)
    cell: int | None = Field(None, ge=0, description="In a notebook: the cell the offsets are in.")


class Presence(_Message):
    type: Literal["presence"]
    documents: list[OpenDocumentInfo] = Field(default_factory=list)
    active: str | None = Field(None, max_length=MAX_PATH)
    selection: PersonSelection | None = None
    focused: bool = False
    visible: bool = True


class ResponseError(_Message):
    code: str = Field("FAILED", max_length=64)
    message: str = Field("", max_length=8192)


class Response(_Message):
    type: Literal["response"]
    id: str = Field(min_length=1, max_length=128)
    ok: bool
    result: Any = None
    error: ResponseError | None = None
