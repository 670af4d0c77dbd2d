"""Generate: link a span to the graph and build its ladder of true, ordered rungs."""
