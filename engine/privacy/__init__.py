"""Privacy checks on the chosen replacements (leaks across mentions)."""

from engine.privacy.leaks import DocumentLeakGuard, ItemNames, Leak

__all__ = ["DocumentLeakGuard", "ItemNames", "Leak"]
