"""PostgreSQL behind the ``Store`` interface (issue 35, item 1): ``unokit serve --store``.

The same few methods as ``SQLiteStore``, on psycopg 3 through a psycopg-pool
``ConnectionPool`` (a few connections: a room's load, the leases and a group commit
need not wait for each other; the server calls the store from worker threads, as it
does SQLite, so the pool is psycopg's threaded one):

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
  server drives a room's bots and clocks (``take_leases``); a driver's write is stored
  only under its lease, checked in the write's transaction (``append_at``'s holders).
  Rows are locked in one order (codes sorted) by every writer, so no two deadlock.
* **Failures**: every psycopg error becomes a ``StoreError`` (the server answers
  ``storage_unavailable``, nothing applied); a connection that broke is dropped (the
  pool checks the others) and the pool connects again, so play resumes by itself once
  the database is back.  A commit whose answer was lost (the connection broke during
  ``COMMIT``) may or may not have happened: its entries were refused to the players,
  so they are deleted if they are there, before anything else is done with the store.
  Alone (not ``shared``), the one-server lock lives on a connection of its own, taken
  again before any use of the store if that connection broke.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, LiteralString

import orjson
import psycopg
from psycopg import conninfo, sql
from psycopg.errors import DeadlockDetected
from psycopg_pool import ConnectionPool, PoolTimeout

from unokit.server import profiles
from unokit.server.profiles import HISTORY_KEYS
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
    # 3: the home page's list of public rooms (issue 49 item 3) reads the open ones only
    """
    CREATE INDEX rooms_open ON rooms (((data->>'created')::double precision) DESC)
        WHERE data->>'public' = 'true' AND data->>'status' = 'lobby';
    """,
    # 4: profiles, their games and ratings (issue 49 item 4, unokit.server.profiles).
    # ``counted`` holds each game counted, so a game counts once whichever server of
    # the cluster saves its end, however often
    """
    CREATE TABLE profiles (
        id TEXT PRIMARY KEY,
        token TEXT NOT NULL UNIQUE,
        data JSONB NOT NULL
    );
    CREATE TABLE results (
        code TEXT NOT NULL,
        game INTEGER NOT NULL,
        profile TEXT NOT NULL,
        data JSONB NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, game, profile)
    );
    CREATE TABLE counted (
        code TEXT NOT NULL,
        game INTEGER NOT NULL,
        PRIMARY KEY (code, game)
    );
    CREATE INDEX results_of ON results (profile, at DESC);
    CREATE INDEX profiles_board ON profiles
        (((data->>'mu')::double precision - 3 * (data->>'sigma')::double precision) DESC)
        WHERE data->>'listed' = 'true';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

# advisory lock keys (pg_advisory_lock's two-int form: unokit's, then which)
_LOCK_CLASS = 0x554E4F  # "UNO"
_MIGRATE = 1
_SERVER = 2

CONNECT_TIMEOUT = 5  # seconds; also how long a vanished server can stall one call
# Once a call found PostgreSQL unreachable, the next ones wait this long for a
# connection, not CONNECT_TIMEOUT: a move in an outage is refused at once, not after 5 s
UNREACHABLE_WAIT = 1.0
POOL_SIZE = 4  # connections at most: a commit, a room's load, the leases, one spare
LOCK_WAIT = 3.0  # seconds to wait at start for a previous server's session to end
LOCK_CHECK = 1.0  # alone: how often (at most) to ask that the lock's session still holds it
# PostgreSQL ends a session of ours that sits inside a transaction for this long.  A
# process paused between a group commit's INSERT and its COMMIT (SIGSTOP, a frozen VM,
# a swap storm) kept the rows locked for as long as the pause lasted, and another
# process of the cluster that needed the same log position waited as long, and every
# other room's move in its group commit with it (issue 48, D1: 0 entries stored for
# about 8 s during a 12 s pause).  Our transactions are a few statements sent back to
# back, so a live process is never idle in one for a second; the paused one finds its
# session gone when it wakes, its commit in doubt, which the doubt path settles.  No
# statement_timeout: a long read (a big game's log) is no fault.
IDLE_IN_TRANSACTION = 5.0  # seconds


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
        self,
        url: str,
        connect_timeout: float = CONNECT_TIMEOUT,
        shared: bool = False,
        idle_in_transaction: float = IDLE_IN_TRANSACTION,
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
        self.idle_in_transaction = idle_in_transaction
        self._guard = threading.Lock()  # the doubt, the holder, closing
        self._appending = threading.Lock()  # ``append_many`` and its index cache
        self._leasing = threading.Lock()  # take and release leases one at a time
        self._holder: psycopg.Connection[tuple[Any, ...]] | None = None
        self._lock_checked = time.monotonic()  # when the lock's session last answered
        self._closed = False
        self._unreachable = False  # the last call found no connection (or broke one)
        # room code -> (game, the next log index), as in SQLiteStore
        self._next: dict[str, tuple[int, int]] = {}
        # entries of a commit whose outcome is unknown: removed before the next use
        self._doubt: list[tuple[str, int, int]] = []
        try:
            first = self._connect()  # the errors of a bad URL or server, in one line
        except StoreError as e:
            raise StoreOpenError(str(e)) from None
        try:
            if not shared:
                self._hold(first, wait=LOCK_WAIT)
            self._migrate(first)
        except BaseException:
            with contextlib.suppress(Exception):
                first.close()
            raise
        if shared:
            first.close()
        else:
            self._holder = first  # the session that holds the one-server lock
        self._pool: ConnectionPool[psycopg.Connection[tuple[Any, ...]]] = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs=self._options(),
            timeout=connect_timeout,  # waiting for a connection: then storage_unavailable
            # the pool's own retries back off (1, 2, 4... s): it gives them up after
            # this long and the next call starts afresh, so that play resumes within
            # seconds of PostgreSQL's return however long it was away (with a day
            # here, a 70 s outage was followed by 57 s more of refusals)
            reconnect_timeout=connect_timeout,
            name="unokit",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except PoolTimeout as e:
            self._pool.close()
            if self._holder is not None:
                self._holder.close()
            raise StoreOpenError(f"cannot reach PostgreSQL at {self.where}: {e}") from None

    # ------------------------------------------------------------ connection ---
    def _options(self) -> dict[str, Any]:
        return {
            "autocommit": True,
            "connect_timeout": max(1, round(self.connect_timeout)),
            "application_name": f"unokit serve pid {os.getpid()}",
            # a server that vanishes without closing the socket: give up in seconds
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": int(self.connect_timeout * 2000),
            # a session paused inside a transaction must not hold its locks for ever
            "options": "-c idle_in_transaction_session_timeout="
            f"{max(1, round(self.idle_in_transaction * 1000))}",
        }

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        try:
            return psycopg.connect(self.url, **self._options())
        except psycopg.Error as e:
            raise StoreError(f"cannot reach PostgreSQL at {self.where}: {_one_line(e)}") from None

    @contextlib.contextmanager
    def _use(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """A connection of the pool, once the one-server lock is ours (alone) and any
        doubtful commit is settled; a psycopg error leaves as a ``StoreError``."""
        if self._closed:
            raise StoreError("storage failed: the store is closed")
        if not self.shared or self._doubt:
            with self._guard:
                if not self.shared:
                    self._keep_lock()
                if self._doubt:
                    self._settle_doubt()
        wait = UNREACHABLE_WAIT if self._unreachable else self.connect_timeout
        try:
            with self._pool.connection(timeout=wait) as conn:
                self._unreachable = False
                try:
                    yield conn
                except psycopg.Error as e:
                    raise self._failed(conn, e) from None
        except PoolTimeout as e:
            self._unreachable = True
            raise StoreError(f"storage failed: no connection to PostgreSQL: {e}") from None

    def _keep_lock(self) -> None:
        """Alone on the database: the lock's session must be alive, or taken again
        (``StoreLocked``, a ``StoreError``, if another server has it meanwhile)."""
        conn = self._holder
        if conn is not None and not (conn.closed or conn.broken):
            if time.monotonic() - self._lock_checked < LOCK_CHECK:
                return
            # psycopg notices a dead session only when it is used: ask it, and that
            # it still holds the lock (a terminated backend, an idle timeout, a NAT)
            try:
                row = conn.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                    "AND classid = %s AND objid = %s AND pid = pg_backend_pid() AND granted",
                    (_LOCK_CLASS, _SERVER),
                ).fetchone()
            except psycopg.Error:
                row = None
            if row is not None and row[0]:
                self._lock_checked = time.monotonic()
                return
            log.error("storage: the one-server lock's session was lost; taking it again")
            with contextlib.suppress(Exception):
                conn.close()
        self._holder = None
        conn = self._connect()
        try:
            self._hold(conn, wait=0.0)
        except BaseException:
            with contextlib.suppress(Exception):
                conn.close()
            raise
        self._holder = conn
        self._lock_checked = time.monotonic()
        self._next.clear()  # recounted from the table
        log.warning("storage: reconnected to PostgreSQL at %s", self.where)

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

    def _settle_doubt(self) -> None:
        """Delete the entries of a commit that was reported failed but may have been
        made: the players were told nothing changed (with ``_guard`` held)."""
        if not self._doubt:
            return
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                cur.executemany(
                    "DELETE FROM log WHERE code = %s AND game = %s AND idx = %s", self._doubt
                )
        except psycopg.Error as e:
            raise StoreError(f"storage failed: {_one_line(e)}") from None
        except PoolTimeout as e:
            raise StoreError(f"storage failed: no connection to PostgreSQL: {e}") from None
        log.warning("storage: %d entries of an unconfirmed commit removed", len(self._doubt))
        self._doubt = []
        self._next.clear()

    def _failed(self, conn: psycopg.Connection[tuple[Any, ...]], e: psycopg.Error) -> StoreError:
        """A psycopg error as a ``StoreError``.  A broken connection goes back to the
        pool, which drops it; the idle others are checked, since a database that went
        away broke them all, and the one-server lock's session may have gone with it."""
        if conn.closed or conn.broken:
            self._unreachable = True
            self._pool.check()
            holder = self._holder
            if holder is not None and not holder.closed:
                try:
                    holder.execute("SELECT 1")
                except psycopg.Error:
                    with contextlib.suppress(Exception):
                        holder.close()
        self._next.clear()
        if isinstance(e, DeadlockDetected):
            # every write locks its rows in one order, so this should not happen: when
            # it does, it is said (the servers logged nothing of D5's deadlock)
            log.warning("storage: PostgreSQL broke a deadlock by ending this transaction "
                        "(refused, nothing stored): %s", _one_line(e))  # fmt: skip
        return StoreError(f"storage failed: {_one_line(e)}")

    def _run(self, query: LiteralString, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._use() as conn:
            cur = conn.execute(query, args)
            return cur.fetchall() if cur.description is not None else []

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
        with self._use() as conn, conn.transaction():
            for table in ("rooms", "log", "records", "leases"):
                conn.execute(
                    sql.SQL("DELETE FROM {} WHERE code = %s").format(sql.Identifier(table)),
                    (code,),
                )
        self._next.pop(code, None)

    def _unconfirmed(self, entries: list[tuple[str, int, int]]) -> None:
        """The COMMIT of ``entries`` went out and its answer did not come back.

        Alone, they are deleted before the next use (nobody else saw them).  Shared,
        they stand whether or not they were made: another server may already have read
        them and built on them, or (if they were not made) stored its own entry at the
        index, so a delete would remove an acknowledged move.  The log is the truth; this
        server's copy of the room meets it at its next write (``RoomChanged``)."""
        if self.shared:
            return
        with self._guard:
            self._doubt.extend(entries)

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
        with self._appending, self._use() as conn:
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
            except psycopg.Error:
                if committing and (conn.closed or conn.broken):
                    self._unconfirmed([(c, g, i) for c, g, i, _ in rows])
                raise
        return out

    def append_at(
        self, rows: list[tuple[str, int, int, dict[str, Any]]], holders: Sequence[str | None] = ()
    ) -> list[bool | None]:
        """Commit several entries at their indexes in one transaction (a group commit);
        an index already taken is skipped (False), the others are stored.

        A row with a holder is stored only while that holder's lease of its room runs,
        checked in this transaction with the lease rows locked (``FOR SHARE``): another
        server's take waits for this commit, so no write of the old holder lands after
        the new one took over (issue 48, D2).  Rows, and the leases before them, are
        locked in one order (room, game, index), the order every server uses, so two
        servers' commits over the same rooms wait for each other and never deadlock."""
        want = [holders[k] if holders else None for k in range(len(rows))]
        out: list[bool | None] = [None] * len(rows)
        data = [(c, g, i, orjson.dumps(e).decode()) for c, g, i, e in rows]
        order = sorted(range(len(rows)), key=lambda k: data[k][:3])
        stored: list[int] = []
        try:
            with self._use() as conn:
                committing = False
                try:
                    with conn.transaction(), conn.cursor() as cur:
                        leased: set[tuple[str, str]] = set()
                        for holder in sorted({h for h in want if h is not None}):
                            codes = sorted({rows[k][0] for k in order if want[k] == holder})
                            cur.execute(
                                "SELECT code FROM leases WHERE holder = %s "
                                "AND code = ANY(%s::text[]) AND expires > now() "
                                "ORDER BY code FOR SHARE",
                                (holder, codes),
                            )
                            leased |= {(holder, str(r[0])) for r in cur.fetchall()}
                        go = [k for k in order
                              if want[k] is None or (want[k], rows[k][0]) in leased]  # fmt: skip
                        if go:
                            cur.executemany(
                                "INSERT INTO log (code, game, idx, entry) VALUES "
                                "(%s, %s, %s, %s::jsonb) ON CONFLICT DO NOTHING RETURNING 1",
                                [data[k] for k in go],
                                returning=True,
                            )
                            for n, k in enumerate(go):
                                if n:
                                    cur.nextset()
                                out[k] = cur.fetchone() is not None
                                if out[k]:
                                    stored.append(k)
                        committing = True  # leaving the block commits
                except psycopg.Error:
                    if committing and (conn.closed or conn.broken):
                        self._unconfirmed([data[k][:3] for k in stored])  # only its own
                    raise
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
        with self._leasing:  # one lease call at a time: a release follows a renewal
            return self._take_leases(holder, codes, seconds)

    def _take_leases(self, holder: str, codes: list[str], seconds: float) -> set[str]:
        # the rows in one order for every server (the codes sorted): two servers taking
        # the same rooms in different orders deadlocked once at game start (issue 48, D5)
        rows = self._run(
            "INSERT INTO leases AS l (code, holder, expires) "
            "SELECT c, %s, now() + make_interval(secs => %s) FROM unnest(%s::text[]) AS c "
            "ORDER BY c "
            "ON CONFLICT (code) DO UPDATE SET holder = excluded.holder, "
            "expires = excluded.expires, "
            "token = l.token + (l.holder <> excluded.holder)::int "
            "WHERE l.holder = excluded.holder OR l.expires < now() "
            "RETURNING code",
            (holder, seconds, sorted(set(codes))),
        )
        return {r[0] for r in rows}

    def release_leases(self, holder: str, codes: list[str]) -> None:
        """Give up leases now (a graceful shutdown), so another server takes them at
        once rather than when they lapse.  The row stays, lapsed: deleted, the next
        holder started again at token 1, and the fencing token went down (issue 48, D4:
        36 times in one run); kept, the next holder's take raises it."""
        if codes:
            with self._leasing:
                self._run(  # locked in the codes' order, as every lease write (D5)
                    "UPDATE leases SET expires = now() - interval '1 millisecond' "
                    "WHERE code IN (SELECT code FROM leases WHERE holder = %s "
                    "AND code = ANY(%s::text[]) ORDER BY code FOR UPDATE)",
                    (holder, codes),
                )

    def public_rooms(self, limit: int = 200) -> list[RoomRow]:
        rows = self._run(
            "SELECT code, data::text FROM rooms "
            "WHERE data->>'public' = 'true' AND data->>'status' = 'lobby' "
            "ORDER BY (data->>'created')::double precision DESC LIMIT %s",
            (limit,),
        )
        return [RoomRow(c, json.loads(d)) for c, d in rows]

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
        """Seconds until another holder's next lease lapses (None: there is none; a
        lapsed one is an orphan's, or a finished game's, and ``orphans`` has those)."""
        rows = self._run(
            "SELECT EXTRACT(EPOCH FROM MIN(expires) - now()) FROM leases "
            "WHERE holder <> %s AND expires > now()",
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

    # ------------------------------------------------------------ profiles ---
    def create_profile(self, token_hash: str, row: dict[str, Any]) -> bool:
        rows = self._run(
            "INSERT INTO profiles (id, token, data) VALUES (%s, %s, %s::jsonb) "
            "ON CONFLICT DO NOTHING RETURNING 1",
            (row["id"], token_hash, json.dumps(row)),
        )
        return bool(rows)

    def profile_by_token(self, token_hash: str) -> dict[str, Any] | None:
        rows = self._run("SELECT data::text FROM profiles WHERE token = %s", (token_hash,))
        return dict(json.loads(rows[0][0])) if rows else None

    def load_profile(self, pid: str) -> dict[str, Any] | None:
        rows = self._run("SELECT data::text FROM profiles WHERE id = %s", (pid,))
        if not rows:
            return None
        games = self._run(
            "SELECT code, game, data::text FROM results WHERE profile = %s "
            "ORDER BY at DESC LIMIT %s",
            (pid, profiles.HISTORY),
        )
        history = [{"code": c, "game": g, **json.loads(d)} for c, g, d in games]
        return {**json.loads(rows[0][0]), "history": history}

    def update_profile(self, pid: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        rows = self._run(
            "UPDATE profiles SET data = data || %s::jsonb WHERE id = %s RETURNING data::text",
            (json.dumps(changes), pid),
        )
        return dict(json.loads(rows[0][0])) if rows else None

    def count_game(self, code: str, game: int, results: list[dict[str, Any]]) -> bool:
        with self._use() as conn, conn.transaction():
            new = conn.execute(
                "INSERT INTO counted (code, game) VALUES (%s, %s) ON CONFLICT DO NOTHING "
                "RETURNING 1",
                (code, game),
            ).fetchall()
            if not new:
                return False
            ids = sorted({r["profile"] for r in results})
            # locked in one order (D5): two games ending at once wait, never deadlock
            rows = {
                pid: json.loads(d)
                for pid, d in conn.execute(
                    "SELECT id, data::text FROM profiles WHERE id = ANY(%s::text[]) "
                    "ORDER BY id FOR UPDATE",
                    (ids,),
                ).fetchall()
            }
            with conn.cursor() as cur:
                cur.executemany(
                    "UPDATE profiles SET data = %s::jsonb WHERE id = %s",
                    [
                        (json.dumps(row), pid)
                        for pid, row in sorted(profiles.after_game(rows, results).items())
                    ],
                )
                cur.executemany(
                    "INSERT INTO results (code, game, profile, data, at) "
                    "VALUES (%s, %s, %s, %s::jsonb, %s) ON CONFLICT DO NOTHING",
                    [
                        (
                            code,
                            game,
                            r["profile"],
                            json.dumps({k: r[k] for k in HISTORY_KEYS}),
                            r["at"],
                        )
                        for r in results
                        if r["profile"] in rows
                    ],
                )
            return True

    def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._run(
            "SELECT data::text FROM profiles WHERE data->>'listed' = 'true' "
            "AND (data->>'rated')::int > 0 ORDER BY "
            "(data->>'mu')::double precision - 3 * (data->>'sigma')::double precision DESC "
            "LIMIT %s",
            (limit,),
        )
        return [dict(json.loads(r[0])) for r in rows]

    def schema_version(self) -> int:
        rows = self._run("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(rows[0][0])

    def close(self) -> None:
        """Close the pool and the lock's session (which releases the one-server lock)."""
        with self._guard:
            if self._closed:
                return
            if self._doubt:  # alone: a failed commit that may have been made goes now
                with contextlib.suppress(StoreError):
                    self._settle_doubt()
            self._closed = True
            holder, self._holder = self._holder, None
        with contextlib.suppress(Exception):
            self._pool.close()
        if holder is not None:
            with contextlib.suppress(Exception):
                holder.close()
