"""PostgreSQL behind the ``Store`` interface (issue 35, item 1): ``unokit serve --store``.

The same few methods as ``SQLiteStore``, on one psycopg 3 connection:

* **Schema migrations** are applied when the store opens, in one transaction under an
  advisory lock (two servers starting at once migrate once): ``schema_version`` holds
  the versions applied, ``MIGRATIONS[n - 1]`` is version ``n``.  A database already at
  a newer version than this unokit knows is refused.
* **The group commit** is kept: ``append_many`` writes every entry of the batch in one
  transaction (one round trip, psycopg's pipeline), durable on the server
  (``synchronous_commit`` on, PostgreSQL's default) when it returns.
* **One entry per (room, game, index)**: the log's primary key; a second write of the
  same index fails (``StoreError``) instead of adding a diverging copy.
* **One server per database** unless the servers share a bus (``shared``: ``unokit
  serve --bus``): alone, the store holds a session advisory lock, and a second
  ``unokit serve`` on the same database stops with one line, as with SQLite's lock
  file.  Shared, every write that orders a room is conditional (``append_at``: one
  entry per index; ``put_room``: the room's ``rev`` unchanged) and leases say which
  server drives a room's bots and clocks (``take_leases``).
* **Failures**: every psycopg error becomes a ``StoreError`` (the server answers
  ``storage_unavailable``, nothing applied); a connection that broke is dropped and the
  next call connects again, so play resumes by itself once the database is back.  A
  commit whose answer was lost (the connection broke during ``COMMIT``) may or may not
  have happened: its entries were refused to the players, so on reconnecting they are
  deleted if they are there, before anything else is written.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from typing import Any, LiteralString

import orjson
import psycopg
from psycopg import conninfo, sql

from unokit.server.store import RoomRow, StoreError, StoreLocked, StoreOpenError

log = logging.getLogger("unokit.server")

# Version n is MIGRATIONS[n - 1].  Append, never edit one that has shipped.
MIGRATIONS: tuple[LiteralString, ...] = (
    # 1: the tables of SQLiteStore.  Rooms and entries are JSONB (queryable); a
    # record is the exact text players download.
    """
    CREATE TABLE rooms (
        code TEXT PRIMARY KEY,
        data JSONB NOT NULL
    );
    CREATE TABLE log (
        code TEXT NOT NULL,
        game INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        entry JSONB NOT NULL,
        PRIMARY KEY (code, game, idx)
    );
    CREATE TABLE records (
        code TEXT NOT NULL,
        game INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (code, game)
    );
    """,
    # 2: leases: which server drives a room's bots and clocks (issue 35 item 2).  A
    # lease lapses at ``expires`` unless its holder renews it; ``token`` rises each
    # time another holder takes it (a fencing token, for logs and tests).
    """
    CREATE TABLE leases (
        code TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL,
        token BIGINT NOT NULL DEFAULT 1
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

# advisory lock keys (pg_advisory_lock's two-int form: unokit's, then which)
_LOCK_CLASS = 0x554E4F  # "UNO"
_MIGRATE = 1
_SERVER = 2

CONNECT_TIMEOUT = 5  # seconds; also how long a vanished server can stall one call
LOCK_WAIT = 3.0  # seconds to wait at start for a previous server's session to end


def redact(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the given URL"
    if "password" not in parts:
        return url
    return url.replace(str(parts["password"]), "***")


def _one_line(e: BaseException) -> str:
    """psycopg's message on one line (libpq's span several)."""
    text = " ".join(str(e).split())
    return text or type(e).__name__


class PostgresStore:
    """Rooms, the action log and records in a PostgreSQL database (``url``: a libpq
    URL, ``postgresql://user[:password]@host[:port]/dbname[?options]``).

    Raises ``StoreOpenError`` (one line, exit 2 from ``unokit serve``) when the URL is
    not a PostgreSQL URL, the server cannot be reached, the schema is newer than this
    unokit, or another server holds the database (``StoreLocked``)."""

    # A commit waits for PostgreSQL's WAL flush and a round trip: the server's group
    # commit then runs it in a worker thread (``Server``: "commits wait for the disk").
    sync = "full"

    def __init__(
        self, url: str, connect_timeout: float = CONNECT_TIMEOUT, shared: bool = False
    ) -> None:
        if not url.startswith(("postgresql://", "postgres://")):
            raise StoreOpenError(
                f"{url!r} is not a PostgreSQL URL such as postgresql://user@host:5432/dbname"
            )
        try:
            conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError as e:
            raise StoreOpenError(
                f"{redact(url)} is not a valid PostgreSQL URL: {_one_line(e)}"
            ) from None
        self.url = url
        self.shared = shared
        self.where = redact(url)
        self.connect_timeout = connect_timeout
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._closed = False
        # room code -> (game, the next log index), as in SQLiteStore
        self._next: dict[str, tuple[int, int]] = {}
        # entries of a commit whose outcome is unknown: removed on reconnecting
        self._doubt: list[tuple[str, int, int]] = []
        try:
            with self._lock:
                self._connection(first=True)
        except StoreOpenError:
            raise
        except StoreError as e:
            raise StoreOpenError(str(e)) from None

    # ------------------------------------------------------------ connection ---
    def _connection(self, first: bool = False) -> psycopg.Connection[tuple[Any, ...]]:
        """The open connection, or a new one (with the lock held)."""
        if self._closed:
            raise StoreError("storage failed: the store is closed")
        conn = self._conn
        if conn is not None and not conn.closed:
            return conn
        self._conn = None
        try:
            conn = psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=max(1, round(self.connect_timeout)),
                application_name=f"unokit serve pid {os.getpid()}",
                # a server that vanishes without closing the socket: give up in seconds
                keepalives=1,
                keepalives_idle=5,
                keepalives_interval=2,
                keepalives_count=3,
                tcp_user_timeout=int(self.connect_timeout * 2000),
            )
        except psycopg.Error as e:
            raise StoreError(f"cannot reach PostgreSQL at {self.where}: {_one_line(e)}") from None
        try:
            if not self.shared:
                self._hold(conn, wait=LOCK_WAIT if first else 0.0)
            if first:
                self._migrate(conn)
            self._settle_doubt(conn)
        except BaseException:
            with contextlib.suppress(Exception):
                conn.close()
            raise
        self._next.clear()  # recounted from the table
        self._conn = conn
        if not first:
            log.warning("storage: reconnected to PostgreSQL at %s", self.where)
        return conn

    def _hold(self, conn: psycopg.Connection[tuple[Any, ...]], wait: float) -> None:
        """Take the one-server-per-database lock for this session (``StoreLocked`` if
        another server has it).  At start, wait a moment: a server just killed leaves a
        session that PostgreSQL ends once it notices."""
        deadline = time.monotonic() + wait
        try:
            while True:
                row = conn.execute(
                    "SELECT pg_try_advisory_lock(%s, %s)", (_LOCK_CLASS, _SERVER)
                ).fetchone()
                if row is not None and row[0]:
                    return
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.1)
            holder = conn.execute(
                "SELECT a.application_name, a.client_addr FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s "
                "AND l.granted",
                (_LOCK_CLASS, _SERVER),
            ).fetchone()
        except psycopg.Error as e:
            raise StoreError(f"storage failed: {_one_line(e)}") from None
        who = f" ({holder[0]}{' at ' + str(holder[1]) if holder[1] else ''})" if holder else ""
        raise StoreLocked(
            f"the database at {self.where} is in use by another unokit server{who}: "
            "one server per database for now (issue 35 item 2)"
        )

    def _migrate(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        """Bring the schema to ``SCHEMA_VERSION``, once, whoever else starts now."""
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_LOCK_CLASS, _MIGRATE))
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    "version INTEGER PRIMARY KEY, "
                    "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                row = conn.execute(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_version"
                ).fetchone()
                current = int(row[0]) if row else 0
                if current > SCHEMA_VERSION:
                    raise StoreOpenError(
                        f"the database at {self.where} has schema version {current}, newer "
                        f"than this unokit's ({SCHEMA_VERSION}): upgrade unokit"
                    )
                for version in range(current + 1, SCHEMA_VERSION + 1):
                    conn.execute(MIGRATIONS[version - 1])
                    conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
                    log.info("storage: schema migrated to version %d", version)
        except psycopg.Error as e:
            raise StoreOpenError(
                f"cannot prepare the database at {self.where}: {_one_line(e)}"
            ) from None

    def _settle_doubt(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        """Delete the entries of a commit that was reported failed but may have been
        made: the players were told nothing changed."""
        if not self._doubt:
            return
        try:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(
                    "DELETE FROM log WHERE code = %s AND game = %s AND idx = %s", self._doubt
                )
        except psycopg.Error as e:
            raise StoreError(f"storage failed: {_one_line(e)}") from None
        log.warning("storage: %d entries of an unconfirmed commit removed", len(self._doubt))
        self._doubt = []

    def _failed(self, e: psycopg.Error) -> StoreError:
        """A psycopg error as a ``StoreError``; a broken connection is dropped (with the
        lock held), so the next call connects again."""
        conn = self._conn
        if conn is not None and (conn.closed or conn.broken):
            self._conn = None
            with contextlib.suppress(Exception):
                conn.close()
        self._next.clear()
        return StoreError(f"storage failed: {_one_line(e)}")

    def _run(self, query: LiteralString, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            conn = self._connection()
            try:
                cur = conn.execute(query, args)
                return cur.fetchall() if cur.description is not None else []
            except psycopg.Error as e:
                raise self._failed(e) from None

    # ------------------------------------------------------------ operations ---
    def save_room(self, row: RoomRow) -> None:
        self._run(
            "INSERT INTO rooms (code, data) VALUES (%s, %s::jsonb) "
            "ON CONFLICT (code) DO UPDATE SET data = excluded.data",
            (row.code, json.dumps(row.data)),
        )

    def load_rooms(self) -> list[RoomRow]:
        rows = self._run("SELECT code, data::text FROM rooms ORDER BY code")
        return [RoomRow(c, json.loads(d)) for c, d in rows]

    def delete_room(self, code: str) -> None:
        with self._lock:
            conn = self._connection()
            try:
                with conn.transaction():
                    for table in ("rooms", "log", "records", "leases"):
                        conn.execute(
                            sql.SQL("DELETE FROM {} WHERE code = %s").format(sql.Identifier(table)),
                            (code,),
                        )
            except psycopg.Error as e:
                raise self._failed(e) from None
            self._next.pop(code, None)

    def _index(self, conn: psycopg.Connection[tuple[Any, ...]], code: str, game: int) -> int:
        cached = self._next.get(code)
        if cached is not None and cached[0] == game:
            return cached[1]
        row = conn.execute(
            "SELECT COALESCE(MAX(idx) + 1, 0) FROM log WHERE code = %s AND game = %s",
            (code, game),
        ).fetchone()
        self._next[code] = (game, int(row[0]) if row else 0)
        return self._next[code][1]

    def append(self, code: str, game: int, entry: dict[str, Any]) -> int:
        return self.append_many([(code, game, entry)])[0]

    def append_many(self, entries: list[tuple[str, int, dict[str, Any]]]) -> list[int]:
        """Commit several entries in one transaction (a group commit)."""
        out: list[int] = []
        rows: list[tuple[str, int, int, str]] = []
        with self._lock:
            conn = self._connection()
            committing = False
            try:
                with conn.transaction():
                    for code, game, entry in entries:
                        idx = self._index(conn, code, game)
                        rows.append((code, game, idx, orjson.dumps(entry).decode()))
                        out.append(idx)
                        self._next[code] = (game, idx + 1)
                    with conn.cursor() as cur:
                        cur.executemany(
                            "INSERT INTO log (code, game, idx, entry) "
                            "VALUES (%s, %s, %s, %s::jsonb)",
                            rows,
                        )
                    committing = True  # leaving the block commits
            except psycopg.Error as e:
                if committing and (conn.closed or conn.broken):
                    # the COMMIT went out, its answer did not come back
                    self._doubt.extend((c, g, i) for c, g, i, _ in rows)
                raise self._failed(e) from None
        return out

    def append_at(self, rows: list[tuple[str, int, int, dict[str, Any]]]) -> list[bool]:
        """Commit several entries at their indexes in one transaction (a group commit);
        an index already taken is skipped (False), the others are stored."""
        out: list[bool] = []
        data = [(c, g, i, orjson.dumps(e).decode()) for c, g, i, e in rows]
        with self._lock:
            conn = self._connection()
            committing = False
            try:
                with conn.transaction(), conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO log (code, game, idx, entry) "
                        "VALUES (%s, %s, %s, %s::jsonb) ON CONFLICT DO NOTHING RETURNING 1",
                        data,
                        returning=True,
                    )
                    while True:
                        out.append(cur.fetchone() is not None)
                        if not cur.nextset():
                            break
                    committing = True  # leaving the block commits
            except psycopg.Error as e:
                if committing and (conn.closed or conn.broken):
                    # the COMMIT went out, its answer did not come back
                    mine = zip(data, out, strict=True)  # only indexes it stored: not others'
                    self._doubt.extend((c, g, i) for (c, g, i, _), ok in mine if ok)
                raise self._failed(e) from None
            finally:
                self._next.clear()  # append() recounts from the table
        return out

    def log(self, code: str, game: int) -> list[dict[str, Any]]:
        return self.log_since(code, game, 0)

    def log_since(self, code: str, game: int, start: int) -> list[dict[str, Any]]:
        rows = self._run(
            "SELECT entry::text FROM log WHERE code = %s AND game = %s AND idx >= %s ORDER BY idx",
            (code, game, start),
        )
        return [orjson.loads(r[0]) for r in rows]

    def load_room(self, code: str) -> RoomRow | None:
        rows = self._run("SELECT data::text FROM rooms WHERE code = %s", (code,))
        return RoomRow(code, json.loads(rows[0][0])) if rows else None

    def put_room(self, row: RoomRow, expect: int | None) -> bool:
        data = json.dumps(row.data)
        if expect is None:
            rows = self._run(
                "INSERT INTO rooms (code, data) VALUES (%s, %s::jsonb) "
                "ON CONFLICT DO NOTHING RETURNING 1",
                (row.code, data),
            )
        else:
            rows = self._run(
                "UPDATE rooms SET data = %s::jsonb WHERE code = %s "
                "AND COALESCE((data->>'rev')::int, 0) = %s RETURNING 1",
                (data, row.code, expect),
            )
        return bool(rows)

    # ------------------------------------------------------------ leases ---
    def take_leases(self, holder: str, codes: list[str], seconds: float) -> set[str]:
        """Take or renew the leases of ``codes`` for ``holder``: the codes it now holds
        (those another holder has and has not let lapse are left to it)."""
        if not codes:
            return set()
        rows = self._run(
            "INSERT INTO leases AS l (code, holder, expires) "
            "SELECT c, %s, now() + make_interval(secs => %s) FROM unnest(%s::text[]) AS c "
            "ON CONFLICT (code) DO UPDATE SET holder = excluded.holder, "
            "expires = excluded.expires, "
            "token = l.token + (l.holder <> excluded.holder)::int "
            "WHERE l.holder = excluded.holder OR l.expires < now() "
            "RETURNING code",
            (holder, seconds, codes),
        )
        return {r[0] for r in rows}

    def release_leases(self, holder: str, codes: list[str]) -> None:
        """Give up leases now (a graceful shutdown), so another server takes them at
        once rather than when they lapse."""
        if codes:
            self._run(
                "DELETE FROM leases WHERE holder = %s AND code = ANY(%s::text[])", (holder, codes)
            )

    def orphans(self, limit: int = 100) -> list[str]:
        """Rooms in play whose lease lapsed (their server died) or that never had one."""
        rows = self._run(
            "SELECT r.code FROM rooms r LEFT JOIN leases l ON l.code = r.code "
            "WHERE r.data->>'status' = 'playing' AND (l.code IS NULL OR l.expires < now()) "
            "LIMIT %s",
            (limit,),
        )
        return [r[0] for r in rows]

    def soonest_lapse(self, holder: str) -> float | None:
        """Seconds until another holder's first lease lapses (None: there is none)."""
        rows = self._run(
            "SELECT EXTRACT(EPOCH FROM MIN(expires) - now()) FROM leases WHERE holder <> %s",
            (holder,),
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    def save_record(self, code: str, game: int, text: str) -> None:
        self._run(
            "INSERT INTO records (code, game, text) VALUES (%s, %s, %s) "
            "ON CONFLICT (code, game) DO UPDATE SET text = excluded.text",
            (code, game, text),
        )

    def record(self, code: str, game: int) -> str | None:
        rows = self._run("SELECT text FROM records WHERE code = %s AND game = %s", (code, game))
        return str(rows[0][0]) if rows else None

    def schema_version(self) -> int:
        rows = self._run("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(rows[0][0])

    def close(self) -> None:
        """Close the connection (which releases the one-server lock)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            conn, self._conn = self._conn, None
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
