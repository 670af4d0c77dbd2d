"""``python -m engine.cli``: the same as the ``taxogen`` command."""

from engine.cli import main

main()
