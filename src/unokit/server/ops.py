"""What a site's operators watch: Prometheus metrics, readiness and JSON logs.

Issue 35, item 5.  Every ``unokit serve`` process exports its own figures at
``GET /metrics`` (Prometheus' text format, with the maintained ``prometheus-client``);
Prometheus scrapes each process, not the proxy in front of them, and its ``sum()``
over the processes gives the cluster's (docs/deploy.md, "Watching it").

* ``ROOMS``, ``CONNECTIONS``: what this process holds now (gauges);
* ``ACTIONS``: accepted actions, ``REFUSALS`` by code (``refused``), ``RECONNECTS``:
  counters; a rate of them is per second;
* ``COMMIT_SECONDS``: an action's log entry from queued to committed;
  ``TURN_SECONDS``: an action from its message's arrival until every connection of its
  room was sent what it may see (histograms).

``ops_router`` serves ``/metrics`` and ``/readyz`` (store and bus reachable; the
liveness probe ``/healthz`` is the app's own).  ``JsonFormatter`` writes one JSON
object a line, with the room and request ids a call passes through ``extra=``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import re
import secrets
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import IO, Any

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)

from unokit.server.codes import ALL_CODES

# ------------------------------------------------------------------ metrics --------
# A registry of our own (not prometheus-client's global one), so that importing a
# library that registers metrics never changes what /metrics shows; it carries the
# process' CPU, memory and descriptors and the garbage collector's figures too.
REGISTRY = CollectorRegistry()
process_collector.ProcessCollector(registry=REGISTRY)
platform_collector.PlatformCollector(registry=REGISTRY)
gc_collector.GCCollector(registry=REGISTRY)

# Seconds.  A commit is a round trip to the database and a WAL flush (about a
# millisecond on one host); a turn adds the room's lock, the engine and the sends.
LATENCY_BUCKETS = (
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
)  # fmt: skip

ROOMS = Gauge("unokit_rooms", "Rooms held in this process's memory", registry=REGISTRY)
CONNECTIONS = Gauge(
    "unokit_connections", "Open websocket connections to this process", registry=REGISTRY
)
ACTIONS = Counter(
    "unokit_actions", "Actions accepted: committed to the store and applied", registry=REGISTRY
)
REFUSALS = Counter(
    "unokit_refusals",
    "Messages and requests refused, by error code (docs/protocol.md)",
    ["code"],
    registry=REGISTRY,
)
RECONNECTS = Counter(
    "unokit_reconnects",
    "Connections that resumed a seat with its token after an earlier connection to it",
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "unokit_commit_seconds",
    "An action's log entry from queued to committed in the store",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
TURN_SECONDS = Histogram(
    "unokit_turn_seconds",
    "An action from its message's arrival until every connection of its room was sent it",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)


def refused(code: str) -> None:
    """Count one refusal.  A code that is not in the registry (``ALL_CODES``) counts as
    ``other``: the label's values stay the few the protocol names."""
    REFUSALS.labels(code=code if code in ALL_CODES else "other").inc()


def metrics_text() -> bytes:
    """This process's metrics in Prometheus' text format."""
    return generate_latest(REGISTRY)


# ------------------------------------------------------------------ readiness ------
Probe = Callable[[], Awaitable[object]]
Ready = Callable[[], Awaitable[dict[str, Any]]]
PROBE_SECONDS = 2.0  # a probe that takes longer failed: a load balancer is waiting


def readiness(timeout: float = PROBE_SECONDS, **probes: Probe) -> Ready:
    """A ``ready`` callable for ``ops_router`` from named probes (``store=..., bus=...``).

    Each probe is an async callable; it passes when it returns anything but ``False``
    within ``timeout`` seconds, and fails with its error's text otherwise.  They run at
    the same time.  A blocking check belongs in a thread: ``lambda:
    asyncio.to_thread(store.ping)``.  The result maps each name to ``True`` or why not."""

    async def check(probe: Probe) -> bool | str:
        try:
            result = await asyncio.wait_for(probe(), timeout)
        except TimeoutError:
            return f"no answer within {timeout:g} s"
        except Exception as e:  # whatever a driver raises is a failed probe, not a 500
            return f"{type(e).__name__}: {e}".strip(": ") or type(e).__name__
        return True if result is not False else "not ready"

    async def ready() -> dict[str, Any]:
        names = list(probes)
        results = await asyncio.gather(*(check(probes[n]) for n in names))
        return dict(zip(names, results, strict=True))

    return ready


def ops_router(ready: Ready, timeout: float = PROBE_SECONDS) -> APIRouter:
    """``GET /metrics`` and ``GET /readyz``.

    ``ready`` returns a dict of check -> ``True`` when it passed, anything else (``False``
    or why not) when it failed, such as ``readiness(store=..., bus=...)`` builds.
    ``/readyz`` answers 200 ``{"ok": true, "checks": {...}}`` when every check passed,
    else 503 ``{"ok": false, "failed": [names], "checks": {...}}``; a ``ready`` that
    raises or takes over ``timeout`` seconds is the failed check ``ready``."""
    router = APIRouter()

    @router.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(metrics_text(), media_type=CONTENT_TYPE_LATEST)

    @router.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        try:
            checks = dict(await asyncio.wait_for(ready(), timeout))
        except TimeoutError:
            checks = {"ready": f"no answer within {timeout:g} s"}
        except Exception as e:
            checks = {"ready": f"{type(e).__name__}: {e}"}
        shown = {k: True if v is True else str(v or "not ready") for k, v in checks.items()}
        failed = [k for k, v in shown.items() if v is not True]
        if failed:
            return JSONResponse(
                {"ok": False, "failed": failed, "checks": shown},
                status_code=503,
                headers={"Cache-Control": "no-store"},
            )
        return JSONResponse({"ok": True, "checks": shown}, headers={"Cache-Control": "no-store"})

    return router


# ------------------------------------------------------------------ request ids ----
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def request_id(headers: Mapping[str, str]) -> str:
    """The request's id: the proxy's ``X-Request-ID`` (nginx's ``$request_id``, see
    deploy/nginx.conf) when it is a plain token of at most 64 characters, else a new
    one, so a log line never carries what a client chose to write into it."""
    given = headers.get("x-request-id", "")
    return given if _REQUEST_ID.fullmatch(given) else secrets.token_hex(8)


# ------------------------------------------------------------------ JSON logs ------
# What every LogRecord has; anything else on a record came through ``extra=``, except
# uvicorn's ``color_message`` (its message again, with terminal colour codes).
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601, milliseconds), ``level``,
    ``logger``, ``message``, then whatever the call passed with ``extra=`` (``room``,
    ``request_id``, ``seat``...; values that are not JSON are written as their
    ``repr``), and ``exc`` with the traceback when there is one.

    ``log.warning("seat resumed", extra={"room": "K7PQ2M", "request_id": "ab12"})``
    writes ``{"time": "2026-12-04T19:02:03.120Z", "level": "WARNING", "logger": "unokit.server",
    "message": "seat resumed", "room": "K7PQ2M", "request_id": "ab12"}``.
    """

    def format(self, record: logging.LogRecord) -> str:
        when = dt.datetime.fromtimestamp(record.created, dt.UTC)
        out: dict[str, Any] = {
            "time": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=repr)


# uvicorn's own loggers: with ``uvicorn.run(..., log_config=None)`` they keep no
# handlers of their own and pass their lines to the root logger's JSON handler.
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


def install_json_logging(
    level: int = logging.INFO, stream: IO[str] | None = None
) -> logging.Handler:
    """Send every log line of this process (unokit's and uvicorn's) to ``stream``
    (standard error by default) as JSON, one object a line; returns the handler.

    Call it before ``uvicorn.run(..., log_config=None)``: uvicorn's default
    ``log_config`` would give its loggers their own text handlers again."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        if isinstance(old.formatter, JsonFormatter):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.disabled = False  # an earlier dictConfig may have silenced or raised them
        logger.setLevel(logging.NOTSET)
    return handler
