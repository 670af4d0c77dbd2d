"""taxogen's tools at the edge: evaluations, benchmarks and training.

The runtime (:mod:`engine`, :mod:`kg`) never imports this package; the ``taxogen``
command loads it only for ``evaluate``, ``bench`` and ``train`` commands.
"""
