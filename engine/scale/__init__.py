"""Throughput at scale: dense documents (linear in mentions), unseen documents per core."""
