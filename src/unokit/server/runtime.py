"""How ``unokit serve`` runs the app: uvicorn's options, a graceful stop that says
goodbye first, and the garbage collector tuned for a server of long-lived rooms."""

from __future__ import annotations

import gc
import logging
import sys
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from unokit.server.limits import Limits

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")

# How ``unokit serve`` runs uvicorn (the load test runs the server the same way).
# permessage-deflate is off: messages are a few kB of JSON, and compressing each one
# cost 14% of the server's CPU under load and a zlib state (~300 kB) per connection
# (docs/reliability.md).
# The event loop is uvloop where it is installed (a dependency on Linux and macOS),
# asyncio's own elsewhere: "auto".
# Forwarded headers (X-Forwarded-For) are off: uvicorn would believe them from
# 127.0.0.1, so anyone could pick the address every limit counts; ``serve_options``
# turns them on for the proxies named by ``--forwarded-allow-ips`` only.  A websocket
# frame over ``Limits.frame_bytes`` is refused by the websocket layer before it is
# buffered (uvicorn's default is 16 MiB).
UVICORN_OPTIONS: dict[str, Any] = {
    "loop": "auto",
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "ws_max_size": Limits.frame_bytes,
    "proxy_headers": False,
    "log_level": "warning",
    # SIGTERM: stop accepting, close websockets (1012: reconnect), finish what is in
    # flight, then the lifespan's end hands the leases over (``Server.close``)
    "timeout_graceful_shutdown": 10,
}


def serve_options(limits: Limits, forwarded_allow_ips: str | None = None) -> dict[str, Any]:
    """uvicorn's options as ``unokit serve`` runs it: ``UVICORN_OPTIONS``, the HTTP
    protocol with a per-address connection cap and a request deadline (``guard``),
    uvicorn's keep-alive and header-size limits, and forwarded headers believed only
    from ``forwarded_allow_ips`` (addresses or networks, comma-separated; None: off)."""
    from unokit.server.guard import guarded_http

    options = {
        **UVICORN_OPTIONS,
        "ws_max_size": limits.frame_bytes,
        "http": guarded_http(
            limits.http_connections_per_address, limits.request_seconds, forwarded_allow_ips
        ),
        "timeout_keep_alive": limits.keep_alive_seconds,
        "h11_max_incomplete_event_size": limits.header_bytes,
    }
    if forwarded_allow_ips is not None:
        options["proxy_headers"] = True
        options["forwarded_allow_ips"] = forwarded_allow_ips
    return options


# The cyclic garbage collector, tuned for a server that holds many long-lived rooms:
# with Python's defaults (700, 10, 10) it ran so often, walking every room and
# connection, that 1,000 rooms at human pace saw p99 latencies of 466-596 ms; with
# these thresholds the same load gives p99 6 ms.  They leave the oldest generation
# almost never collected, so what reaches it must not need the collector: closed
# connections did (``release_closed_transports``).  A full collection every
# FULL_COLLECTION_SECONDS (``Upkeep.collect_every``) is the safety net for any other
# cycle; it costs about a quarter of a second of CPU with 1,000 rooms in memory
# (docs/reliability.md).
GC_THRESHOLDS = (100_000, 50, 100)
FULL_COLLECTION_SECONDS = 600.0


def serve(app: FastAPI, host: str, port: int, **options: Any) -> None:
    """``uvicorn.run``, with a graceful stop that says goodbye first.

    On SIGTERM uvicorn closes every websocket (1012) and only then runs the app's
    shutdown, too late to tell anyone anything: here the listeners close, then the
    server hands its leases over and tells its clients it is restarting
    (``Server.farewell``), then uvicorn goes on (in-flight commits finish within
    ``timeout_graceful_shutdown``)."""
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            for listener in self.servers:  # no new connection meanwhile
                listener.close()
            unokit: Server | None = getattr(app.state, "server", None)
            if unokit is not None:
                try:
                    await unokit.farewell()
                except Exception:  # a failed goodbye must not stop the stop
                    log.exception("the farewell failed")
            await super().shutdown(sockets)

    _Server(uvicorn.Config(app, host=host, port=port, **options)).run()


def tune_gc() -> None:
    """Set ``GC_THRESHOLDS`` for this process (``unokit serve`` does, tests do not);
    pair it with ``create_app(full_collection_seconds=FULL_COLLECTION_SECONDS)``."""
    gc.set_threshold(*GC_THRESHOLDS)
    release_closed_transports()


def release_closed_transports() -> None:
    """Backport of CPython gh-100348 (fixed in 3.12) to the 3.11 this may run on.

    On 3.11 a socket transport keeps a bound method of itself (``_read_ready_cb``)
    after its connection is lost: every closed connection leaves a reference cycle
    (the transport, its socket, dict and method) that only a full collection frees,
    which is what made a churning server's memory rise under the tuned thresholds.
    Dropping the method when the connection is lost, as 3.12's ``close()`` does, lets
    reference counting free the transport at once.
    """
    if sys.version_info >= (3, 12):
        return
    from asyncio import selector_events

    cls: Any = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009
    if getattr(cls, "_unokit_releases_cb", False):
        return
    lost = cls._call_connection_lost

    def _call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lost(self, exc)
        finally:
            self._read_ready_cb = None

    cls._call_connection_lost = _call_connection_lost
    cls._unokit_releases_cb = True
