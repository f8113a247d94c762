"""The REST API application: `create_app` builds it, `run_server` serves it (the CLI's `serve`).

    >>> from simplemem_graph import Memory
    >>> from api.app import create_app
    >>> app = create_app(lambda: Memory.open("memory.db"))   # any ASGI server can run `app`

Errors come back as ``{"error": {"type": ..., "message": ...}}``; one handler maps each error class
to its status code (`ERROR_STATUS`).
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from api.auth import (
    ApiKeyring,
    ApiKeysSpec,
    AuthenticationError,
    NamespaceForbiddenError,
    load_api_keys,
    presented_key_of,
)
from api.limits import BodySizeLimitMiddleware, PayloadTooLargeError
from api.routes import job_problems, router
from api.schemas import API_VERSION, HealthzOut
from simplemem_graph.config import Settings, validate_namespace
from simplemem_graph.errors import (
    ConfigError,
    InputError,
    NotFoundError,
    SimpleMemError,
    StoreUnavailableError,
    TurnTooLargeError,
)
from simplemem_graph.memory import Memory

logger = logging.getLogger("simplemem_graph.api")

STATIC_DIR = Path(__file__).parent / "static"
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024  # an import of a few thousand events; anything bigger: paginate
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
# The one path that answers without a key when keys are configured: liveness, naming no tenant.
OPEN_PATHS = frozenset({"/v1/health"})

# Most specific class first: the first match wins.
ERROR_STATUS: tuple[tuple[type[SimpleMemError], int], ...] = (
    (AuthenticationError, 401),
    (NamespaceForbiddenError, 403),
    (PayloadTooLargeError, 413),
    (TurnTooLargeError, 413),
    (NotFoundError, 404),
    (InputError, 422),
    (ConfigError, 400),
    (StoreUnavailableError, 503),
)

MemorySource = Memory | Callable[[], Memory]


class MemoryPool:
    """One shared store and embedder; a `Memory` per namespace made with `with_namespace`.

    The base `Memory` is opened on first use when given as a factory, and then owned (closed) by
    the pool. Calls are serialised per namespace (`lock_for`), never across namespaces: one
    tenant's long ingest does not stall another's search. The stores are safe to share between
    threads (the embedded store serialises its own statements; the Neo4j driver pools sessions),
    and writers of one namespace in several processes are ordered by the store's lease.
    """

    def __init__(self, source: MemorySource):
        self._source = source
        self._owns_memory = not isinstance(source, Memory)
        self._base: Memory | None = source if isinstance(source, Memory) else None
        self._by_namespace: dict[str, Memory] = {}
        self._open_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    @property
    def base(self) -> Memory:
        if self._base is None:
            with self._open_lock:
                if self._base is None:
                    self._base = self._source()  # type: ignore[operator]
        return self._base

    def get(self, namespace: str) -> Memory:
        """The `Memory` of a namespace (validated; ConfigError on a bad name)."""
        memory = self._by_namespace.get(namespace)
        if memory is None:
            with self._open_lock:
                memory = self._by_namespace.get(namespace)
                if memory is None:
                    memory = self.base.with_namespace(validate_namespace(namespace))
                    self._by_namespace[namespace] = memory
        return memory

    def lock_for(self, namespace: str) -> threading.Lock:
        """The lock that serialises one namespace's calls (created on first use)."""
        with self._open_lock:
            return self._locks.setdefault(namespace, threading.Lock())

    def close(self) -> None:
        if self._owns_memory and self._base is not None:
            self._base.close()
            self._base = None


@dataclass(frozen=True)
class ApiLimits:
    """Request limits: bodies larger than `max_body_bytes` get 413 before they are parsed."""

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_turns_per_request: int = 1000


class KeyRequiredMiddleware:
    """With keys configured, every path but `OPEN_PATHS` needs a valid key: the routes, and also the
    OpenAPI document, the docs page, the inspector's files and unknown paths, so nothing about the
    service answers an anonymous caller. A browser is asked for the key with HTTP Basic (any user
    name, the key as password): the docs and the inspector stay usable, and the browser then sends
    it with the pages' own requests."""

    def __init__(self, app: ASGIApp, keyring: ApiKeyring):
        self.app = app
        self.keyring = keyring

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.keyring.enabled or scope["path"] in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            self.keyring.authenticate(presented_key_of(headers))
        except AuthenticationError as e:
            response = error_response(401, type(e).__name__, str(e))
            response.headers["WWW-Authenticate"] = 'Basic realm="simplemem-graph", charset="UTF-8"'
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def create_app(
    memory: MemorySource,
    *,
    api_keys: ApiKeysSpec = None,
    limits: ApiLimits | None = None,
    cors_origins: list[str] | None = None,
) -> FastAPI:
    """Build the REST API and the graph inspector over one memory store.

    Args:
        memory: a `Memory` (kept open, the caller closes it) or a zero-argument factory that
            opens one on first use (closed at shutdown). Its namespace is only the default; every
            route names its own namespace.
        api_keys: ``"key1:ns1,ns2;key2:*"``, a list of such entries, or a parsed mapping; None
            reads `SIMPLEMEM_API_KEYS`; empty means no authentication.
        limits: request size limits.
        cors_origins: origins whose pages may call the API from a browser (None reads
            `SIMPLEMEM_CORS_ORIGINS`; default none: no cross-origin page may).

    Returns:
        The FastAPI application (OpenAPI docs at /docs, inspector at /inspector/).
    """
    pool = MemoryPool(memory)
    limits = limits or ApiLimits()

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        pool.close()

    app = FastAPI(
        title="simplemem-graph",
        version=API_VERSION,
        description="Lifelong memory for LLM agents: add turns, search memories, inspect the graph.",
        lifespan=lifespan,
        # FastAPI's pages load Swagger UI and ReDoc from a CDN: blank offline, and a third party
        # sees every visit. /docs is a page of our own instead (static/docs.html).
        docs_url=None,
        redoc_url=None,
    )
    app.state.pool = pool
    app.state.keyring = load_api_keys(api_keys)
    app.state.limits = limits
    if cors_origins is None:
        cors_origins = Settings.from_env().cors_origins
    app.add_middleware(BodySizeLimitMiddleware, max_body_bytes=limits.max_body_bytes)
    app.add_middleware(KeyRequiredMiddleware, keyring=app.state.keyring)
    if cors_origins:
        # Outermost, so a preflight (which carries no key) is answered here.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type"],
        )
    _install_error_handlers(app)
    app.include_router(router)
    app.mount("/inspector", StaticFiles(directory=STATIC_DIR, html=True), name="inspector")

    @app.get("/", include_in_schema=False)
    def _root() -> RedirectResponse:
        return RedirectResponse("/inspector/")

    @app.get("/docs", include_in_schema=False)
    def _docs() -> HTMLResponse:
        return HTMLResponse((STATIC_DIR / "docs.html").read_text(encoding="utf-8"))

    @app.get("/healthz", response_model=HealthzOut, tags=["service"])
    def _healthz(request: Request) -> HealthzOut:
        """`ok`, or `degraded` with the job runs that failed or alerted and the turns set aside, in
        the namespaces the caller's key may use (a key is needed when keys are configured)."""
        return job_problems(request)

    return app


def error_response(status: int, error_type: str, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": {"type": error_type, "message": message}})


def _status_for(exc: SimpleMemError) -> int:
    return next((status for cls, status in ERROR_STATUS if isinstance(exc, cls)), 500)


def _install_error_handlers(app: FastAPI) -> None:
    """One mapping for our errors; the framework's own errors are reshaped to the same body."""

    @app.exception_handler(SimpleMemError)
    async def _simplemem_error(_request: Request, exc: SimpleMemError) -> JSONResponse:
        status = _status_for(exc)
        if status >= 500:
            logger.error("request failed: %s", exc, exc_info=exc)
        return error_response(status, type(exc).__name__, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(part) for part in err['loc'])}: {err['msg']}" for err in exc.errors()]
        return error_response(422, "ValidationError", "; ".join(problems))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(exc.status_code, "HTTPError", str(exc.detail))


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and `localhost`: addresses no other machine can reach."""
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, keyring: ApiKeyring, *, insecure: bool) -> None:
    """Refuse to expose an unauthenticated API beyond this machine unless told to.

    Raises:
        ConfigError: no API key is configured, `host` is not loopback and `insecure` is False.
    """
    if keyring.enabled:
        return
    if is_loopback(host):
        logger.warning(
            "no API key configured (SIMPLEMEM_API_KEYS): the API is open to anyone on this machine, "
            "and bound to %s only",
            host,
        )
        return
    if not insecure:
        raise ConfigError(
            f"serve: refusing to listen on {host!r} without API keys; set SIMPLEMEM_API_KEYS "
            "(e.g. 'key1:ns1,ns2;key2:*'), bind to 127.0.0.1, or pass --insecure"
        )
    logger.warning("--insecure: serving WITHOUT authentication on %s; anyone reaching it can read it", host)


def run_server(
    memory_factory: MemorySource,
    host: str = "127.0.0.1",
    port: int = 8000,
    api_keys: ApiKeysSpec = None,
    insecure: bool = False,
    *,
    limits: ApiLimits | None = None,
    cors_origins: list[str] | None = None,
    log_level: str = "info",
    worker: bool = True,
    worker_interval_s: float = 5.0,
) -> None:
    """Serve the API with uvicorn until interrupted (what `simplemem-graph serve` runs).

    Args:
        memory_factory: a `Memory` or a zero-argument callable opening one.
        host: interface to bind; anything but loopback needs API keys (or `insecure`).
        port: TCP port.
        api_keys: key spec, list of entries (repeated `--api-key`) or mapping; None reads
            `SIMPLEMEM_API_KEYS`.
        insecure: allow a non-loopback host without API keys.
        limits: request size limits.
        cors_origins: origins allowed to call from a browser page (None: `SIMPLEMEM_CORS_ORIGINS`).
        log_level: uvicorn log level.
        worker: run the background worker (consolidation of pending turns, the global pass) in
            this process, for every namespace of the store.
        worker_interval_s: seconds between two consolidations of pending turns.

    Raises:
        ConfigError: a malformed key spec, or a non-loopback host without keys or `insecure`.
    """
    import uvicorn

    keyring = load_api_keys(api_keys)
    check_bind(host, keyring, insecure=insecure)
    app = create_app(memory_factory, api_keys=keyring.keys, limits=limits, cors_origins=cors_origins)
    pool: MemoryPool = app.state.pool
    pool.base  # noqa: B018 - open the store and load the models before accepting requests
    job_worker = None
    if worker:
        from simplemem_graph.worker import Worker

        job_worker = Worker(pool.get, interval_s=worker_interval_s)
        job_worker.start()
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level)
    finally:
        if job_worker is not None:
            job_worker.stop()
