"""The way every change reaches a room: its entry stored first (alone, or in the
group commit), then applied to this server's copy, then sent; a change the store
refused or did not confirm is never seen.  People's moves, bots' and timers' moves, the
next round, and the lobby's changes (join, start, kick...) all pass here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from unokit.engine.actions import Action
from unokit.server import ops
from unokit.server.commit import Applied, LeaseLost, Then
from unokit.server.room import Room, RoomChanged, act_entry
from unokit.server.store import StoreError

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")


class Committer:
    """Stores and applies changes for one server's rooms (``Server.commits``)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.repairs: dict[str, asyncio.Task[None]] = {}  # broken rooms read again

    async def save_finished_games(self) -> None:
        """Save the finished games whose record or row could not be saved when they
        ended (``Room.finish_pending``); one that lost a race to another server is read
        again (its log's end finishes it there)."""
        for code, room in list(self.server.rooms.items()):
            if not room.finish_pending or room.broken:
                continue
            try:
                async with self.server.locks[code]:
                    await self.server.io(room.save_finished)
            except RoomChanged:
                with contextlib.suppress(StoreError):
                    async with self.server.locks[code]:
                        await self.server.refresh(self.server.rooms.get(code, room))
            except StoreError:
                return  # the store is still away: next turn

    async def change(self, room: Room, op: Callable[[Room], Any]) -> Any:
        """Run ``op`` (a change of the room that the store keeps: a join, the start, a
        kick...) on a private twin of ``room``, in a worker thread when the store's calls
        wait (PostgreSQL), then publish the twin in ``room`` on the loop: the change is
        seen only once it is stored, by the readers that do not take the room's lock
        too (a websocket's hello, the lobby), and a change the store refused or failed
        is never seen.  Returns what ``op`` returns.  Call it with the room's lock held."""
        await self.mend(room)
        twin = room.twin()
        try:
            result = await self.server.io(op, twin)
        except BaseException as e:
            if twin.rev != room.rev and twin.status == room.status:
                # the change undid itself in the store too (a start whose deal could not
                # be logged saves the lobby again): the row is the room as it was
                room.rev, room.stored = twin.rev, twin.stored
            elif twin.rev != room.rev and isinstance(e, Exception):
                # part of it was stored and this copy no longer matches the row (a
                # rematch saved the finished game, then its start failed): read it again
                # now, so the next try does not cross this server's own row
                try:
                    await self.server.reload(room)
                except Exception as again:  # the original error is the one raised
                    if not isinstance(again, StoreError):
                        self.server.errors += 1
                        log.exception("room %s: reading it again failed", room.code)
                    self.mark_broken(room)  # read again before anything is decided on it
            raise
        room.publish(twin)
        room.touch()
        return result

    def mark_broken(self, room: Room) -> None:
        """``room``'s copy is half-applied and could not be read again: nobody is shown
        it and nothing is decided on it (``mend``), and it is read again every
        ``store_retry`` seconds until that works (then everyone is sent the store's
        room), so a room nobody acts in is not left blank for those who come."""
        room.broken = True
        code = room.code
        if self.server.stopping or code in self.repairs:
            return  # shutting down (the next start reads it), or already being repaired

        async def repair() -> None:
            wait = self.server.limits.store_retry
            while self.server.rooms.get(code) is room and room.broken:
                await asyncio.sleep(wait)
                wait = min(wait * 2, 60.0)  # a room that never reads back is not spun on
                if self.server.rooms.get(code) is not room:
                    break
                try:
                    async with self.server.locks[code]:
                        if self.server.rooms.get(code) is room and room.broken:
                            await self.server.reload(room)
                except StoreError:
                    continue
                except Exception:
                    self.server.errors += 1
                    log.exception("room %s: reading it again failed", code)

        task = asyncio.get_running_loop().create_task(repair())
        self.repairs[code] = task
        task.add_done_callback(lambda _: self.repairs.pop(code, None))

    async def mend(self, room: Room) -> None:
        """A copy left half-applied (``Room.broken``: an entry stored, applying it failed
        and reading the room again failed too) decides nothing: it is read again first,
        and the request is answered as one that crossed another server's change
        (``RoomChanged``: a fresh view follows); while the store is still away, the
        ``StoreError`` refuses it with nothing stored."""
        if room.broken:
            await self.server.reload(room)
            raise RoomChanged()

    async def next_round(self, room: Room, by: int | None, driven: bool = False) -> None:
        entry, then = room.next_round_entry(by)
        await self.append(room, entry, then, driven)

    async def commit(
        self,
        room: Room,
        seat: int,
        action: Action,
        version: int | None,
        person: bool = False,
        driven: bool = False,
    ) -> None:
        """Log ``action`` (checked by the room), then apply it: the way a person's or
        a bot's action reaches a game on the server.  ``driven``: the room's driver
        decided it (a bot, the turn timer), so it needs this server's lease."""
        entry = act_entry(seat, action, room.match.game if room.match else None)

        def then() -> None:
            room.stored_entry(entry)
            room.commit(seat, action, version, person)

        await self.append(room, entry, then, driven)

    async def append(
        self, room: Room, entry: dict[str, Any], then: Then, driven: bool = False
    ) -> None:
        """Store ``entry`` at the room's next log index, then run ``then`` (which applies
        it): in the group commit, or alone (``--commit each``).  A game the entry ended
        is saved next (its record and row), off the loop.  In a cluster, an entry the
        room's driver decided is stored only under this server's lease (``LeaseLost``:
        it was not), checked in the store's transaction: the driver's own check
        (``due``) comes before a pause that may outlast the lease (issue 48, D2)."""
        await self.mend(room)
        idx = room.log_len
        holder = self.server.origin if driven and self.server.cluster else None
        try:
            if self.server.group is None:  # off the loop when the store waits (its lock held)
                row = (room.code, room.game_no, idx, entry)
                args: tuple[Any, ...] = ([row], [holder]) if holder else ([row],)
                ok = (await self.server.io(self.server.store.append_at, *args))[0]
                if not ok:
                    raise RoomChanged() if ok is False else LeaseLost()
                try:
                    then()
                except Exception as e:
                    raise Applied(e) from e
                return
            began = time.perf_counter()
            await self.server.group.append(room.code, room.game_no, idx, entry, then, holder)
            ops.COMMIT_SECONDS.observe(time.perf_counter() - began)
        except Applied as e:
            # the entry is stored, so the action is made: acknowledged, never refused
            # (its player would be told it was not, then shown it made); this copy of
            # the room is read again from the store and everyone is sent it
            if not isinstance(e.cause, RoomChanged):
                self.server.errors += 1
            log.warning("room %s: an entry stored, then not applied here; reading the room "
                        "again: %r", room.code, e.cause)  # fmt: skip
            try:
                await self.server.reload(room)
            except Exception as again:
                # still made (it is in the log): not refused; the next action on this
                # copy reads the room first (and is refused while the store is away)
                self.mark_broken(room)
                if isinstance(again, StoreError):
                    self.server.store_failed(again)
                else:
                    self.server.errors += 1
                    log.exception("room %s: reading it again failed", room.code)
            return
        if room.finish_pending and room.status == "over":
            await self.save_finished(room)

    async def save_finished(self, room: Room) -> None:
        """Save a finished game's record and row (``Room.save_finished``) off the loop; if
        it fails it stays pending (the lease loop, the room's next save or its next
        reading from the store saves it), and a lost race reads the room again."""
        try:
            await self.server.io(room.save_finished)
        except RoomChanged:
            self.server.conflicts += 1
            with contextlib.suppress(StoreError, RoomChanged):
                await self.server.reload(room)
        except StoreError as e:
            log.warning("room %s: the finished game could not be saved yet: %s", room.code, e)
