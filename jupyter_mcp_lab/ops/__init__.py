"""The operation registry: every capability defined once, mapped onto many surfaces."""

from .base import Operation, operation, registry
from .context import Caller, OpContext, Services

# Importing the modules registers their operations.
from . import session as _session  # noqa: F401  isort: skip

__all__ = ["Caller", "OpContext", "Operation", "Services", "operation", "registry"]
