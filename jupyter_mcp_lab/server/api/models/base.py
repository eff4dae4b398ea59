"""The base of every response model, the error envelope, and the integer kinds they share."""

from __future__ import annotations

from typing import Annotated

from pydantic import MISSING, BaseModel, ConfigDict, Field

Count = Annotated[int, Field(ge=0)]
Offset = Annotated[int, Field(ge=0)]  # a code point offset into a document's text
Line = Annotated[int, Field(ge=1)]


class Body(BaseModel):
    """A response body: exactly its declared fields, so a record that grows a field fails
    the tests here instead of reaching clients undocumented."""

    model_config = ConfigDict(extra="forbid")


class Error(BaseModel):
    """Every error answer: a code to branch on, a message to show, and details by code."""

    # The envelope is built where errors are mapped (base.ApiHandler.write_error): this
    # model documents it, with the details a code adds left open.
    model_config = ConfigDict(extra="allow")
    error: str = Field(json_schema_extra={"example": "NOT_FOUND"})
    message: str
    argument: str | MISSING = Field(MISSING, description="The argument at fault (INVALID_ARGUMENT).")
