"""Storage behind the server: rooms, seats (token hashes only), the action log, records.

``Store`` is the interface the pipeline talks to; ``SQLiteStore`` is the embedded
default and ``MemoryStore`` is for tests.  A PostgreSQL or Redis store implements the
same few methods; nothing in the pipeline knows which one it has.

Durability: ``append`` returns only after the entry is committed.  SQLite runs in WAL
mode; with ``synchronous=NORMAL`` (the default here) a committed transaction survives
the server process being killed (``kill -9``), which is what the recovery test
checks; ``synchronous=FULL`` (``--sync full``) also survives losing power, at an
fsync per commit.  The server's actions go through ``append_many``: the entries
that every room queued while the last commit ran are committed in one transaction
(a group commit, ``server.commit.GroupCommit``), each room waiting with its lock held, and
only then applied and told (docs/reliability.md).

Faults (docs/reliability.md, "The store's files"): ``SQLiteStore`` holds a lock on
``<db>.lock`` for its lifetime, so a second server on the same file refuses to start
(``StoreLocked``); before SQLite touches the files it checks that the database, its
``-wal`` and its ``-shm`` are writable (the ``-shm`` is memory-mapped: writing to it
once it is immutable kills the process with SIGBUS), and after each commit that the
database and ``-wal`` are still the files it opened (deleted or replaced files would
lose on restart what was acknowledged).  Every failure is a ``StoreError``.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson

from unokit.errors import UnoError
from unokit.server import profiles
from unokit.server.profiles import HISTORY_KEYS

BUSY_TIMEOUT = 0.1  # seconds a write waits for a lock held by another process

log = logging.getLogger("unokit.server")


class StoreError(RuntimeError):
    """The store could not do what was asked (disk full, database locked...)."""


class StoreOpenError(StoreError, UnoError):
    """The database cannot be opened (locked by another server, unreadable, not a
    database...).  Also an ``UnoError``, so ``unokit serve`` reports it in one line and
    exits 2, as it does any bad argument."""

    code = "storage_unavailable"


class StoreLocked(StoreOpenError):
    """Another process (a second ``unokit serve``) has the database open."""


@dataclass
class RoomRow:
    """A room's mutable metadata, saved whole whenever it changes (small)."""

    code: str
    data: dict[str, Any]


class Store(Protocol):
    def save_room(self, row: RoomRow) -> None: ...

    def load_rooms(self) -> list[RoomRow]: ...

    def delete_room(self, code: str) -> None: ...

    def append(self, code: str, game: int, entry: dict[str, Any]) -> int:
        """Append one log entry; durable when it returns.  Returns its index."""
        ...

    def append_many(self, entries: list[tuple[str, int, dict[str, Any]]]) -> list[int]:
        """Append several entries (any rooms) at once: all are durable when it returns,
        or none is (it raises ``StoreError``).  Returns their indexes."""
        ...

    def append_at(
        self, rows: list[tuple[str, int, int, dict[str, Any]]], holders: Sequence[str | None] = ()
    ) -> list[bool | None]:
        """Store each entry at its given index, in one transaction: True where it was
        stored, False where that index was taken already (another server got there
        first: the room's order has one entry per index).  ``StoreError``: none was.

        ``holders`` (one per row, or empty): the lease a row's write needs, checked in
        the same transaction as the write: a room's bots, turn timer and next round
        move only under their server's lease, and a server that woke from a pause
        longer than its lease must not write for a room another server drives now
        (issue 48, D2).  None in the result: not stored, the lease is not that
        holder's (lapsed, or taken by another).  A person's action needs none."""
        ...

    def log(self, code: str, game: int) -> list[dict[str, Any]]: ...

    def log_since(self, code: str, game: int, start: int) -> list[dict[str, Any]]:
        """The entries of a game's log from index ``start`` on."""
        ...

    def load_room(self, code: str) -> RoomRow | None: ...

    def put_room(self, row: RoomRow, expect: int | None) -> bool:
        """Save ``row`` only if the stored room's ``rev`` is ``expect`` (``None``: only if
        there is no such room yet); False, and nothing written, if it is not."""
        ...

    def save_record(self, code: str, game: int, text: str) -> None: ...

    def record(self, code: str, game: int) -> str | None: ...

    def take_leases(self, holder: str, codes: list[str], seconds: float) -> set[str]:
        """Take or renew ``holder``'s leases of ``codes`` (which server of a cluster
        drives each room's bots and clocks); the codes it now holds."""
        ...

    def release_leases(self, holder: str, codes: list[str]) -> None: ...

    def public_rooms(self, limit: int = 200) -> list[RoomRow]:
        """Rooms their hosts made public that are still in the lobby, newest first
        (full ones too: ``room.listing`` says which are open)."""
        ...

    def orphans(self, limit: int = 100) -> list[str]:
        """Rooms in play whose lease lapsed or that never had one."""
        ...

    # profiles (issue 49 item 4; unokit.server.profiles says what they hold)
    def create_profile(self, token_hash: str, row: dict[str, Any]) -> bool:
        """Store a new profile; False if its id is taken (draw another)."""
        ...

    def profile_by_token(self, token_hash: str) -> dict[str, Any] | None:
        """The profile whose token hashes to ``token_hash``, or None."""
        ...

    def load_profile(self, pid: str) -> dict[str, Any] | None:
        """A profile with its last games (``history``), or None."""
        ...

    def update_profile(self, pid: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        """Change a profile's name, colour or listing; the profile after, or None."""
        ...

    def count_game(self, code: str, game: int, results: list[dict[str, Any]]) -> bool:
        """Count one finished game for the profiles that played it (one result each:
        ``profile``, ``seat``, ``won``, ``points``), and rate it when two or more did
        (``profiles.after_game``), all at once; False (nothing changed) if this game
        was counted before: a game counts once whichever server saves it, however
        often."""
        ...

    def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        """Listed profiles with a rated game, best ``profiles.ordinal`` first."""
        ...

    def soonest_lapse(self, holder: str) -> float | None:
        """Seconds until the first lease of another holder lapses (negative: lapsed),
        None when there is none: when to look for a dead server's rooms."""
        ...

    def close(self) -> None: ...


class _Leases:
    """Leases kept in this process: a ``MemoryStore`` shared by several in-process
    servers (the cluster tests), or a SQLite file, which one process has."""

    def __init__(self) -> None:
        self._leases: dict[str, tuple[str, float]] = {}

    def take_leases(self, holder: str, codes: list[str], seconds: float) -> set[str]:
        now = time.monotonic()
        out = set()
        for code in codes:
            who, until = self._leases.get(code, (holder, 0.0))
            if who == holder or until < now:
                self._leases[code] = (holder, now + seconds)
                out.add(code)
        return out

    def release_leases(self, holder: str, codes: list[str]) -> None:
        for code in codes:
            if self._leases.get(code, ("", 0.0))[0] == holder:
                del self._leases[code]

    def soonest_lapse(self, holder: str) -> float | None:
        now = time.monotonic()
        ends = [until for who, until in self._leases.values() if who != holder and until > now]
        return min(ends) - now if ends else None

    def _leased(self, code: str, holder: str | None) -> bool:
        """``holder``'s lease of ``code`` runs now (None: no lease needed)."""
        if holder is None:
            return True
        who, until = self._leases.get(code, ("", 0.0))
        return who == holder and until > time.monotonic()

    def _lapsed(self, codes: list[str], limit: int) -> list[str]:
        now = time.monotonic()
        return [c for c in codes if self._leases.get(c, ("", 0.0))[1] < now][:limit]


class MemoryStore(_Leases):
    """Everything in dictionaries: for tests, and for trying the server without a disk."""

    def __init__(self) -> None:
        super().__init__()
        self.rooms: dict[str, dict[str, Any]] = {}
        self.logs: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.records: dict[tuple[str, int], str] = {}
        self.profiles: dict[str, dict[str, Any]] = {}
        self.tokens: dict[str, str] = {}  # token hash -> profile id
        self.results: dict[tuple[str, int], list[dict[str, Any]]] = {}

    def save_room(self, row: RoomRow) -> None:
        self.rooms[row.code] = json.loads(json.dumps(row.data))

    def load_rooms(self) -> list[RoomRow]:
        return [RoomRow(c, json.loads(json.dumps(d))) for c, d in self.rooms.items()]

    def public_rooms(self, limit: int = 200) -> list[RoomRow]:
        open_ = [
            (c, d) for c, d in self.rooms.items() if d.get("public") and d.get("status") == "lobby"
        ]
        open_.sort(key=lambda cd: -float(cd[1].get("created", 0.0)))
        return [RoomRow(c, json.loads(json.dumps(d))) for c, d in open_[:limit]]

    def delete_room(self, code: str) -> None:
        self.rooms.pop(code, None)
        for key in [k for k in self.logs if k[0] == code]:
            del self.logs[key]
        for key in [k for k in self.records if k[0] == code]:
            del self.records[key]

    def append_many(self, entries: list[tuple[str, int, dict[str, Any]]]) -> list[int]:
        return [self.append(code, game, entry) for code, game, entry in entries]

    def append(self, code: str, game: int, entry: dict[str, Any]) -> int:
        log = self.logs.setdefault((code, game), [])
        log.append(json.loads(json.dumps(entry)))
        return len(log) - 1

    def append_at(
        self, rows: list[tuple[str, int, int, dict[str, Any]]], holders: Sequence[str | None] = ()
    ) -> list[bool | None]:
        out: list[bool | None] = []
        for i, (code, game, idx, entry) in enumerate(rows):
            if not self._leased(code, holders[i] if holders else None):
                out.append(None)
                continue
            log = self.logs.setdefault((code, game), [])
            out.append(idx == len(log))
            if out[-1]:
                log.append(json.loads(json.dumps(entry)))
        return out

    def log(self, code: str, game: int) -> list[dict[str, Any]]:
        return list(self.logs.get((code, game), []))

    def log_since(self, code: str, game: int, start: int) -> list[dict[str, Any]]:
        return list(self.logs.get((code, game), [])[start:])

    def orphans(self, limit: int = 100) -> list[str]:
        playing = [c for c, d in self.rooms.items() if d.get("status") == "playing"]
        return self._lapsed(playing, limit)

    def load_room(self, code: str) -> RoomRow | None:
        d = self.rooms.get(code)
        return None if d is None else RoomRow(code, json.loads(json.dumps(d)))

    def put_room(self, row: RoomRow, expect: int | None) -> bool:
        old = self.rooms.get(row.code)
        if (old is None) != (expect is None) or (old is not None and old.get("rev", 0) != expect):
            return False
        self.save_room(row)
        return True

    def save_record(self, code: str, game: int, text: str) -> None:
        self.records[(code, game)] = text

    def create_profile(self, token_hash: str, row: dict[str, Any]) -> bool:
        if row["id"] in self.profiles or token_hash in self.tokens:
            return False
        self.profiles[row["id"]] = dict(row)
        self.tokens[token_hash] = row["id"]
        return True

    def profile_by_token(self, token_hash: str) -> dict[str, Any] | None:
        pid = self.tokens.get(token_hash)
        return dict(self.profiles[pid]) if pid is not None else None

    def load_profile(self, pid: str) -> dict[str, Any] | None:
        row = self.profiles.get(pid)
        if row is None:
            return None
        mine = [
            {"code": code, "game": game, **{k: r[k] for k in HISTORY_KEYS}}
            for (code, game), rs in self.results.items()
            for r in rs
            if r["profile"] == pid
        ]
        mine.sort(key=lambda r: -float(r["at"]))
        return {**row, "history": mine[: profiles.HISTORY]}

    def update_profile(self, pid: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        if pid not in self.profiles:
            return None
        self.profiles[pid].update(changes)
        return dict(self.profiles[pid])

    def count_game(self, code: str, game: int, results: list[dict[str, Any]]) -> bool:
        if (code, game) in self.results:
            return False
        rows = {
            r["profile"]: self.profiles[r["profile"]]
            for r in results
            if r["profile"] in self.profiles
        }
        self.profiles.update(profiles.after_game(rows, results))
        self.results[(code, game)] = [dict(r) for r in results]
        return True

    def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = [r for r in self.profiles.values() if r.get("listed") and r.get("rated", 0) > 0]
        rows.sort(key=lambda r: -profiles.ordinal(r["mu"], r["sigma"]))
        return [dict(r) for r in rows[:limit]]

    def record(self, code: str, game: int) -> str | None:
        return self.records.get((code, game))

    def close(self) -> None:
        return None


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, game, idx)
);
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (code, game)
);
CREATE TABLE IF NOT EXISTS profiles (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    profile TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, game, profile)
);
CREATE TABLE IF NOT EXISTS counted (
    code TEXT NOT NULL,
    game INTEGER NOT NULL,
    PRIMARY KEY (code, game)
);
CREATE INDEX IF NOT EXISTS results_of ON results (profile, at DESC);
CREATE INDEX IF NOT EXISTS rooms_open ON rooms (json_extract(data, '$.created') DESC)
    WHERE json_extract(data, '$.public') = 1 AND json_extract(data, '$.status') = 'lobby';
"""


if sys.platform == "win32":  # untested: the server is run on Linux and macOS
    import msvcrt

    def _try_lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _hold_lock(db: str) -> tuple[int, int]:
    """Lock ``<db>.lock`` for this process's lifetime (``flock``: the kernel drops it
    when the process ends, however it ends); ``StoreLocked`` if another process holds it.

    A lock file beside the database rather than a lock on the database: SQLite's own
    locks on the database file are POSIX locks, which another descriptor of the same
    file would release when closed, and an exclusive SQLite lock would shut out every
    other reader (an inspection with the ``sqlite3`` shell, a backup)."""
    path = db + ".lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as e:
        raise StoreOpenError(f"cannot create the lock file {path}: {e.strerror}") from None
    try:
        _try_lock(fd)
    except OSError as e:
        held = e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES, errno.EDEADLK)
        pid = ""
        with contextlib.suppress(OSError):  # who holds it, if it says
            os.lseek(fd, 0, os.SEEK_SET)
            pid = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        if held:
            who = f" (pid {pid})" if pid.isdigit() else ""
            raise StoreLocked(
                f"{db} is in use by another unokit server{who}: stop it first, or give another --db"
            ) from None
        raise StoreOpenError(f"cannot lock {path}: {e.strerror}") from None
    with contextlib.suppress(OSError):  # who holds it, for the message above
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
    # and the database file itself, with flock too (not SQLite's POSIX locks, which
    # this descriptor leaves alone while it stays open): a lock file someone deleted,
    # or a hard link to the database under another name, must not let a second
    # server in (found by review)
    try:
        dbfd = os.open(db, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as e:
        os.close(fd)
        raise StoreOpenError(f"cannot open the database {db}: {e.strerror}") from None
    try:
        _try_lock(dbfd)
    except OSError as e:
        os.close(dbfd)
        os.close(fd)
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES, errno.EDEADLK):
            raise StoreLocked(
                f"{db} is in use by another unokit server: stop it first, or give another --db"
            ) from None
        raise StoreOpenError(f"cannot lock {db}: {e.strerror}") from None
    return fd, dbfd


class SQLiteStore(_Leases):
    """The embedded default: one SQLite file in WAL mode.

    Guarded against its files changing under it (docs/reliability.md, "The store's
    files"): a lock file keeps a second process out; every transaction first checks
    that the database, ``-wal`` and ``-shm`` are writable, and once committed that the
    database and ``-wal`` are still the files it opened (device and inode), so a commit
    is reported done only if it is in the files a restart will read.  Five system
    calls (``access`` x3, ``stat`` x2), a few microseconds, once per transaction: per
    group commit on the server's hot path.
    """

    def __init__(self, path: str | Path, sync: str = "normal") -> None:
        if sync not in ("normal", "full"):
            raise ValueError("sync must be 'normal' or 'full'")
        self.path = Path(path)
        self.sync = sync  # "full": a commit waits for the disk (fsync)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreOpenError(f"cannot create the folder of {self.path}: {e.strerror}") from None
        # the name SQLite itself uses (it follows symbolic links): its -wal and -shm
        # sit beside the real file, and two links to one file share one lock
        real = os.path.realpath(self.path)
        self._lock_fds = _hold_lock(real)
        self._files: tuple[str, ...] = (real, real + "-wal", real + "-shm")
        self._closed = False
        self._lost: str | None = None  # why the files are no longer the ones opened
        db: sqlite3.Connection | None = None
        try:
            # one connection, used from the event loop's thread (and tests' threads, in
            # turn).  The busy timeout is short: a write waits on the event loop, so
            # another process holding the database must not stall every room; the move
            # is refused instead (StoreError) and the server retries a moment later.
            self._db = db = sqlite3.connect(
                real, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={sync.upper()}")
            # reads through read(), never a memory map of the database: a mapped file
            # that shrinks under the process kills it with SIGBUS (the -shm is mapped
            # whatever this says; the checks below guard it)
            self._db.execute("PRAGMA mmap_size=0")
            self._db.executescript(_SCHEMA)
            # the files SQLite has open now: WAL mode keeps -wal and -shm while open
            # (where WAL is impossible SQLite stays in rollback mode, without them)
            self._files = tuple(f for f in self._files if os.path.lexists(f))
            self._ids = [(f, _file_id(os.stat(f))) for f in self._files if f != real + "-shm"]
        except (sqlite3.Error, OSError) as e:
            if db is not None:
                db.close()
            for fd in self._lock_fds:
                os.close(fd)
            what = e.strerror if isinstance(e, OSError) else str(e)
            raise StoreOpenError(f"cannot open the database {self.path}: {what}") from None
        super().__init__()
        self._lock = threading.Lock()
        # room code -> (game, the next log index): only each room's current game, so
        # the cache does not grow with every game a long-lived server sees
        self._next: dict[str, tuple[int, int]] = {}

    # ------------------------------------------------------------ the files ---
    def _usable(self) -> None:
        """Before SQLite touches the files: are all three writable?

        The -shm (the WAL index) is memory-mapped and SQLite writes to it in every
        transaction, reads included; once the file is immutable (``chattr +i``) such a
        write kills the process with SIGBUS instead of failing.  ``access`` sees that,
        and read-only modes, before the write does.  What stays possible: the file made
        immutable in the microseconds between this check and the write.
        """
        if self._closed:
            raise StoreError("storage failed: the store is closed")
        if self._lost is not None:
            raise StoreError(self._lost)
        for f in self._files:
            if not os.access(f, os.W_OK):
                if not os.path.lexists(f):
                    self._gone(f)
                # (never opened to ask why: closing a descriptor of the database
                # would drop SQLite's POSIX locks on it)
                raise StoreError(f"storage failed: {f} is not writable")

    def _same_files(self) -> None:
        """After a transaction: are the database and its -wal still the files that were
        opened?  If either was deleted or replaced (renamed over), what was just
        committed went to a file a restart will not read: refuse it, and everything
        after, until a restart.  (Checked after the commit, not before: a commit
        reported done was then in the files the names lead to; one written to a file
        already replaced is refused, and ``_settle`` keeps it out of the new one.)"""
        for f, ident in self._ids:
            try:
                same = _file_id(os.stat(f)) == ident
            except OSError:
                same = False
            if not same:
                self._gone(f)

    def _gone(self, f: str) -> None:
        """``f`` is not the file that was opened: refuse from now on (with the lock
        held, outside a transaction)."""
        if self._lost is None:
            self._lost = (
                f"storage failed: {f} was deleted or replaced while the server ran; "
                "nothing more can be kept until the server restarts"
            )
            log.error("%s", self._lost)
            self._settle()
        raise StoreError(self._lost)

    def _settle(self) -> None:
        """Move what the -wal holds into the database this store opened, and empty the
        -wal.  Otherwise a restart would apply this WAL to whatever file now has the
        database's name (a copy put in its place; a new, empty database after a
        deletion, which the WAL's pages alone leave malformed): SQLite does not
        checkpoint a database that moved when it closes.  A database moved away
        (``mv``) is left complete where it went."""
        shm = self._files[-1]
        if not shm.endswith("-shm") or (os.path.lexists(shm) and not os.access(shm, os.W_OK)):
            return  # a checkpoint writes to the -shm (see _usable)
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as e:
            log.error("%s: the checkpoint after the loss failed: %s", self.path, e)

    # ------------------------------------------------------------ operations ---
    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            self._usable()
            try:
                rows = self._db.execute(sql, args).fetchall()
            except sqlite3.Error as e:
                raise StoreError(f"storage failed: {e}") from e
            self._same_files()
            return rows

    def save_room(self, row: RoomRow) -> None:
        self._run(
            "INSERT INTO rooms (code, data) VALUES (?, ?) "
            "ON CONFLICT(code) DO UPDATE SET data = excluded.data",
            (row.code, json.dumps(row.data)),
        )

    def load_rooms(self) -> list[RoomRow]:
        return [RoomRow(c, json.loads(d)) for c, d in self._run("SELECT code, data FROM rooms")]

    def delete_room(self, code: str) -> None:
        with self._lock:
            self._usable()
            try:
                self._db.execute("BEGIN")
                for table in ("rooms", "log", "records"):
                    self._db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._rollback()
                raise StoreError(f"storage failed: {e}") from e
            self._next.pop(code, None)
            self._same_files()

    def _rollback(self) -> None:
        """With the lock held."""
        try:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def _index(self, code: str, game: int) -> int:
        cached = self._next.get(code)
        if cached is not None and cached[0] == game:
            return cached[1]
        rows = self._db.execute(
            "SELECT COALESCE(MAX(idx) + 1, 0) FROM log WHERE code = ? AND game = ?", (code, game)
        ).fetchall()
        self._next[code] = (game, int(rows[0][0]))
        return self._next[code][1]

    def append(self, code: str, game: int, entry: dict[str, Any]) -> int:
        return self.append_many([(code, game, entry)])[0]

    def append_many(self, entries: list[tuple[str, int, dict[str, Any]]]) -> list[int]:
        """Commit several entries in one transaction (a group commit)."""
        out: list[int] = []
        with self._lock:
            self._usable()
            try:
                self._db.execute("BEGIN")
                for code, game, entry in entries:
                    idx = self._index(code, game)
                    self._db.execute(
                        "INSERT INTO log (code, game, idx, entry) VALUES (?, ?, ?, ?)",
                        (code, game, idx, orjson.dumps(entry).decode()),
                    )
                    out.append(idx)
                    self._next[code] = (game, idx + 1)
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._rollback()
                self._next.clear()  # recount from the table: nothing of this batch is in it
                raise StoreError(f"storage failed: {e}") from e
            self._same_files()  # committed, but to the files a restart reads?
        return out

    def append_at(
        self, rows: list[tuple[str, int, int, dict[str, Any]]], holders: Sequence[str | None] = ()
    ) -> list[bool | None]:
        """Commit several entries at their indexes in one transaction (a group commit)."""
        out: list[bool | None] = []
        with self._lock:
            self._usable()
            try:
                self._db.execute("BEGIN")
                for i, (code, game, idx, entry) in enumerate(rows):
                    if not self._leased(code, holders[i] if holders else None):
                        out.append(None)
                        continue
                    cur = self._db.execute(
                        "INSERT OR IGNORE INTO log (code, game, idx, entry) VALUES (?, ?, ?, ?)",
                        (code, game, idx, orjson.dumps(entry).decode()),
                    )
                    out.append(cur.rowcount == 1)
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._rollback()
                raise StoreError(f"storage failed: {e}") from e
            finally:
                self._next.clear()  # append() recounts from the table
            self._same_files()  # committed, but to the files a restart reads?
        return out

    def log(self, code: str, game: int) -> list[dict[str, Any]]:
        return self.log_since(code, game, 0)

    def log_since(self, code: str, game: int, start: int) -> list[dict[str, Any]]:
        rows = self._run(
            "SELECT entry FROM log WHERE code = ? AND game = ? AND idx >= ? ORDER BY idx",
            (code, game, start),
        )
        return [json.loads(r[0]) for r in rows]

    def public_rooms(self, limit: int = 200) -> list[RoomRow]:
        rows = self._run(
            "SELECT code, data FROM rooms WHERE json_extract(data, '$.public') = 1 "
            "AND json_extract(data, '$.status') = 'lobby' "
            "ORDER BY json_extract(data, '$.created') DESC LIMIT ?",
            (limit,),
        )
        return [RoomRow(c, json.loads(d)) for c, d in rows]

    def orphans(self, limit: int = 100) -> list[str]:
        rows = self._run("SELECT code FROM rooms WHERE json_extract(data, '$.status') = 'playing'")
        return self._lapsed([r[0] for r in rows], limit)

    def load_room(self, code: str) -> RoomRow | None:
        rows = self._run("SELECT data FROM rooms WHERE code = ?", (code,))
        return RoomRow(code, json.loads(rows[0][0])) if rows else None

    def put_room(self, row: RoomRow, expect: int | None) -> bool:
        data = json.dumps(row.data)
        if expect is None:
            sql = "INSERT OR IGNORE INTO rooms (code, data) VALUES (?, ?)"
            args: tuple[Any, ...] = (row.code, data)
        else:
            sql = (
                "UPDATE rooms SET data = ? WHERE code = ? "
                "AND COALESCE(json_extract(data, '$.rev'), 0) = ?"
            )
            args = (data, row.code, expect)
        with self._lock:
            self._usable()
            try:
                changed = self._db.execute(sql, args).rowcount
            except sqlite3.Error as e:
                raise StoreError(f"storage failed: {e}") from e
            self._same_files()
        return changed == 1

    def save_record(self, code: str, game: int, text: str) -> None:
        self._run(
            "INSERT INTO records (code, game, text) VALUES (?, ?, ?) "
            "ON CONFLICT(code, game) DO UPDATE SET text = excluded.text",
            (code, game, text),
        )

    def record(self, code: str, game: int) -> str | None:
        rows = self._run("SELECT text FROM records WHERE code = ? AND game = ?", (code, game))
        return str(rows[0][0]) if rows else None

    # ------------------------------------------------------------ profiles ---
    def _transaction(self, work: Any) -> Any:
        """``work(db)`` in one transaction, under the store's lock."""
        with self._lock:
            self._usable()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                out = work(self._db)
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._rollback()
                raise StoreError(f"storage failed: {e}") from e
            except BaseException:
                self._rollback()
                raise
            self._same_files()
            return out

    def create_profile(self, token_hash: str, row: dict[str, Any]) -> bool:
        rows = self._run(
            "INSERT OR IGNORE INTO profiles (id, token, data) VALUES (?, ?, ?) RETURNING 1",
            (row["id"], token_hash, json.dumps(row)),
        )
        return bool(rows)

    def profile_by_token(self, token_hash: str) -> dict[str, Any] | None:
        rows = self._run("SELECT data FROM profiles WHERE token = ?", (token_hash,))
        return dict(json.loads(rows[0][0])) if rows else None

    def load_profile(self, pid: str) -> dict[str, Any] | None:
        rows = self._run("SELECT data FROM profiles WHERE id = ?", (pid,))
        if not rows:
            return None
        games = self._run(
            "SELECT code, game, data FROM results WHERE profile = ? ORDER BY at DESC LIMIT ?",
            (pid, profiles.HISTORY),
        )
        history = [{"code": c, "game": g, **json.loads(d)} for c, g, d in games]
        return {**json.loads(rows[0][0]), "history": history}

    def update_profile(self, pid: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        def work(db: sqlite3.Connection) -> dict[str, Any] | None:
            rows = db.execute("SELECT data FROM profiles WHERE id = ?", (pid,)).fetchall()
            if not rows:
                return None
            row = {**json.loads(rows[0][0]), **changes}
            db.execute("UPDATE profiles SET data = ? WHERE id = ?", (json.dumps(row), pid))
            return row

        out: dict[str, Any] | None = self._transaction(work)
        return out

    def count_game(self, code: str, game: int, results: list[dict[str, Any]]) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            new = db.execute(
                "INSERT OR IGNORE INTO counted (code, game) VALUES (?, ?) RETURNING 1", (code, game)
            ).fetchall()
            if not new:
                return False
            ids = sorted({r["profile"] for r in results})
            marks = ",".join("?" * len(ids))
            rows = {
                pid: json.loads(d)
                for pid, d in db.execute(
                    f"SELECT id, data FROM profiles WHERE id IN ({marks})", ids
                ).fetchall()
            }
            for pid, row in profiles.after_game(rows, results).items():
                db.execute("UPDATE profiles SET data = ? WHERE id = ?", (json.dumps(row), pid))
            db.executemany(
                "INSERT OR IGNORE INTO results (code, game, profile, data, at) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    (code, game, r["profile"], json.dumps({k: r[k] for k in HISTORY_KEYS}), r["at"])
                    for r in results
                    if r["profile"] in rows
                ],
            )
            return True

        counted: bool = self._transaction(work)
        return counted

    def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._run(
            "SELECT data FROM profiles WHERE json_extract(data, '$.listed') = 1 "
            "AND json_extract(data, '$.rated') > 0 ORDER BY "
            "json_extract(data, '$.mu') - 3 * json_extract(data, '$.sigma') DESC LIMIT ?",
            (limit,),
        )
        return [dict(json.loads(r[0])) for r in rows]

    def close(self) -> None:
        """Close the database and release the lock file.

        Closing checkpoints the WAL into the database, which writes to the -shm: if a
        file is there but not writable, that would kill the process with SIGBUS, so
        the connection is then left open, for the process's exit to end (everything
        committed is in the -wal, which the next start reads).  Deleted or replaced
        files are closed as usual: the checkpoint goes to the files this store opened,
        and SQLite then deletes the -wal and -shm by name, so a restart does not
        replay this WAL onto another database."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if any(os.path.lexists(f) and not os.access(f, os.W_OK) for f in self._files):
                log.error("%s: its files are not writable; left open until the exit", self.path)
                # never deallocated, so never closed: no checkpoint, no write to the -shm
                ctypes.pythonapi.Py_IncRef(ctypes.py_object(self._db))
                return  # and the lock file stays locked until the process ends
            self._db.close()
            for fd in self._lock_fds:
                os.close(fd)


def _file_id(st: os.stat_result) -> tuple[int, int]:
    return (st.st_dev, st.st_ino)
