"""Capabilities, defined once and adapted onto many surfaces.

Each package lists its operations in ``OPERATIONS``; the registry is those lists (a
surface holds the ``Operation`` objects; names are for logs, tests and errors).
"""

from . import document, lab, markdown, notebook, outline, review, workflow, workspace
from .base import Operation, OperationRegistry, operation
from .context import Caller, OpContext, Services

PACKAGES = (document, markdown, workspace, review, lab, workflow, notebook, outline)
registry = OperationRegistry(tuple(op for package in PACKAGES for op in package.OPERATIONS))

__all__ = ["Caller", "OpContext", "Operation", "OperationRegistry", "Services", "operation", "registry"]
