"""Starting and stopping Spark: the session, its settings, and the JVM behind it.

Local mode (``local[N]``) launches a JVM through pyspark; :func:`spark_session` stops the
session and that JVM on exit, so no Java process outlives a command or a test. Under
``spark-submit`` the master comes from the command line (``master=None``).
"""

from __future__ import annotations

import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from engine.errors import ConfigError

#: Settings of every session (overridable with ``conf``): no web UI, few shuffle partitions,
#: Python workers reused across tasks (so an engine is built once per worker), text lines
#: split on ``\n`` only (as Python's file iteration does).
DEFAULT_CONF: dict[str, str] = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.python.worker.reuse": "true",
    "spark.driver.memory": "1g",
    "spark.hadoop.textinputformat.record.delimiter": "\n",
    # the JVM only moves lines between files and Python workers: its quick (C1) compiler
    # and one garbage-collector thread, so it leaves the cores to the workers
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
}


class SparkUnavailable(ConfigError):
    """pyspark or Java is missing: the message says what to install."""


def java_binary() -> str | None:
    """The ``java`` Spark will run: ``$JAVA_HOME/bin/java`` or the one on ``PATH``."""
    home = os.environ.get("JAVA_HOME")
    if home:
        java = Path(home) / "bin" / "java"
        return str(java) if java.is_file() else None
    return shutil.which("java")


def require_spark() -> None:
    """Raise :class:`SparkUnavailable` (a one-line message) unless pyspark and Java are there."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise SparkUnavailable("Spark commands need pyspark: pip install 'taxogen[spark]'") from None
    if java_binary() is None:
        where = "JAVA_HOME has no bin/java" if os.environ.get("JAVA_HOME") else "no java on PATH"
        raise SparkUnavailable(f"Spark needs Java 17 ({where}): apt-get install openjdk-17-jre-headless")


@contextmanager
def spark_session(master: str | None = "local[2]", *, app: str = "taxogen", conf: Mapping[str, str] | None = None) -> Iterator["SparkSession"]:  # noqa: F821
    """A Spark session for the ``with`` block; stopped afterwards, and a JVM this process
    launched (local mode) is shut down too. ``master=None``: spark-submit's master, and its
    ``--conf`` settings take precedence over :data:`DEFAULT_CONF`."""
    require_spark()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers run this interpreter (the venv)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app)
    settings = {**DEFAULT_CONF, **(conf or {})}
    if master:
        builder = builder.master(master)
    else:  # under spark-submit: its --conf settings win over our defaults
        from pyspark import SparkConf

        given = SparkConf()  # spark-submit's settings (the JVM is already running)
        settings = {k: v for k, v in settings.items() if k in (conf or {}) or not given.contains(k)}
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        yield spark
    finally:
        spark.stop()
        shutdown_jvm()


def shutdown_jvm() -> None:
    """End the JVM that pyspark launched for this process (it exits when its stdin closes)."""
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    if gateway is None:
        return
    proc = getattr(gateway, "proc", None)
    try:
        gateway.shutdown()
    except Exception:  # noqa: BLE001 - already gone
        pass
    if proc is not None:
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=30)
        except Exception:  # noqa: BLE001
            proc.kill()
            proc.wait()
    SparkContext._gateway = None
    SparkContext._jvm = None
