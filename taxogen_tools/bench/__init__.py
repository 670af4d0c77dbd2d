"""Benchmarks: sanitize throughput, the HTTP endpoint and the whole-Wikidata scale bench."""
