"""The operation registry: every capability defined once, mapped onto many surfaces."""

from .base import Operation, operation, registry
from .context import Caller, OpContext, Services

# Importing the modules registers their operations.
from . import document as _document  # noqa: F401  isort: skip
from . import edit as _edit  # noqa: F401  isort: skip
from . import review as _review  # noqa: F401  isort: skip
from . import selection as _selection  # noqa: F401  isort: skip
from . import session as _session  # noqa: F401  isort: skip
from . import structure as _structure  # noqa: F401  isort: skip
from . import transform as _transform  # noqa: F401  isort: skip
from . import workflow as _workflow  # noqa: F401  isort: skip
from . import workspace as _workspace  # noqa: F401  isort: skip

__all__ = ["Caller", "OpContext", "Operation", "Services", "operation", "registry"]
