"""How the servers of a cluster tell each other that a room changed (issue 35 item 3).

Every server of a cluster keeps the rooms its players use in memory, but the order of
a room is decided by the store (one log entry per index, ``Store.append_at``), not by
any server.  After a server stores a change it publishes a small message on the bus;
every other server holding that room applies the entries in it (or, if it missed
something, reads the room again from the store) and tells its own connections, each
its own seat's view.  The bus carries hints, never the truth: a lost message delays a
view, it cannot make one wrong, because whatever arrives is checked against the
store's order (``Peers.on_bus``).

``LocalBus`` is the one-process server's (nothing to tell).  ``RedisBus`` uses Redis
pub/sub (``unokit serve --bus redis://...``) through the maintained ``redis`` library:
one channel per room (``unokit:room:CODE``), one subscriber connection per server,
publishing from one task so a burst of changes costs one round trip per batch.  A
server subscribes to the channels of the rooms it holds in memory (``watch``, before it
reads the room from the store, so that no change made after the read goes unheard) and
leaves them when a room leaves its memory (``unwatch``): a server hears only the rooms
it holds.  With one channel for every room each server heard every message of the
cluster; with rooms whose players sit on one server (a proxy hashing the room code)
that was a quarter of a server's CPU, spent on messages it threw away.  A message is
JSON whose first key is the sending server's origin: a server skips its own by their
first bytes, without parsing them, and hiredis (the redis extra) parses replies.

A room held by one server alone is not published at all.  PUBLISH answers how many
subscribers got the message: when that is only the server itself, the room is
``alone`` and its next changes are not sent (Redis would only hand them back to their
sender).  A server that starts holding a room says so on its channel (``{"t":
"watch"}``) once subscribed, before it reads the room; the holder then publishes
again, starting with the room's tip (its version: ``Peers.on_bus``), so a change it
made unpublished between that read and the hello is fetched from the store.  A publish
sent before the last hello was heard cannot mark the room alone (its count may predate
the newcomer).
When Redis goes away the bus says so (``healthy``, ``/readyz``) and keeps trying; when
it is back it subscribes to every room again and the server reads every room it holds
from the store again (``on_reconnect``, beside the listener, so other servers' hellos
do not wait behind it), since messages sent meanwhile are lost.  The subscriber
connection is pinged through itself after 5 s of silence and replaced when a ping has
gone 8 s unanswered (a dead one is found within about 15 s): one that died silently
(half-open TCP) would otherwise be noticed only by the kernel, minutes later, and a
server alone on a room would hear nothing meanwhile.  A hello whose PUBLISH failed is
sent again, once per room however often it was said (a lost change only delays a
view; a lost hello leaves a holder silent towards this server).

Servers from before per-room channels (one channel, ``unokit:rooms``) and after do not
hear each other: upgrade a cluster across that change by restarting all its processes
together (docs/deploy.md, "Rolling upgrades").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

log = logging.getLogger("unokit.server")

PREFIX = "unokit:room:"  # a room's channel: PREFIX + its code
RETRY = 0.5  # seconds between attempts to reach Redis again
CONFIRM = 2.0  # seconds ``watch`` waits for Redis to confirm a subscription
IDLE = 5.0  # seconds of silence on the subscriber connection before it is pinged
DEAD = 8.0  # seconds a ping on it may go unanswered before it is taken for dead


def channel(code: str) -> bytes:
    return (PREFIX + code).encode()


OnMessage = Callable[[dict[str, Any]], None]
OnReconnect = Callable[[], Awaitable[None]]


class LocalBus:
    """One server alone: nothing to publish, nothing to hear."""

    cluster = False

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)

    async def start(self, on_message: OnMessage, on_reconnect: OnReconnect) -> None:
        return None

    def publish(self, msg: dict[str, Any]) -> None:
        return None

    async def watch(self, code: str) -> None:
        return None

    def unwatch(self, code: str) -> None:
        return None

    def healthy(self) -> bool:
        return True

    async def close(self) -> None:
        return None


class RedisBus:
    """Redis pub/sub between the servers of a cluster."""

    cluster = True

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis  # the redis extra

        self.url = url
        self.origin = secrets.token_hex(6)
        self._prefix = orjson.dumps({"origin": self.origin})[:-1]  # b'{"origin":"..."'
        self._redis: Any = aioredis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )
        self._queue: list[tuple[str, bytes, bool]] = []  # (room code, message, hello?)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._up = False
        self._watched: set[str] = set()  # the codes of the rooms this server holds
        self._pubsub: Any = None  # the listener's subscriber connection, once made
        self._confirm: dict[bytes, asyncio.Future[None]] = {}  # channel -> subscribed
        self._leaving: set[asyncio.Task[None]] = set()
        self._alone: set[str] = set()  # rooms whose last PUBLISH reached only this server
        self._hello: dict[str, float] = {}  # room -> when another server last said watch
        self._subscribed: set[bytes] = set()  # channels whose subscription Redis confirmed
        self._rereading: asyncio.Task[None] | None = None  # on_reconnect, apart
        # a subscriber connection can die silently (a half-open TCP connection: the
        # kernel's retries take many minutes to notice); a ping on that connection
        # itself, answered through it, is what proves it alive (tests shorten these)
        self.idle, self.dead = IDLE, DEAD
        self._hellos: set[str] = set()  # rooms whose hello is in the queue (one each)
        self.skipped = 0  # messages not sent: nobody else held the room
        self.published = 0
        self.received = 0
        self.dropped = 0  # messages lost while Redis was away

    def healthy(self) -> bool:
        return self._up

    async def start(self, on_message: OnMessage, on_reconnect: OnReconnect) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(on_message, on_reconnect)),
            loop.create_task(self._send()),
        ]

    def publish(self, msg: dict[str, Any]) -> None:
        if len(self._queue) >= 10_000:  # Redis away for long: the store has it all
            self.dropped += 1
            return
        # the origin as the first key: every subscriber, this server too, gets every
        # message, and its own are known by their first bytes and not parsed; still
        # plain JSON, so servers of another version read it (a rolling upgrade)
        code = msg.get("code")
        if not isinstance(code, str):
            return  # every message is about one room
        if code in self._alone:
            self.skipped += 1
            return
        hello = msg.get("t") == "watch"
        if hello:
            if code in self._hellos:
                return  # one is waiting to be sent: a second would only be answered twice
            self._hellos.add(code)
        data = {"origin": self.origin}
        data.update((k, v) for k, v in msg.items() if k != "origin")
        self._queue.append((code, orjson.dumps(data), hello))
        self._wake.set()

    async def watch(self, code: str) -> None:
        """Hear ``code``'s messages from now on: returns once Redis confirmed the
        subscription (or after ``CONFIRM`` s, or at once while Redis is away: the
        listener subscribes to every watched room when it is back, and the server then
        reads every room again)."""
        if code in self._watched:
            return
        self._watched.add(code)
        pubsub = self._pubsub
        if pubsub is None or pubsub.connection is None:
            return  # the listener subscribes to it once connected (two connects race)
        ch = channel(code)
        done = self._confirm.get(ch)
        if done is None:
            done = self._confirm[ch] = asyncio.get_running_loop().create_future()
        try:
            await pubsub.subscribe(ch)
            await asyncio.wait_for(asyncio.shield(done), CONFIRM)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # Redis went away meanwhile: the listener catches up
            log.warning("bus: no confirmed subscription to room %s: %s", code, e)
        finally:
            if self._confirm.get(ch) is done:
                del self._confirm[ch]
        self.publish({"t": "watch", "code": code})  # a holder alone sends again

    def unwatch(self, code: str) -> None:
        """The room left this server's memory: stop hearing it."""
        if code not in self._watched:
            return
        self._watched.discard(code)
        self._alone.discard(code)
        self._hello.pop(code, None)
        pubsub = self._pubsub
        if pubsub is None or not self._up:
            return

        async def leave() -> None:
            if code in self._watched:  # watched again meanwhile
                return
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe(channel(code))

        task = asyncio.get_running_loop().create_task(leave())
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis is away: the listener notices and retries
                if self._up:
                    log.warning("bus: cannot publish to Redis: %s", e)
                if self._queue:  # the hellos put back: tried again in a moment
                    await asyncio.sleep(RETRY)
                    self._wake.set()

    async def _flush(self) -> None:
        batch, self._queue = self._queue, []
        if not batch:
            return
        self._hellos.clear()  # (hellos put in the queue from now on are new ones)
        sent = time.monotonic()
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for code, data, _ in batch:
                    pipe.publish(channel(code), data)
                heard = await pipe.execute()
        except BaseException:
            # a change lost is a view delayed (the store has it; a server that misses
            # one reads the room again), but a hello lost leaves a holder that thinks
            # it is alone silent towards this server for as long as both hold the room
            again = [m for m in batch if m[2] and m[0] in self._watched]
            again = [m for m in again if m[0] not in self._hellos]  # newer one queued
            self._hellos.update(m[0] for m in again)
            self._queue[:0] = again
            self.dropped += len(batch) - len(again)
            raise
        self.published += len(batch)
        for (code, _, _), n in zip(batch, heard, strict=True):
            if not isinstance(n, int) or code not in self._watched:
                continue
            if n > 1:
                self._alone.discard(code)
            elif sent > self._hello.get(code, -1.0) and channel(code) in self._subscribed:
                # (its count includes this server only once its subscription is live)
                self._alone.add(code)

    async def _listen(self, on_message: OnMessage, on_reconnect: OnReconnect) -> None:
        first = True
        while True:
            pubsub = self._redis.pubsub()
            try:
                # a channel of its own first (a subscriber connection with no channel
                # would not wait for messages), then every room it holds; a room
                # watched from here on subscribes through this connection itself
                self._pubsub = pubsub
                rooms = list(self._watched)
                mine = f"unokit:server:{self.origin}".encode()
                waiting = {mine, *(channel(c) for c in rooms)}
                await pubsub.subscribe(*waiting)
                # confirmed before anything else: a server alone on a room publishes
                # nothing until it hears this one's hello, which must come after
                deadline = time.monotonic() + CONFIRM
                held = set(rooms)
                while True:
                    while waiting and time.monotonic() < deadline:
                        msg = await pubsub.get_message(timeout=CONFIRM)
                        if msg is not None:
                            if msg.get("type") == "subscribe":
                                waiting.discard(msg.get("channel"))
                            self._handle(msg, on_message)
                    if mine not in self._subscribed:  # Redis does not answer
                        raise ConnectionError("Redis did not confirm a subscription")
                    # rooms watched meanwhile, before this connection was made
                    extra = [c for c in self._watched if c not in held]
                    if not extra:
                        break
                    held.update(extra)
                    waiting = {channel(c) for c in extra}
                    await pubsub.subscribe(*waiting)
                # rooms that left memory meanwhile (``unwatch`` had no connection)
                gone = [channel(c) for c in held if c not in self._watched]
                if gone:
                    await pubsub.unsubscribe(*gone)
                self._up = True
                self._alone.clear()  # who holds what is known again by publishing
                # rooms watched during the wait subscribed through ``watch`` itself;
                # the hellos go for every room held now
                rooms = list(self._watched)
                for code in rooms:  # (a blip of this server's alone: nobody else knows)
                    self.publish({"t": "watch", "code": code})
                if not first:
                    log.warning("bus: Redis is back; reading every room again")
                    self._reread(on_reconnect)
                first = False
                unanswered: float | None = None  # when the oldest unanswered ping went
                while True:
                    msg = await pubsub.get_message(timeout=self.idle)
                    if msg is None:  # (after a stalled loop the timeout can win over a
                        msg = await pubsub.get_message(timeout=0)  # reply already here)
                    now = time.monotonic()
                    if msg is None:
                        if unanswered is not None and now - unanswered > self.dead:
                            raise ConnectionError(
                                f"a ping on the subscriber connection unanswered for "
                                f"{now - unanswered:.1f} s"
                            )
                        if unanswered is None:
                            unanswered = now
                        await pubsub.ping(b"unokit")  # its answer comes back as a message
                        continue
                    unanswered = None
                    self._handle(msg, on_message)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self._up:
                    log.warning("bus: lost Redis (%s); retrying every %.1f s", e, RETRY)
                self._up = False
                first = False
                await asyncio.sleep(RETRY)
            finally:
                self._pubsub = None
                self._subscribed.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _reread(self, on_reconnect: OnReconnect) -> None:
        """Run ``on_reconnect`` beside the listener: it reads every room from the store,
        which takes a while with many rooms, and other servers' hellos and changes must
        not wait behind it (a change heard for a room being read waits for its lock)."""
        if self._rereading is not None:
            self._rereading.cancel()  # a second outage: reading from the start again

        async def run() -> None:
            try:
                await on_reconnect()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bus: reading the rooms again failed")

        self._rereading = asyncio.get_running_loop().create_task(run())

    def _handle(self, msg: dict[str, Any], on_message: OnMessage) -> None:
        """One reply of the subscriber connection: a confirmed subscription, or a
        message (this server's own are skipped unparsed)."""
        if msg.get("type") != "message":
            ch: bytes = msg.get("channel", b"")
            if msg.get("type") == "unsubscribe":
                self._subscribed.discard(ch)
            if msg.get("type") == "subscribe":
                self._subscribed.add(ch)
                done = self._confirm.get(ch)
                if done is not None and not done.done():
                    done.set_result(None)
            return
        raw = msg.get("data")
        if not isinstance(raw, bytes) or raw.startswith(self._prefix):
            return  # this server's own message
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return
        if not isinstance(data, dict) or data.get("origin") == self.origin:
            return
        self.received += 1
        code = data.get("code")
        if isinstance(code, str):
            # another server publishes this room, so it holds it: not alone
            self._alone.discard(code)
            if data.get("t") == "watch":
                self._hello[code] = time.monotonic()
        try:
            on_message(data)
        except Exception:  # a message this server cannot use is not a lost Redis
            log.exception("bus: a message from another server failed")

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        if self._queue and self._up:  # the last changes, for the other servers
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._flush(), 2.0)
        tasks = [*self._tasks, *self._leaving]
        if self._rereading is not None:
            tasks.append(self._rereading)
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a shutdown must not hang on a read that missed its cancel
            await asyncio.wait(tasks, timeout=2.0)
        with contextlib.suppress(Exception):
            await self._redis.aclose()


class Hub:
    """Several servers in one process (tests): what one publishes, the others hear, at
    the next turn of the loop, as over Redis."""

    def __init__(self) -> None:
        self.buses: list[HubBus] = []


class HubBus:
    """One server's end of a ``Hub``."""

    cluster = True

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.origin = secrets.token_hex(6)
        self.up = True  # tests cut it (messages are lost) and restore it
        self.watched: set[str] = set()  # as RedisBus: only these rooms' messages
        self._on_message: OnMessage | None = None
        self._on_reconnect: OnReconnect | None = None
        hub.buses.append(self)

    async def start(self, on_message: OnMessage, on_reconnect: OnReconnect) -> None:
        self._on_message, self._on_reconnect = on_message, on_reconnect

    def publish(self, msg: dict[str, Any]) -> None:
        if not self.up:
            return
        data = orjson.dumps({**msg, "origin": self.origin})
        loop = asyncio.get_running_loop()
        for bus in self.hub.buses:
            if (
                bus is not self
                and bus.up
                and bus._on_message is not None
                and msg.get("code") in bus.watched
            ):
                loop.call_soon(bus._on_message, orjson.loads(data))

    async def watch(self, code: str) -> None:
        if code not in self.watched:
            self.watched.add(code)
            self.publish({"t": "watch", "code": code})

    def unwatch(self, code: str) -> None:
        self.watched.discard(code)

    def healthy(self) -> bool:
        return self.up

    async def back(self) -> None:
        """The bus returns after ``up = False``: the server reads its rooms again."""
        self.up = True
        if self._on_reconnect is not None:
            await self._on_reconnect()

    async def close(self) -> None:
        if self in self.hub.buses:
            self.hub.buses.remove(self)


Bus = LocalBus | RedisBus | HubBus


def open_bus(url: str | None) -> Bus:
    if url is None:
        return LocalBus()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"{url!r} is not a Redis URL such as redis://127.0.0.1:6379/0")
    return RedisBus(url)
