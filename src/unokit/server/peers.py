"""What a server of a cluster hears from and tells the others (the bus): the news of
each change it stores, the rooms it reads again when it missed some, who is connected
where (presence), and, while the bus is down, its clients' rooms read from the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from unokit.server.clock import now as clock_now
from unokit.server.conns import err
from unokit.server.room import Room
from unokit.server.store import StoreError

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")

PRESENCE_EVERY = 5.0  # seconds between a server's reports of who is connected to it
WATCHERS_LISTED = 50  # spectators named in the list (the count counts them all)
# While the bus is down, how often a server reads the rooms its clients are in from the
# store (``read_while_deaf``): the pace of play across servers during an outage
DEAF_READ_EVERY = 0.5  # seconds
PRESENCE_TTL = 12.0  # a server not heard from for this long has no one connected
QUIET = 2 * PRESENCE_EVERY  # ``Peers.quiet_rooms``: a room's other servers this silent
QUIET_READ_EVERY = 2.0  # seconds between two reads of one quiet room
QUIET_FOR = 120.0  # read a silent server's player's room for this long at most


def news(room: Room, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """A bus message: ``room``'s latest ``entries`` (its log's last ones) and where it
    stands (``rev``, game, log length), so a server can apply them or read the rest."""
    return {
        "code": room.code,
        "rev": room.rev,
        "game": room.game_no,
        "start": room.log_len - len(entries),
        "entries": entries,
    }


class Peers:
    """The cluster's other servers, as one server hears and tells them."""

    def __init__(self, server: Server) -> None:
        self.server = server
        # code -> other server -> (when heard, seat -> open connections there)
        self.presence: dict[str, dict[str, tuple[float, dict[int, int]]]] = defaultdict(dict)
        # the spectators of a room on the cluster's other servers: origin -> (when
        # heard, their names, how many), from the same presence messages
        self.watching: dict[str, dict[str, tuple[float, list[str], int]]] = defaultdict(dict)
        self.deaf_reads = 0  # turns of ``read_while_deaf`` (the bus was down)
        # code -> seat -> (the server it sits on, when that server last said so): its
        # presence reports (``quiet_rooms``); and when a quiet room was last read
        self.seen_at: dict[str, dict[int, tuple[str, float]]] = defaultdict(dict)
        self.quiet_read: dict[str, float] = {}
        # a player's server silent this long while the player is to act: its bus may be
        # down though this one's is not
        self.quiet = QUIET
        self.quiet_reads = 0  # quiet rooms read from the store

    # ------------------------------------------------------------------ cluster ---
    def announce(self, room: Room) -> None:
        """Tell the cluster's other servers what this one just stored for ``room``: the
        new entries (they apply them) and the room's ``rev`` (if it moved, they read
        the room again)."""
        if not self.server.cluster:
            room.unsent.clear()
            return
        entries, room.unsent = room.unsent, []
        self.server.bus.publish(news(room, entries))

    def on_bus(self, msg: dict[str, Any]) -> None:
        """A message from another server (``RedisBus``'s listener calls this)."""
        code = msg.get("code")
        if not isinstance(code, str):
            return
        if code not in self.server.rooms:
            lock = self.server.locks.get(code)
            if msg.get("t") is None and lock is not None and lock.locked():
                # being read from the store (``find``): applied once it is in memory,
                # where a change the holder made after that read is caught up
                asyncio.get_running_loop().create_task(self.remote(code, msg))
            return
        if msg.get("t") == "presence":
            self.heard_presence(code, msg)
            return
        if msg.get("t") == "watch":  # another server holds it now: what this one has
            room = self.server.rooms[code]
            self.server.bus.publish(news(room, []))  # its tip: a server behind reads the rest
            self.my_presence(room)
            return
        if msg.get("t") == "lease":  # its driver let it go: the server of its players
            self.server.leases.want(self.server.rooms[code])  # takes it now
            return
        if msg.get("t") == "chat":
            line = msg.get("line")
            if isinstance(line, dict) and line.get("type") in ("chat", "react"):
                self.server.chat(code, line)
            return
        asyncio.get_running_loop().create_task(self.remote(code, msg))

    async def remote(self, code: str, msg: dict[str, Any]) -> None:
        try:
            async with self.server.locks[code]:
                room = self.server.rooms.get(code)
                if room is None:
                    return
                rev, game = msg.get("rev"), msg.get("game")
                start, entries = msg.get("start"), msg.get("entries")
                if (
                    rev == room.rev
                    and game == room.game_no
                    and isinstance(start, int)
                    and isinstance(entries, list)
                ):
                    end = start + len(entries)
                    if end <= room.log_len:
                        return  # nothing new (this server's own, or seen)
                    if start <= room.log_len:
                        try:
                            room.catch_up(entries[room.log_len - start :])
                            room.changed_unseen = False  # heard as it was made
                        except Exception:
                            log.warning("room %s: entries from the bus did not apply", code)
                            await self.server.refresh(room)
                        self.server.broadcast(self.server.rooms.get(code, room), local=False)
                        return
                old = isinstance(rev, int) and isinstance(game, int)
                if old and (game, rev) < (room.game_no, room.rev):
                    return  # an old message
                await self.server.refresh(room)
        except StoreError as e:
            log.warning("room %s: cannot read it again: %s", code, e)
        except Exception:
            self.server.errors += 1
            log.exception("room %s: a bus message failed", code)

    def local_watchers(self, code: str) -> tuple[list[str], int]:
        watching = [c for c in self.server.conns.get(code, ()) if c.seat is None and not c.closed]
        names = sorted({c.name for c in watching if c.name}, key=str.lower)
        return names[:WATCHERS_LISTED], len(watching)

    def watchers(self, code: str) -> None:
        """Tell the room's connections here who watches it (issue 36 item 16): the names
        spectators gave, and how many watch in all, on every server of the cluster
        (the others' from their presence messages, forgotten after ``PRESENCE_TTL``)."""
        names, count = self.local_watchers(code)
        now = time.monotonic()
        others = self.watching.get(code, {})
        for origin in [o for o, (t, _, _) in others.items() if now - t > PRESENCE_TTL]:
            del others[origin]
        everyone = set(names)
        for _, their_names, n in others.values():
            everyone.update(their_names)
            count += n
        names = sorted(everyone, key=str.lower)
        self.server.chat(code, {"type": "watchers", "names": names, "count": count})

    def evict(self, room: Room) -> None:
        """Close the connections of seats another server gave to a bot (a kick)."""
        for c in list(self.server.conns.get(room.code, ())):
            s = room.seats[c.seat] if c.seat is not None else None
            if s is not None and s.kind == "bot" and not s.token_hash:
                c.send(err("kicked", "the host gave your seat to a bot"))
                c.closed = True
                with contextlib.suppress(asyncio.QueueFull):
                    c.queue.put_nowait(None)

    async def read_while_deaf(self) -> None:
        """While the bus is down (Redis away) no server hears of another's changes, so a
        room whose players sit on different servers stood still for the whole outage:
        each player's server waited for news of the other's move (issue 48, D3: 13-14 of
        36 rooms in the history checker's runs).  Meanwhile every server reads the rooms
        its clients are in, and the rooms it drives (whose players may sit elsewhere
        now), from the store every ``DEAF_READ_EVERY`` seconds (the new log
        entries; the room again only if its row moved), so play goes on at that pace;
        it stops when the bus is back (``on_bus_back`` reads everything once more)."""
        while True:
            await asyncio.sleep(DEAF_READ_EVERY)
            if self.server.stopping:
                continue
            if self.server.bus.healthy():
                await self.read_quiet_rooms()
                continue
            self.deaf_reads += 1
            for code in list(self.server.rooms):
                room = self.server.rooms.get(code)
                lock = self.server.locks.get(code)
                if room is None or lock is None or lock.locked():
                    continue  # busy: whoever holds the lock brings it up to date
                # its clients must see others' moves, and its driver (the lease here,
                # its players maybe on another server now) must see whose turn it is
                if not self.server.conns.get(code) and code not in self.server.leases.held:
                    continue
                try:
                    async with lock:
                        if self.server.rooms.get(code) is room and not room.broken:
                            await self.server.refresh(room)
                except StoreError:
                    break  # the store is away too: nothing to read until the next turn
                except Exception:
                    self.server.errors += 1
                    log.exception("room %s: reading it while the bus is down failed", code)

    def quiet_rooms(self, now: float) -> list[Room]:
        """Rooms in play with clients here whose player to act sits on another server
        (its presence reports said so) that has said nothing of them for ``quiet``
        seconds, up to ``QUIET_FOR``.  A healthy server reports every
        ``PRESENCE_EVERY`` seconds, so such a server's bus is down while this one's is
        up (issue 48, D3: a one-sided outage froze the room).  Another server of the
        room that still talks changes nothing (a review's case: a spectator's server
        kept the room "heard"), and a player who never sat elsewhere, or left, is not
        waited for here (an absent player's room was read every 2 s)."""
        out = []
        for code, room in list(self.server.rooms.items()):
            match = room.match
            seen = self.seen_at.get(code)
            if (
                room.status != "playing"
                or match is None
                or not seen
                or not self.server.conns.get(code)
            ):
                continue
            if now - self.quiet_read.get(code, 0.0) < QUIET_READ_EVERY:
                continue
            seat = match.next_to_ask()
            s = room.seats[seat] if seat is not None else None
            if seat is None or s is None or s.kind != "person" or s.connected:
                continue
            said = seen.get(seat)
            if said is not None and self.quiet <= now - said[1] <= QUIET_FOR:
                out.append(room)
        return out

    def forget(self, code: str) -> None:
        """Nothing of a room that left this server's memory stays here."""
        self.presence.pop(code, None)
        self.watching.pop(code, None)
        self.seen_at.pop(code, None)
        self.quiet_read.pop(code, None)

    async def read_quiet_rooms(self) -> None:
        """Read the ``quiet_rooms`` from the store (their new entries), one at a time."""
        now = time.monotonic()
        for room in self.quiet_rooms(now):
            lock = self.server.locks.get(room.code)
            if lock is None or lock.locked():
                continue
            self.quiet_read[room.code] = now
            self.quiet_reads += 1
            try:
                async with lock:
                    if self.server.rooms.get(room.code) is room and not room.broken:
                        await self.server.refresh(room)
            except StoreError:
                return
            except Exception:
                self.server.errors += 1
                log.exception("room %s: reading a quiet room failed", room.code)

    async def on_bus_back(self) -> None:
        """The bus is back after an outage: messages sent meanwhile are lost, so every
        room here is read again from the store."""
        for code in list(self.server.rooms):
            room = self.server.rooms.get(code)
            if room is None:
                continue
            try:
                async with self.server.locks[code]:
                    room = await self.server.refresh(self.server.rooms.get(code, room))
                    self.my_presence(room)
                    self.announce(room)  # others who missed this server's news catch up
            except StoreError as e:
                log.warning("room %s: cannot read it again: %s", code, e)
            except Exception:  # one room's fault does not stop the others' reading
                self.server.errors += 1
                log.exception("room %s: reading it again failed", code)

    def my_presence(self, room: Room) -> None:
        if self.server.cluster:
            seats = {str(i): s.connected for i, s in enumerate(room.seats) if s and s.connected}
            names, count = self.local_watchers(room.code)
            self.server.bus.publish(
                {
                    "t": "presence",
                    "code": room.code,
                    "seats": seats,
                    "watching": {"names": names, "count": count},
                }
            )

    def heard_presence(self, code: str, msg: dict[str, Any]) -> None:
        seats = msg.get("seats")
        origin = msg.get("origin")
        if not isinstance(seats, dict) or not isinstance(origin, str):
            return
        try:
            counts = {int(k): int(v) for k, v in seats.items()}
        except (TypeError, ValueError):
            return
        now = time.monotonic()
        self.presence[code][origin] = (now, counts)
        seen = self.seen_at[code]
        for seat, n in counts.items():
            if n > 0:
                seen[seat] = (origin, now)
            elif seen.get(seat, ("", 0.0))[0] == origin:
                del seen[seat]  # left that server, said by that server: not silence
        self.count_presence(code)
        w = msg.get("watching")  # (absent from a server of an older version)
        if isinstance(w, dict) and isinstance(w.get("count"), int):
            raw = w.get("names")
            raw = raw if isinstance(raw, list) else []
            names = [n[:40] for n in raw if isinstance(n, str)][:WATCHERS_LISTED]
            before = self.watching[code].get(origin)
            self.watching[code][origin] = (time.monotonic(), names, max(0, w["count"]))
            if before is None or before[1:] != (names, max(0, w["count"])):
                self.watchers(code)

    def count_presence(self, code: str) -> None:
        """Sum the other servers' connections per seat (forgetting servers not heard
        from for ``PRESENCE_TTL``) and act on seats that came or went."""
        room = self.server.rooms.get(code)
        if room is None:
            self.presence.pop(code, None)
            self.watching.pop(code, None)
            return
        now = time.monotonic()
        heard = self.presence.get(code, {})
        for origin in [o for o, (t, _) in heard.items() if now - t > PRESENCE_TTL]:
            del heard[origin]
        total: dict[int, int] = defaultdict(int)
        for _, counts in heard.values():
            for seat, n in counts.items():
                if n > 0 and 0 <= seat < len(room.seats):
                    total[seat] += n
        if dict(total) == room.elsewhere:
            return
        before, room.elsewhere = room.elsewhere, dict(total)
        for i, s in enumerate(room.seats):
            if s is None or s.kind != "person" or s.connected:
                continue
            if i in room.elsewhere and i not in before:
                s.away_since = None
                room.set_autopilot(i, False)
            elif i in before and i not in room.elsewhere:
                s.away_since = clock_now()  # the rooms' clock
        room.touch()
        self.server.broadcast(room, local=False)

    async def heartbeat(self) -> None:
        """Tell the cluster who is connected here, now and then (a server that dies
        stops, and its players count as away once ``PRESENCE_TTL`` passes)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            for code in list(self.server.rooms):
                room = self.server.rooms.get(code)
                if room is None:
                    continue
                if self.server.conns.get(code):
                    self.my_presence(room)
                if self.presence.get(code):
                    self.count_presence(code)
                now = time.monotonic()
                if any(now - t > PRESENCE_TTL for t, _, _ in self.watching.get(code, {}).values()):
                    self.watchers(code)  # a server gone quiet: its spectators leave the list
