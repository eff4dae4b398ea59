"""The operation registry: every capability defined once, mapped onto many surfaces."""

from .base import Operation, operation, registry
from .context import Caller, OpContext, Services

# Importing the modules registers their operations.
from . import ast as _ast  # noqa: F401  isort: skip
from . import at_cursor as _at_cursor  # noqa: F401  isort: skip
from . import at_cursor_blocks as _at_cursor_blocks  # noqa: F401  isort: skip
from . import at_cursor_inserts as _at_cursor_inserts  # noqa: F401  isort: skip
from . import at_cursor_tables as _at_cursor_tables  # noqa: F401  isort: skip
from . import document as _document  # noqa: F401  isort: skip
from . import edit as _edit  # noqa: F401  isort: skip
from . import editor as _editor  # noqa: F401  isort: skip
from . import lab as _lab  # noqa: F401  isort: skip
from . import node_edit as _node_edit  # noqa: F401  isort: skip
from . import nodes as _nodes  # noqa: F401  isort: skip
from . import protocol as _protocol  # noqa: F401  isort: skip
from . import review as _review  # noqa: F401  isort: skip
from . import rewrite as _rewrite  # noqa: F401  isort: skip
from . import search as _search  # noqa: F401  isort: skip
from . import selection as _selection  # noqa: F401  isort: skip
from . import session as _session  # noqa: F401  isort: skip
from . import structure as _structure  # noqa: F401  isort: skip
from . import transform as _transform  # noqa: F401  isort: skip
from . import window_review as _window_review  # noqa: F401  isort: skip
from . import workflow as _workflow  # noqa: F401  isort: skip
from . import windows as _windows  # noqa: F401  isort: skip
from . import workspace as _workspace  # noqa: F401  isort: skip

__all__ = ["Caller", "OpContext", "Operation", "Services", "operation", "registry"]
