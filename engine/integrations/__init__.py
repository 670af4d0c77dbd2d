"""taxogen inside other tools: a Presidio recognizer and operator (:mod:`.presidio`, the ``[presidio]`` extra)."""
