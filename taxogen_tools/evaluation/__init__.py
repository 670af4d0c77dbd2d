"""Evaluations that print project figures (``taxogen evaluate …``): end-to-end on sanitized text, privacy."""
