"""The taxogen version (a module of its own, so that modules below the package can read it)."""

__version__ = "0.1.0"
