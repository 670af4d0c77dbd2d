"""Input and output at the edges of the engine: the input contract, span boundaries, files."""
