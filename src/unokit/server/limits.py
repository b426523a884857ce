"""What one client may make the server spend: the limits and the rate counters that
enforce them (docs/server.md, "Limits")."""

from __future__ import annotations

import math
import time
from collections import defaultdict, deque
from dataclasses import dataclass

from unokit.server import messages as m


@dataclass(frozen=True)
class Limits:
    """What one client may make the server spend (docs/server.md, "Limits")."""

    message_bytes: int = m.MAX_MESSAGE
    messages_per_second: float = 20.0  # per connection, with a burst of twice that
    chat_per_minute: int = 20
    reactions_per_minute: int = 20
    # and at most this many in any 10 s: 25 quick clicks on one reaction put 20
    # identical lines in everyone's log, and the game's lines scrolled away (issue 49, M5)
    reactions_per_10_seconds: int = 3
    ready_per_10_seconds: int = 4  # the lobby's ready check (issue 49)
    connections_per_address: int = 30
    rooms_per_address_per_hour: int = 30
    joins_per_address_per_minute: int = 30  # joins and token checks (guessing)
    lists_per_address_per_minute: int = 60  # the home page's list of public rooms
    profiles_per_address_per_hour: int = 10  # profiles made (issue 49 item 4)
    send_queue: int = 256  # messages waiting for a slow client before it is dropped
    hello_timeout: float = 10.0
    room_idle_seconds: float = 6 * 3600.0  # nobody connected, no change: the room goes
    store_retry: float = 1.0  # after a storage failure, moves are refused this long
    # look-ups of a room code that does not exist (HTTP and websocket): past this, every
    # look-up from the address is refused (429) until the minute has passed
    lookups_per_address_per_minute: int = 30
    # the replay viewer: records turned into frames (CPU), and their size
    replays_per_address_per_minute: int = 20
    record_bytes: int = 4 * 1024 * 1024
    # a websocket frame (message) over this is refused by the websocket layer before it
    # is buffered (close 1009); between message_bytes and this it is answered too_big
    frame_bytes: int = 64 * 1024
    # messages over the rate: the first few are answered rate_limited, the next are
    # dropped unread, and a connection this many messages over is closed (1008)
    rate_replies: int = 3
    flood_close_after: int = 40
    # an address whose connections were closed for flooding this often in a minute
    # may not open websockets until the minute has passed
    floods_per_address_per_minute: int = 3
    # HTTP: open connections per address (a proxy named by --forwarded-allow-ips is
    # not counted); a request's headers and body must arrive within request_seconds
    # of the connection or of the previous response; an idle connection closes after
    # keep_alive_seconds; a request's headers have at most header_bytes.  64, not 20:
    # friends at one table often share a router's address, and a browser opens up to
    # five connections while the page's modules load (20 turned away the fifth friend)
    http_connections_per_address: int = 64
    request_seconds: float = 10.0
    keep_alive_seconds: float = 5.0
    header_bytes: int = 16 * 1024


class Window:
    """Counts events per key in a sliding time window (rate limits)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.hits: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        q = self.hits[key]
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True

    def full(self, key: str) -> bool:
        """Whether ``key`` has used its allowance (without counting an event)."""
        q = self.hits.get(key)
        if not q:
            return False
        now = time.monotonic()
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if not q:
            del self.hits[key]
            return False
        return len(q) >= self.limit


class Bucket:
    """A token bucket for messages per second on one connection."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = rate * 2
        self.at = time.monotonic()

    def take(self) -> bool:
        return self.owe() == 0

    def owe(self) -> int:
        """Take a token for a message; how many messages the connection is over its rate
        (0: the message is within it).  A message over the rate takes a token as well,
        so a connection that keeps sending faster than the rate owes more and more,
        and one that pauses is back within it once the tokens have come back."""
        now = time.monotonic()
        self.tokens = min(self.rate * 2, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        return 0 if self.tokens >= 0 else math.ceil(-self.tokens)
