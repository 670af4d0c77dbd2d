"""``spark-submit engine/spark/submit.py IN OUT [--store PATH | --store-archive A] …``: the same
job as ``taxogen spark sanitize``, with the master and resources from spark-submit.

A script of its own (nothing imports it), so that the Spark job module
:mod:`engine.spark.sanitize` does not import the command line that imports it.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Run ``taxogen spark sanitize`` with ``argv`` (default: the script's arguments)."""
    from engine.cli.spark import spark_app

    spark_app(["sanitize", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    main()
