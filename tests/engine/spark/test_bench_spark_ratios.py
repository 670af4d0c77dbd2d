"""bench spark's scaling ratios (engine.spark.bench.scaling_ratios): no Spark needed."""


def test_bench_spark_ratios_are_each_master_over_local_1_from_the_same_run():
    from engine.spark.bench import scaling_ratios

    results = {"local[1]": {"run": {"documents_per_second": 4.0}}, "local[2]": {"run": {"documents_per_second": 7.0}}}
    assert scaling_ratios(results) == {"local[2]/local[1]": 1.75}
    assert scaling_ratios({"local[2]": {"run": {"documents_per_second": 7.0}}}) == {}
