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
(a group commit, ``server.app.GroupCommit``), each room waiting with its lock held, and
only then applied and told (docs/reliability.md).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson

BUSY_TIMEOUT = 0.1  # seconds a write waits for a lock held by another process


class StoreError(RuntimeError):
    """The store could not do what was asked (disk full, database locked...)."""


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

    def log(self, code: str, game: int) -> list[dict[str, Any]]: ...

    def save_record(self, code: str, game: int, text: str) -> None: ...

    def record(self, code: str, game: int) -> str | None: ...

    def close(self) -> None: ...


class MemoryStore:
    """Everything in dictionaries: for tests, and for trying the server without a disk."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[str, Any]] = {}
        self.logs: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.records: dict[tuple[str, int], str] = {}

    def save_room(self, row: RoomRow) -> None:
        self.rooms[row.code] = json.loads(json.dumps(row.data))

    def load_rooms(self) -> list[RoomRow]:
        return [RoomRow(c, json.loads(json.dumps(d))) for c, d in self.rooms.items()]

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

    def log(self, code: str, game: int) -> list[dict[str, Any]]:
        return list(self.logs.get((code, game), []))

    def save_record(self, code: str, game: int, text: str) -> None:
        self.records[(code, game)] = text

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
"""


class SQLiteStore:
    """The embedded default: one SQLite file in WAL mode."""

    def __init__(self, path: str | Path, sync: str = "normal") -> None:
        if sync not in ("normal", "full"):
            raise ValueError("sync must be 'normal' or 'full'")
        self.path = Path(path)
        self.sync = sync  # "full": a commit waits for the disk (fsync)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # one connection, used from the event loop's thread (and tests' threads, in turn).
        # The busy timeout is short: a write waits on the event loop, so another process
        # holding the database must not stall every room; the move is refused instead
        # (StoreError) and the server retries a moment later.
        self._db = sqlite3.connect(
            str(self.path), isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT
        )
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.executescript(_SCHEMA)
        # room code -> (game, the next log index): only each room's current game, so
        # the cache does not grow with every game a long-lived server sees
        self._next: dict[str, tuple[int, int]] = {}

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise StoreError(f"storage failed: {e}") from e

    def save_room(self, row: RoomRow) -> None:
        self._run(
            "INSERT INTO rooms (code, data) VALUES (?, ?) "
            "ON CONFLICT(code) DO UPDATE SET data = excluded.data",
            (row.code, json.dumps(row.data)),
        )

    def load_rooms(self) -> list[RoomRow]:
        return [RoomRow(c, json.loads(d)) for c, d in self._run("SELECT code, data FROM rooms")]

    def delete_room(self, code: str) -> None:
        try:
            with self._lock:
                self._db.execute("BEGIN")
                for table in ("rooms", "log", "records"):
                    self._db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
                self._db.execute("COMMIT")
                self._next.pop(code, None)
        except sqlite3.Error as e:
            self._rollback()
            raise StoreError(f"storage failed: {e}") from e

    def _rollback(self) -> None:
        try:
            with self._lock:
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
        try:
            with self._lock:
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
        return out

    def log(self, code: str, game: int) -> list[dict[str, Any]]:
        rows = self._run(
            "SELECT entry FROM log WHERE code = ? AND game = ? ORDER BY idx", (code, game)
        )
        return [json.loads(r[0]) for r in rows]

    def save_record(self, code: str, game: int, text: str) -> None:
        self._run(
            "INSERT INTO records (code, game, text) VALUES (?, ?, ?) "
            "ON CONFLICT(code, game) DO UPDATE SET text = excluded.text",
            (code, game, text),
        )

    def record(self, code: str, game: int) -> str | None:
        rows = self._run("SELECT text FROM records WHERE code = ? AND game = ?", (code, game))
        return str(rows[0][0]) if rows else None

    def close(self) -> None:
        with self._lock:
            self._db.close()
