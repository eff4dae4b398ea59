"""MCP surfaces: the default ``lab`` profile and one profile per reference system."""

from __future__ import annotations

from . import conformance, jupyter, lab, outliner, vmark, vmark2
from .base import CompositeTool, FlatTool, Surface
from .builder import build_server

# Profiles that exist, in the order they are listed to users.
PROFILES: dict[str, Surface] = {
    lab.SURFACE.name: lab.SURFACE,
    vmark.SURFACE.name: vmark.SURFACE,
    vmark2.SURFACE.name: vmark2.SURFACE,
    outliner.SURFACE.name: outliner.SURFACE,
    jupyter.SURFACE.name: jupyter.SURFACE,
    conformance.SURFACE.name: conformance.SURFACE,
}
DEFAULT_PROFILES: tuple[str, ...] = tuple(p for p in PROFILES if p != "conformance")

__all__ = ["DEFAULT_PROFILES", "PROFILES", "CompositeTool", "FlatTool", "Surface", "build_server"]
