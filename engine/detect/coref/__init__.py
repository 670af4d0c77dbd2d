"""Linking the mentions of one entity (persons: :mod:`engine.detect.coref.persons`)."""
