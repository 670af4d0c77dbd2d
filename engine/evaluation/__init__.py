"""Evaluations that print project figures (``taxogen evaluate …``)."""
