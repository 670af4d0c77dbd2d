"""Evaluations of what the engine serves (end-to-end, on sanitized text)."""
