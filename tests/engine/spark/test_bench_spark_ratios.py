"""bench spark's scaling ratios (engine.spark.bench.scaling_ratios): no Spark needed."""


def test_bench_spark_ratios_are_each_master_over_local_1_from_the_same_run():
    from engine.spark.bench import scaling_ratios

    results = {"local[1]": {"run": {"documents_per_second": 4.0}}, "local[2]": {"run": {"documents_per_second": 7.0}}}
    assert scaling_ratios(results) == {"local[2]/local[1]": 1.75}
    assert scaling_ratios({"local[2]": {"run": {"documents_per_second": 7.0}}}) == {}


def test_bench_input_is_every_files_documents_in_order(tmp_path):
    import json

    from engine.spark.data import document_lines

    first = tmp_path / "a.jsonl"
    first.write_text('{"id": "a1", "text": "x"}\n\n{"id": "a2", "text": "y"}\n', encoding="utf-8")
    second = tmp_path / "b.jsonl"
    second.write_text('{"id": "b1", "text": "z"}\n', encoding="utf-8")
    assert [json.loads(line)["id"] for line in document_lines([first, second])] == ["a1", "a2", "b1"]
