"""``taxogen serve``: the HTTP API."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from engine.cli.common import ConfigOpt, EndpointOpt, OfflineOpt, StoreOpt, UserAgentOpt, build_engine, fail


def serve(
    store: Optional[Path] = StoreOpt,
    config: Optional[Path] = ConfigOpt,
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8000, "--port"),
    max_body: int = typer.Option(1_000_000, "--max-body", help="Largest accepted request body, in bytes."),
    endpoint: Optional[str] = EndpointOpt,
    offline: bool = OfflineOpt,
    user_agent: Optional[str] = UserAgentOpt,
    warm: bool = typer.Option(True, "--warm-up/--no-warm-up", help="Answer an invented document before reporting ready, so a first request is fast."),
) -> None:
    """Run the HTTP API (FastAPI + uvicorn); OpenAPI docs at /docs."""
    if not 0 <= port <= 65535:
        fail(ValueError(f"--port must be between 0 and 65535, got {port}"))
    if max_body < 1:
        fail(ValueError("--max-body must be at least 1 byte"))
    try:
        import uvicorn

        from engine.api import create_app
    except ImportError as exc:
        fail(ImportError(f"the HTTP API needs the 'server' extra: pip install 'taxogen[server]' ({exc})"))
        return
    engine = build_engine(config, store, endpoint, offline, user_agent)
    if warm:
        from engine.warmup import warm_up

        warm_up(engine, progress=lambda m: typer.echo(m, err=True))
    uvicorn.run(create_app(engine, max_body_bytes=max_body), host=host, port=port)
