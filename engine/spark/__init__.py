"""Sanitizing archives and filtering dumps on Apache Spark.

- :mod:`engine.spark.session`: the one place a Spark session is started and stopped (and
  its JVM shut down), with a one-line error when pyspark or Java is missing.
- :mod:`engine.spark.store`: how the read-only store reaches every executor (a path present
  on each node, or an archive shipped through ``SparkFiles``).
- :mod:`engine.spark.sanitize`: ``taxogen spark sanitize`` (JSON lines in, JSON lines out,
  one engine per Python worker, results identical to ``taxogen sanitize``).
- :mod:`engine.spark.kgfilter`: ``taxogen spark kg-filter`` (the dump filter of ``kg build``,
  run in parallel over the dump's splits).
- :mod:`taxogen_tools.bench.spark`: ``taxogen bench spark`` (documents/s at ``local[1]``, ``local[2]``).

pyspark is the optional extra ``spark`` (``pip install 'taxogen[spark]'``); nothing here is
imported by the rest of the engine.
"""
