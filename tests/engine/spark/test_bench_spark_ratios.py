"""bench spark's scaling ratios (taxogen_tools.bench.spark.scaling_ratios): no Spark needed."""


def test_bench_spark_ratios_are_each_master_over_local_1_from_the_same_run():
    from taxogen_tools.bench.spark import scaling_ratios

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


def test_given_copies_then_each_document_comes_again_after_the_whole_input_with_its_own_id(tmp_path):
    import json

    import pytest

    from engine.spark.data import repeated_lines

    lines = [json.dumps({"id": f"d{i}", "text": "é"}, ensure_ascii=False) for i in range(3)] + ['{"text": "no id"}', "{broken"]
    out = repeated_lines(lines, 3, batch=5)
    assert out[:5] == lines and len(out) == 15
    ids = [json.loads(line).get("id") if line != "{broken" else None for line in out]
    assert ids[5:10] == ["d0~2", "d1~2", "d2~2", None, None] and ids[10:13] == ["d0~3", "d1~3", "d2~3"]
    assert json.loads(out[5])["text"] == "é" and out[9] == out[14] == "{broken"  # text as it was; a bad line stays bad
    assert repeated_lines(lines, 1, batch=99) == lines
    with pytest.raises(ValueError):
        repeated_lines(lines, 2, batch=6)  # copies of five documents would share a batch of six


def test_given_no_repeat_then_copies_make_1500_documents_unless_they_would_share_a_batch():
    from taxogen_tools.bench.spark import default_copies

    assert default_copies(75) == 20 and default_copies(155) == 10 and default_copies(1500) == 1 and default_copies(5000) == 1
    assert default_copies(3) == 1 and default_copies(20, batch=32) == 1


def test_given_forgetting_workers_then_a_batch_leaves_no_vectors_links_or_ladders_but_the_labels():
    from engine.generate.sources.graph import GraphSource
    from engine.scale import forget_documents

    calls = []

    class _Graph(GraphSource):
        def __init__(self):
            pass

        def forget_ladders(self):
            calls.append("ladders")

    class _Embedder:
        labels = {"city": 1}

        def clear_memory(self):
            calls.append("vectors")

    class _Linker:
        def forget_approximate(self):
            calls.append("links")

    class _Sources:
        def names(self):
            return ["graph"]

        def get(self, name):
            return _Graph()

    class _Engine:
        linker, sources, loaded_embedder = _Linker(), _Sources(), _Embedder()

    engine = _Engine()
    forget_documents(engine)
    assert sorted(calls) == ["ladders", "links", "vectors"] and engine.loaded_embedder.labels == {"city": 1}
    engine.loaded_embedder = None  # nothing embedded yet: nothing to forget there
    forget_documents(engine)
