"""Real servers on 127.0.0.1 for tests (never any other address): re-exported from kg.oxiserver."""

from kg.oxiserver import free_port, oxigraph_server, wait_http

__all__ = ["free_port", "oxigraph_server", "wait_http"]
