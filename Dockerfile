# taxogen HTTP API on the starter graph with the shipped ranker.
# Build: docker build -t taxogen .     Run: docker run -p 8000:8000 taxogen
FROM python:3.11-slim

ENV PIP_NO_CACHE_DIR=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONUNBUFFERED=1
# A CPU build of torch first, so that sentence-transformers does not pull a CUDA build.
# Pass --build-arg TORCH_INDEX=<a CPU wheel index> where the default index serves CUDA builds.
ARG TORCH_INDEX=""
RUN if [ -n "$TORCH_INDEX" ]; then pip install torch==2.13.0 --index-url "$TORCH_INDEX"; \
    else pip install torch==2.13.0; fi

WORKDIR /app
COPY pyproject.toml README.md ./
COPY kg ./kg
COPY engine ./engine
COPY queries ./queries
COPY ontology ./ontology
COPY packs ./packs
RUN pip install '.[server]'
# the starter graph's store, built into the image's cache once (else on the first request)
RUN taxogen kg starter

EXPOSE 8000
# `taxogen serve` without --store uses the starter graph shipped in the package.
CMD ["taxogen", "serve", "--host", "0.0.0.0", "--port", "8000"]
