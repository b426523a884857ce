"""HTTP connections that cannot be held open for nothing (slowloris).

uvicorn's own HTTP protocol (h11) closes an idle keep-alive connection after
``timeout_keep_alive``, but a connection that sends a request's headers one byte at a
time, or never finishes its body, is held for ever, and nothing caps how many one
address opens.  ``guarded_http`` makes a subclass of uvicorn's ``H11Protocol`` that

* refuses a new connection from an address that already has
  ``Limits.http_connections_per_address`` open (an answer 429 and the connection
  closed, before anything is read), and
* closes a connection whose request (headers and body) has not arrived in full
  ``Limits.request_seconds`` after the connection opened or the previous response
  ended (answering 408 when no response has begun).

A connection that becomes a websocket leaves this count (the websocket has its own
cap, ``Limits.connections_per_address``, and must say hello within
``Limits.hello_timeout``).  Peers named by ``--forwarded-allow-ips`` (a reverse proxy,
which guards its own clients' connections) are not counted.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import defaultdict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def _answer(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"connection: close\r\ncontent-length: " + str(len(text)).encode() + b"\r\n\r\n" + text
    )


TOO_MANY = _answer(b"429 Too Many Requests", b"too many connections from this address")
TOO_SLOW = _answer(b"408 Request Timeout", b"the request took too long")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(spec: str | None) -> tuple[bool, list[Network]]:
    """``--forwarded-allow-ips``: "*" (every peer), or addresses and networks separated
    by commas.  Returns (every peer, networks); ValueError names a bad item."""
    if spec is None:
        return False, []
    items = [x.strip() for x in spec.split(",") if x.strip()]
    if items == ["*"]:
        return True, []
    nets: list[Network] = []
    for item in items:
        # as uvicorn reads the same flag: "*" only alone, and a network only in its
        # exact form (10.0.0.0/24, not 10.0.0.1/24), or the two would disagree on whom
        # to believe (found by review)
        if item == "*":
            raise ValueError("'*' trusts every peer: give it alone, not in a list")
        try:
            nets.append(ipaddress.ip_network(item, strict=True))
        except ValueError:
            try:
                exact = ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an IP address or network") from None
            raise ValueError(f"{item!r} has host bits set: did you mean {exact}?") from None
    return False, nets


def _trusted(addr: str, every: bool, nets: list[Network]) -> bool:
    if every:
        return True
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False
    return any(ip in net for net in nets)


def guarded_http(
    per_address: int, request_seconds: float, proxies: str | None = None
) -> type[H11Protocol]:
    """An ``H11Protocol`` with a per-address connection cap and a request deadline
    (module docstring); each call has its own count (one per server)."""
    every, nets = parse_proxies(proxies)
    counts: dict[str, int] = defaultdict(int)

    class GuardedH11Protocol(H11Protocol):
        open_by_address = counts  # for tests: the connections counted now

        _refused = False
        _counted: str | None = None
        _deadline: asyncio.TimerHandle | None = None
        _upgraded = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            addr = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
            if not _trusted(addr, every, nets):
                if counts[addr] >= per_address:
                    self._refused = True
                    transport.write(TOO_MANY)
                    transport.close()
                    return
                counts[addr] += 1
                self._counted = addr
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                return
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._upgraded = True
            self._disarm()
            self._release()
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def _release(self) -> None:
            addr, self._counted = self._counted, None
            if addr is not None:
                counts[addr] -= 1
                if counts[addr] <= 0:
                    del counts[addr]

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(request_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self._upgraded or self.transport.is_closing():
                return
            state: Any = self.conn.their_state
            if state is h11.IDLE and self.conn.our_state is h11.IDLE:
                self.transport.write(TOO_SLOW)  # no response begun: say why
                self.transport.close()
            elif state is h11.SEND_BODY:  # a body that never ends
                self.transport.close()

    return GuardedH11Protocol
