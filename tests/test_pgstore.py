"""PostgreSQL behind the store interface (issue 35, item 1), against a real cluster.

A throwaway PostgreSQL cluster (``initdb`` into a temporary folder, ``pg_ctl start`` on
127.0.0.1 with a free port, its socket in that folder) serves the whole session; each
test gets a database of its own.  As root (CI) the cluster runs as an unprivileged
user: initdb refuses root.  Without PostgreSQL's binaries the tests fail, saying what
to install (``make test`` installs them: scripts/machine.sh); they never skip.

* The store contract, run over ``MemoryStore``, ``SQLiteStore`` and ``PostgresStore``.
* Migrations: applied once, idempotent on restart; a newer schema is refused.
* One entry per (room, game, index); one server per database.
* ``unokit serve --store``: one line and exit 2 for a bad URL, an unreachable server,
  or ``--db`` given too.
* A real ``unokit serve --store postgresql://...`` plays a room, is killed, restarts
  and resumes it from PostgreSQL; PostgreSQL stopped mid-game -> moves refused with
  ``storage_unavailable``, nothing changed; PostgreSQL back -> play goes on by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from server_helpers import Client, Harness, choose
from unokit.cli import main
from unokit.server.pgstore import SCHEMA_VERSION, PostgresStore
from unokit.server.store import (
    MemoryStore,
    RoomRow,
    SQLiteStore,
    Store,
    StoreError,
    StoreLocked,
    StoreOpenError,
)

# services: one throwaway PostgreSQL serves every test here, on one xdist worker
pytestmark = [pytest.mark.services, pytest.mark.xdist_group("postgres")]


# ------------------------------------------------------------- the cluster ---------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _binaries() -> Path:
    """The folder holding initdb and pg_ctl: PATH first, then Debian's folders."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(Path(folder) / "initdb", os.X_OK):
            return Path(folder)
    pytest.fail(
        "PostgreSQL's initdb and pg_ctl are not on PATH nor in /usr/lib/postgresql/*/bin: "
        "install them (apt-get install postgresql), as make test does",
        pytrace=False,
    )


class Cluster:
    """A PostgreSQL cluster of this test session, on 127.0.0.1."""

    def __init__(self, base: Path, user: str | None) -> None:
        self.bin = _binaries()
        self.base = base
        self.data = base / "data"
        self.sockets = base / "sock"
        self.logfile = base / "server.log"
        self.user = user  # run as this user (we are root), else as ourselves
        self.port = _free_port()
        self._dbs = itertools.count()

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            log = self.logfile.read_text()[-2000:] if self.logfile.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}{log}")

    def init(self) -> None:
        self.sockets.mkdir()
        if self.user is not None:
            ids = pwd.getpwnam(self.user)
            for p in (self.base, self.sockets):
                os.chown(p, ids.pw_uid, ids.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "unokit", "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")  # fmt: skip
        self.start()

    def start(self) -> None:
        """The postmaster as a child of this process, in its process group: ``pg_ctl
        start`` gave it a session of its own, so a test run killed as a group (the
        flake hunt's timeout, a Ctrl-C of make) left the cluster running for ever."""
        cmd = [str(self.bin / "postgres"), "-D", str(self.data), "-c", "listen_addresses=127.0.0.1",
               "-p", str(self.port), "-c", f"unix_socket_directories={self.sockets}",
               "-c", "fsync=off"]  # fmt: skip
        # as root, the cluster's user by Popen's own setuid: runuser would give it a
        # session of its own again
        ids = pwd.getpwnam(self.user) if self.user is not None else None
        with self.logfile.open("ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                user=ids.pw_uid if ids else None,
                group=ids.pw_gid if ids else None,
                extra_groups=[] if ids else None,
            )
        deadline = time.monotonic() + 60
        while True:  # ready when it answers a connection
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"PostgreSQL did not start: {self.logfile.read_text()[-2000:]}"
                    ) from None
                time.sleep(0.05)

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")
        proc = getattr(self, "proc", None)
        if proc is not None:
            proc.wait(30)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://unokit@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        name = f"t{next(self._dbs)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}".encode())
        return self.url(name)


def _cluster_user() -> str | None:
    """Who runs the cluster: ourselves, or (as root, which initdb refuses) Debian's
    ``postgres`` user if there is one, else ``nobody``."""
    if os.getuid() != 0:
        return None
    if shutil.which("runuser") is None:
        pytest.fail("running as root needs runuser (util-linux) to start PostgreSQL as "
                    "another user", pytrace=False)  # fmt: skip
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
            return user
        except KeyError:
            continue
    pytest.fail("running as root, but there is no 'postgres' or 'nobody' user to run "
                "PostgreSQL as", pytrace=False)  # fmt: skip


@pytest.fixture(scope="session")
def pg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    user = _cluster_user()
    # pytest's own temporary folders are private to root: the cluster's user could not
    # reach one, so as root the cluster gets a folder of its own under /tmp
    base = (
        tmp_path_factory.mktemp("pg")
        if user is None
        else Path(tempfile.mkdtemp(prefix="unokit-pg-"))
    )
    cluster = Cluster(base, user)
    try:
        cluster.init()
        yield cluster
    finally:
        with contextlib.suppress(RuntimeError):  # never started
            cluster.stop("immediate")
        if user is not None:
            shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def pg_url(pg: Cluster) -> str:
    return pg.new_database()


# ------------------------------------------------------------- the contract --------
Opener = Callable[[], Store]


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the store (again: a new store on the same data, except memory's)."""
    opened: list[Store] = []
    memory = MemoryStore()

    def open_() -> Store:
        store: Store
        if request.param == "memory":
            store = memory
        elif request.param == "sqlite":
            store = SQLiteStore(tmp_path / "s.sqlite3")
        else:
            store = PostgresStore(url)
        opened.append(store)
        return store

    url = request.getfixturevalue("pg_url") if request.param == "postgres" else ""
    yield open_
    for store in opened:
        store.close()


def test_contract_rooms_are_saved_replaced_listed_and_deleted_with_their_games(
    opener: Opener,
) -> None:
    store = opener()
    seats = [{"name": "Ana", "token": "h" * 64}, None, {"name": "Bot", "kind": "bot"}]
    store.save_room(RoomRow("AAAAAA", {"status": "lobby", "seats": seats, "game": 0}))
    store.save_room(RoomRow("BBBBBB", {"status": "lobby", "seats": [], "game": 0}))
    store.save_room(RoomRow("AAAAAA", {"status": "playing", "seats": seats, "game": 1}))
    store.append("AAAAAA", 1, {"t": "round", "seed": 7})
    store.save_record("AAAAAA", 1, "uno-record/1\n…\n")
    rooms = {r.code: r.data for r in store.load_rooms()}
    assert rooms == {
        "AAAAAA": {"status": "playing", "seats": seats, "game": 1},
        "BBBBBB": {"status": "lobby", "seats": [], "game": 0},
    }
    store.delete_room("AAAAAA")
    assert [r.code for r in store.load_rooms()] == ["BBBBBB"]
    assert store.log("AAAAAA", 1) == [] and store.record("AAAAAA", 1) is None
    # a room of that code later starts afresh
    assert store.append("AAAAAA", 1, {"t": "round", "seed": 8}) == 0


def test_contract_each_games_log_is_numbered_from_0_and_a_reopened_store_goes_on(
    opener: Opener,
) -> None:
    store = opener()
    for game in range(1, 6):
        for code in ("AAAAAA", "BBBBBB"):
            assert [store.append(code, game, {"i": i}) for i in range(3)] == [0, 1, 2]
    assert store.log("AAAAAA", 4) == [{"i": 0}, {"i": 1}, {"i": 2}]
    assert store.log("AAAAAA", 6) == [] and store.log("CCCCCC", 1) == []
    store.close()
    again = opener()
    assert again.append("AAAAAA", 5, {"i": 3}) == 3  # after what the store holds
    assert again.append("AAAAAA", 6, {"i": 0}) == 0
    assert again.log("AAAAAA", 5) == [{"i": 0}, {"i": 1}, {"i": 2}, {"i": 3}]


def test_contract_a_group_commit_appends_every_rooms_entries_exactly(opener: Opener) -> None:
    store = opener()
    odd = {
        "t": "act",
        "a": {"play": "r+2", "uno": True, "cards": ["w4", "y0"], "none": None},
        "big": 2**62,
        "neg": -3,
        "f": 0.1,
        "text": 'Zoë 🃏 "quoted" \\ <b>',
        "nested": [[], {}, [1, [2, {"k": False}]]],
    }
    batch = [("AAAAAA", 1, {"t": "round"}), ("BBBBBB", 2, odd), ("AAAAAA", 1, odd),
             ("BBBBBB", 2, {"t": "act"})]  # fmt: skip
    assert store.append_many(batch) == [0, 0, 1, 1]
    assert store.append_many([]) == []
    assert store.log("AAAAAA", 1) == [{"t": "round"}, odd]
    assert store.log("BBBBBB", 2) == [odd, {"t": "act"}]


def test_contract_records_are_kept_exactly_and_replaced(opener: Opener) -> None:
    store = opener()
    assert store.record("AAAAAA", 1) is None
    text = '{"format": "uno-record/1"}\n  trailing spaces  \n\ttab ✓\n'
    store.save_record("AAAAAA", 1, text)
    store.save_record("AAAAAA", 2, "second")
    assert store.record("AAAAAA", 1) == text
    store.save_record("AAAAAA", 1, "replaced")
    assert store.record("AAAAAA", 1) == "replaced"
    assert store.record("AAAAAA", 2) == "second"
    store.close()
    assert opener().record("AAAAAA", 2) == "second"


# ------------------------------------------------------------- PostgreSQL ----------
def _versions(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY 1")]


def test_migrations_are_applied_once_and_again_on_restart_change_nothing(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    assert store.schema_version() == SCHEMA_VERSION == 4
    store.save_room(RoomRow("AAAAAA", {"status": "lobby"}))
    store.append("AAAAAA", 1, {"t": "round"})
    store.close()
    for _ in range(2):  # restarts: nothing applied twice, nothing lost
        store = PostgresStore(pg_url)
        assert [r.code for r in store.load_rooms()] == ["AAAAAA"]
        assert store.log("AAAAAA", 1) == [{"t": "round"}]
        store.close()
    assert _versions(pg_url) == [1, 2, 3, 4]


def test_a_database_of_the_previous_version_is_migrated_with_its_games(pg_url: str) -> None:
    """A database a version-1 unokit made (no leases table) gains versions 2 to 4
    when a newer server opens it; its rooms and logs stay."""
    from unokit.server.pgstore import MIGRATIONS

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
            "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        conn.execute(MIGRATIONS[0])
        conn.execute("INSERT INTO schema_version (version) VALUES (1)")
        conn.execute("""INSERT INTO rooms VALUES ('AAAAAA', '{"status": "playing"}')""")
        conn.execute("""INSERT INTO log VALUES ('AAAAAA', 1, 0, '{"t": "round"}')""")
    store = PostgresStore(pg_url, shared=True)
    assert _versions(pg_url) == [1, 2, 3, 4]
    assert store.log("AAAAAA", 1) == [{"t": "round"}]
    assert store.take_leases("me", ["AAAAAA"], 5.0) == {"AAAAAA"}
    store.close()


def test_a_database_with_a_newer_schema_is_refused_in_one_line(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (99)")
    with pytest.raises(StoreOpenError) as e:
        PostgresStore(pg_url)
    newer = f"schema version 99, newer than this unokit's ({SCHEMA_VERSION}): upgrade unokit"
    assert newer in str(e.value)
    assert "\n" not in str(e.value)


def test_one_entry_per_room_game_and_index(pg_url: str) -> None:
    """The log's key refuses a second entry at an index: a writer whose count is
    behind (another process appended meanwhile) is refused, never interleaved."""
    store = PostgresStore(pg_url)
    assert store.append("AAAAAA", 1, {"i": 0}) == 0
    with psycopg.connect(pg_url) as conn:
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO log (code, game, idx, entry) VALUES ('AAAAAA', 1, 0, '{}')")
        conn.rollback()
        # another writer takes index 1 behind the store's back
        conn.execute("INSERT INTO log (code, game, idx, entry) VALUES ('AAAAAA', 1, 1, '{}')")
    with pytest.raises(StoreError, match="duplicate key"):
        store.append_many([("BBBBBB", 1, {"i": 0}), ("AAAAAA", 1, {"i": 1})])
    # nothing of the refused batch is stored; the next append counts from the table
    assert store.log("BBBBBB", 1) == []
    assert store.log("AAAAAA", 1) == [{"i": 0}, {}]
    assert store.append("AAAAAA", 1, {"i": 2}) == 2
    store.close()


def test_a_second_server_on_one_database_is_refused_until_the_first_closes(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("unokit.server.pgstore.LOCK_WAIT", 0.2)
    first = PostgresStore(pg_url)
    with pytest.raises(StoreLocked, match=r"in use by another unokit server \(unokit serve pid"):
        PostgresStore(pg_url)
    first.close()
    PostgresStore(pg_url).close()


def test_serve_store_refusals_are_one_line_and_exit_2(
    pg: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    closed = _free_port()
    cases = [
        (["--store", f"postgresql://unokit@127.0.0.1:{closed}/x"], "cannot reach PostgreSQL"),
        (["--store", "mysql://u@h/db"], "is not a PostgreSQL URL"),
        (["--store", "postgresql://unokit:s3cret@127.0.0.1:1/x?bogus=1"], "not a valid"),
        (["--store", pg.url("nosuchdb")], 'database "nosuchdb" does not exist'),
        (["--store", pg.url(), "--db", str(tmp_path / "x.db")], "--db is for SQLite"),
        (["--store", pg.url(), "--sync", "full"], "--sync is for SQLite"),
    ]
    for args, says in cases:
        assert main(["serve", "--port", str(_free_port()), *args]) == 2, args
        out, err = capsys.readouterr()
        assert err.startswith("unokit serve: ") and err.count("\n") == 1, err
        assert says in err, err
        assert "Traceback" not in err and "s3cret" not in err and out == ""
    assert not (tmp_path / "x.db").exists()


# ------------------------------------------------------------- a real server -------
class PgServer:
    """``unokit serve --store URL`` as a real process on 127.0.0.1."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr = ""

    def start(self) -> None:
        env = dict(os.environ)
        env["UNOKIT_TIMING"] = json.dumps(
            {"bot_delay": 0.0, "catch_window": 0.05, "autopilot_after": 30.0, "next_round": 0.05}
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unokit.cli", "serve", "--port", str(self.port),
             "--store", self.url],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        # a last-resort bound, far above a loaded start (30 s was overrun once with the
        # machine four times oversubscribed); a server that never answered is killed,
        # not left holding its database's lock for the next test
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.read_stderr())
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=5.0)
                return
            except httpx.HTTPError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer /healthz in 180 s: {self.stderr[-2000:]}")

    def read_stderr(self) -> str:
        if self.proc is not None and self.proc.stderr is not None:
            self.stderr += self.proc.stderr.read().decode()
        return self.stderr

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)
        self.read_stderr()

    def stop(self) -> str:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.read_stderr()


async def _two_players(h: Harness) -> tuple[str, list[dict[str, Any]], list[Client]]:
    """A room of two people, no bots, a game nobody finishes, started."""
    made = await h.room(seats=2, bots=[None], options={"target_score": 10**6})
    code = made["code"]
    joined = await h.join(code, "Ben")
    hellos = [made, joined]
    clients = [await Client(f"{h.ws}/{code}", r["token"]).connect() for r in hellos]
    await clients[0].send({"type": "start"})
    await clients[0].wait(lambda: all(c.state is not None for c in clients))
    return code, hellos, clients


async def _move(clients: list[Client]) -> tuple[str | None, int]:
    """Whoever's turn it is plays: (the error code or None, the version acted on)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for c in clients:
            st = c.state
            if st is None or st["view"]["phase"] in ("round_over", "game_over"):
                continue
            a = choose(st["view"])
            if a is None:
                continue
            v, errors = st["version"], len(c.errors)
            await c.act(a)
            await c.wait(lambda c=c, v=v, n=errors: c.state["version"] > v or len(c.errors) > n)
            if len(c.errors) > errors:
                code = str(c.errors[-1]["code"])
                if code != "stale_version":
                    return code, v
            else:
                return None, v
        await asyncio.sleep(0.02)
    raise AssertionError("nobody could act")


VIEW = ("hand", "hand_sizes", "top", "color", "current", "scores", "discard", "legal")


@pytest.mark.asyncio
async def test_a_server_on_postgres_plays_is_killed_and_resumes_the_room(pg_url: str) -> None:
    server = PgServer(pg_url)
    server.start()
    try:
        h = Harness(None, server.port)
        code, hellos, clients = await _two_players(h)
        for _ in range(10):
            error, _ = await _move(clients)
            assert error is None
        await asyncio.sleep(0.1)
        before = [c.state for c in clients]
        assert before[0] is not None and before[0]["version"] >= 10
        server.kill()  # SIGKILL: nothing is flushed on the way out
        await clients[0].wait(lambda: clients[0].closed)
        server.start()
        again = [await Client(f"{h.ws}/{code}", r["token"]).connect() for r in hellos]
        await again[0].wait(lambda: all(c.state is not None for c in again))
        for old, new in zip(before, again, strict=True):
            assert old is not None and new.state is not None
            assert new.state["version"] == old["version"]
            for key in VIEW:
                assert new.state["view"][key] == old["view"][key], key
        for _ in range(3):  # and play goes on, stored in PostgreSQL
            error, _ = await _move(again)
            assert error is None
        await again[0].send({"type": "end"})
        await again[0].wait(lambda: again[0].room is not None and again[0].room["status"] == "over")
        for c in [*clients, *again]:
            await c.close()
    finally:
        err = server.stop()
    assert "Traceback" not in err, err
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT count(*) FROM log WHERE code = %s", (code,)).fetchone()
        assert row is not None and row[0] >= 13
        record = conn.execute("SELECT text FROM records WHERE code = %s", (code,)).fetchone()
    assert record is not None and record[0]  # the ended game's record, downloadable


@pytest.mark.asyncio
async def test_postgres_stopped_mid_game_refuses_moves_then_play_resumes_by_itself(
    pg: Cluster, pg_url: str
) -> None:
    server = PgServer(pg_url)
    server.start()
    try:
        h = Harness(None, server.port)
        code, _, clients = await _two_players(h)
        for _ in range(4):
            error, _ = await _move(clients)
            assert error is None
        # both players hold the last move (not a pause that hopes so): what they hold
        # must not change while PostgreSQL is away
        await clients[0].wait(lambda: len({c.state["version"] for c in clients}) == 1)
        held = [c.state for c in clients]
        pg.stop("fast")  # the server's connection is terminated
        try:
            for _ in range(3):
                error, v = await _move(clients)
                assert error == "storage_unavailable"
                assert all(c.state == s for c, s in zip(clients, held, strict=True))
            # plain HTTP that needs the store is refused the same way, not a 500
            r = await h.post("/api/rooms", {"name": "Cy", "seats": 2, "bots": ["easy"]})
            assert r.status_code == 503 and r.json()["code"] == "storage_unavailable"
        finally:
            pg.start()
        # nobody restarts the server: it reconnects on a later move
        deadline = time.monotonic() + 15
        while True:
            error, v = await _move(clients)
            if error is None:
                break
            assert error == "storage_unavailable"
            assert time.monotonic() < deadline, "play did not resume"
            await asyncio.sleep(0.2)
        # every player is told of the move that went through: the mover's own state
        # came with its answer, the other's may still be on its way (on a loaded machine
        # the check of clients[0] alone came before it: 5 > 5)
        await clients[0].wait(
            lambda: all(c.state is not None and c.state["version"] > v for c in clients)
        )
        for _ in range(3):
            error, _ = await _move(clients)
            assert error is None
        for c in clients:
            await c.close()
    finally:
        err = server.stop()
    assert "Traceback" not in err, err
    assert "storage failed" in err and "reconnected to PostgreSQL" in err
    # the log holds exactly the moves that were acknowledged: none of the refused ones
    store = PostgresStore(pg_url)
    try:
        acts = [e for e in store.log(code, 1) if e["t"] == "act"]
        assert len(acts) == 4 + 1 + 3
    finally:
        store.close()


class CuttingProxy:
    """A TCP proxy to PostgreSQL that, once armed, forwards the next ``COMMIT`` and then
    cuts the connection before the answer comes back: a commit made on the server but
    never confirmed to the store (a network failure at the worst moment)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.armed = False
        # the connections whose answers are being lost: one flag for the whole proxy
        # also dropped the answers on the store's other connections (the one-server
        # lock's "SELECT 1" after the cut), and the store waited on them for ever (a
        # hang found by make flake-hunt, py-spy in PostgresStore._failed)
        self.cutting: set[int] = set()
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            pair = (client, server)
            threading.Thread(
                target=self._pump, args=(client, server, pair, True), daemon=True
            ).start()
            threading.Thread(
                target=self._pump, args=(server, client, pair, False), daemon=True
            ).start()

    def _pump(self, src: socket.socket, dst: socket.socket, pair: tuple[socket.socket, ...],
              upstream: bool) -> None:  # fmt: skip
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                if not upstream and id(pair) in self.cutting:
                    continue  # the answer to the COMMIT: lost
                cut = upstream and self.armed and b"COMMIT" in data
                if cut:
                    self.armed = False
                    self.cutting.add(id(pair))
                dst.sendall(data)
                if cut:
                    time.sleep(0.3)  # the server commits and answers
                    self.cuts += 1
                    for s in pair:
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
                    return
        for s in pair:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


def test_a_commit_whose_answer_is_lost_is_undone_on_reconnecting(pg: Cluster, pg_url: str) -> None:
    """The players were told the batch failed, so it must not be in the log after all:
    the store deletes its entries when it reconnects, before anything else."""
    proxy = CuttingProxy(pg.port)
    store = PostgresStore(pg_url.replace(f":{pg.port}/", f":{proxy.port}/"))
    try:
        assert store.append("AAAAAA", 1, {"t": "round"}) == 0
        proxy.armed = True
        with pytest.raises(StoreError, match="storage failed"):
            store.append_many([("AAAAAA", 1, {"t": "act", "n": 1}), ("BBBBBB", 1, {"t": "round"})])
        assert proxy.cuts == 1
        with psycopg.connect(pg_url) as conn:  # it was committed on the server
            row = conn.execute("SELECT count(*) FROM log").fetchone()
            assert row is not None and row[0] == 3
        # the next call reconnects: the unconfirmed entries are gone, numbering goes on
        assert store.log("AAAAAA", 1) == [{"t": "round"}]
        assert store.log("BBBBBB", 1) == []
        assert store.append("AAAAAA", 1, {"t": "act", "n": 2}) == 1
    finally:
        store.close()
        proxy.close()


class DroppingProxy(CuttingProxy):
    """Once armed, the next ``COMMIT`` never reaches PostgreSQL: the connection is cut
    first, so the transaction is rolled back (the store cannot tell it from a commit
    whose answer was lost)."""

    def _pump(self, src: socket.socket, dst: socket.socket, pair: tuple[socket.socket, ...],
              upstream: bool) -> None:  # fmt: skip
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                if upstream and self.armed and b"COMMIT" in data:
                    self.armed = False
                    self.cuts += 1
                    for s in pair:
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
                    return
                dst.sendall(data)
        for s in pair:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


def _by(url: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT idx, entry->>'by' FROM log ORDER BY idx").fetchall()
    return [(int(i), str(b)) for i, b in rows]


@pytest.mark.parametrize("proxy_kind", [DroppingProxy, CuttingProxy])
def test_shared_an_unconfirmed_commit_never_deletes_what_another_server_stored(
    pg: Cluster, pg_url: str, proxy_kind: type[CuttingProxy]
) -> None:
    """Two servers on one database (``shared``).  A's commit of index 1 fails in doubt:
    either it was not made and B then stored and acknowledged its own move at index 1,
    or it was made and B built index 2 on it.  Either way the log stays as the
    servers saw it, gap-free: A deletes nothing (alone it would, since nobody else could
    have seen the entry)."""
    proxy = proxy_kind(pg.port)
    a = PostgresStore(pg_url.replace(f":{pg.port}/", f":{proxy.port}/"), shared=True)
    b = PostgresStore(pg_url, shared=True)
    try:
        assert a.append_at([("AAAAAA", 1, 0, {"t": "round", "by": "A"})]) == [True]
        proxy.armed = True
        with pytest.raises(StoreError):
            a.append_at([("AAAAAA", 1, 1, {"t": "act", "by": "A"})])
        assert proxy.cuts == 1
        made = len(b.log_since("AAAAAA", 1, 0)) == 2
        if made:
            assert b.append_at([("AAAAAA", 1, 2, {"t": "act", "by": "B"})]) == [True]
            want = [(0, "A"), (1, "A"), (2, "B")]
        else:
            assert b.append_at([("AAAAAA", 1, 1, {"t": "act", "by": "B"})]) == [True]
            want = [(0, "A"), (1, "B")]
        a.take_leases("A", ["AAAAAA"], 5.0)  # A uses the store again
        a.log_since("AAAAAA", 1, 0)
        assert _by(pg_url) == want
    finally:
        a.close()
        b.close()
        proxy.close()


def test_alone_a_lost_lock_session_is_noticed_and_writes_stop(pg_url: str) -> None:
    """The one-server lock's session dies by itself (terminated, an idle timeout, a NAT
    dropping it) and a second server opens the database: the first notices at its next
    use of the store and refuses to write, rather than both writing."""
    a = PostgresStore(pg_url)
    b = None
    try:
        a.append("AAAAAA", 1, {"t": "round"})
        with psycopg.connect(pg_url, autocommit=True) as conn:
            killed = conn.execute(  # this database's lock only: the cluster is shared
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                "AND objid = 2 AND granted AND database = "
                "(SELECT oid FROM pg_database WHERE datname = current_database())"
            ).fetchall()
        assert killed == [(True,)]
        time.sleep(1.2)  # LOCK_CHECK: the first server asks its session again after this
        b = PostgresStore(pg_url)  # the lock was free: a second server opens
        with pytest.raises(StoreError, match="in use by another unokit server"):
            a.append("AAAAAA", 1, {"t": "act", "by": "A"})
        assert b.log("AAAAAA", 1) == [{"t": "round"}]
    finally:
        a.close()
        if b is not None:
            b.close()


def test_shared_store_refuses_at_once_in_an_outage_and_recovers_at_once_after_it(
    pg: Cluster, pg_url: str
) -> None:
    """A cluster's store (``shared``) while PostgreSQL is away for 8 s: every call is
    refused within about a second (a player's move is answered ``storage_unavailable``
    at once, not after the 5 s connect timeout), and the first call after PostgreSQL is
    back succeeds within seconds (the pool's own retries back off, 1, 2, 4, 8 s...: left
    alone, they were 7 s late after this outage and 46 s late after a 70 s one)."""
    store = PostgresStore(pg_url, shared=True)
    try:
        store.append("ABCD", 1, {"t": "x"})
        pg.stop("fast")
        down = time.monotonic()
        took: list[float] = []
        try:
            while time.monotonic() - down < 8.0:
                t = time.monotonic()
                with pytest.raises(StoreError):
                    store.append("ABCD", 1, {"t": "x"})
                took.append(time.monotonic() - t)
                time.sleep(0.2)
        finally:
            pg.start()
        up = time.monotonic()
        assert len(took) >= 5 and max(took) < 2.0, took
        while True:
            try:
                store.append("ABCD", 1, {"t": "x"})
                break
            except StoreError:
                assert time.monotonic() - up < 3.0, "PostgreSQL is back, the store is not"
                time.sleep(0.2)
        assert [e["t"] for e in store.log("ABCD", 1)] == ["x", "x"]
    finally:
        store.close()


def test_a_session_paused_inside_a_commit_holds_another_servers_commit_for_seconds_only(
    pg_url: str,
) -> None:
    """Issue 48, D1: a process paused between a group commit's INSERT and its COMMIT
    (SIGSTOP, a frozen VM) kept the row locked for as long as the pause lasted, and
    another server needing the same log position waited as long.  PostgreSQL now ends
    a session of ours idle inside a transaction (``idle_in_transaction``, 5 s by
    default, 1 s here): the other server's commit goes through, and the paused one
    finds its session gone when it wakes."""
    a = PostgresStore(pg_url, shared=True, idle_in_transaction=1.0)
    b = PostgresStore(pg_url, shared=True, idle_in_transaction=1.0)
    # the paused process: a session of A's, inside a transaction that holds index 0
    paused = psycopg.connect(pg_url, **a._options())
    done = threading.Event()
    stored: list[bool] = []
    try:
        paused.execute("BEGIN")
        paused.execute(
            "INSERT INTO log (code, game, idx, entry) VALUES ('AAAAAA', 1, 0, '{\"by\": \"A\"}')"
        )

        def other_server() -> None:
            stored.extend(b.append_at([("AAAAAA", 1, 0, {"by": "B"})]))
            done.set()

        threading.Thread(target=other_server, daemon=True).start()
        assert done.wait(30.0), (
            "B's commit waited more than 30 s on a row held by a session idle in its "
            "transaction: idle_in_transaction_session_timeout is not in effect"
        )
        assert stored == [True]  # A's INSERT was rolled back with its session
        with pytest.raises(psycopg.Error):  # A wakes: its session is gone
            paused.execute("COMMIT")
        assert _by(pg_url) == [(0, "B")]
    finally:
        paused.close()  # (without the setting, this is what lets B go on)
        done.wait(30.0)
        a.close()
        b.close()


def test_a_released_lease_passes_on_with_a_higher_fencing_token(pg_url: str) -> None:
    """Issue 48, D4: a lease given up (a graceful shutdown, or a room handed to the
    server its players moved to) was deleted, so the next holder started again at
    token 1 and the fencing token went down.  It lapses instead: the next holder takes
    it at once, with the token raised, and the room counts as an orphan meanwhile."""
    a = PostgresStore(pg_url, shared=True)
    b = PostgresStore(pg_url, shared=True)

    def lease() -> tuple[str, int]:
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SELECT holder, token FROM leases WHERE code = 'AAAAAA'").fetchone()
        assert row is not None
        return str(row[0]), int(row[1])

    try:
        assert a.take_leases("A", ["AAAAAA"], 30.0) == {"AAAAAA"}
        assert b.take_leases("B", ["AAAAAA"], 30.0) == set()  # A's, and not lapsed
        assert lease() == ("A", 1)
        a.release_leases("A", ["AAAAAA"])
        assert b.soonest_lapse("B") is None  # nothing left to wait for
        assert b.take_leases("B", ["AAAAAA"], 30.0) == {"AAAAAA"}  # at once
        assert lease() == ("B", 2)
        b.release_leases("B", ["AAAAAA"])
        assert a.take_leases("A", ["AAAAAA"], 30.0) == {"AAAAAA"}
        assert lease() == ("A", 3)  # never down
        a.release_leases("B", ["AAAAAA"])  # not B's to give: nothing happens
        assert b.take_leases("B", ["AAAAAA"], 30.0) == set()
    finally:
        a.close()
        b.close()


def _lock_waiters(url: str, n: int, what: str) -> None:
    """Return once ``n`` sessions of this test's database wait for a row lock: a
    readiness check on PostgreSQL's own view, not a pause that hopes."""
    deadline = time.monotonic() + 30.0
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            ).fetchone()
            if row is not None and row[0] >= n:
                return
            assert time.monotonic() < deadline, f"{what} never waited for the locked row"
            time.sleep(0.01)


def test_two_servers_taking_the_same_leases_in_opposite_orders_never_deadlock(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 48, D5: two processes' lease upserts deadlocked at game start; PostgreSQL
    ended one (the servers logged nothing).  Provoked here: a third session holds room
    AAAAAA's lease row; A asks for AAAAAA then BBBBBB, B for BBBBBB then AAAAAA.  Taken
    in the order asked, B holds BBBBBB while it waits for AAAAAA, and A, once it has
    AAAAAA, waits for BBBBBB: a deadlock.  Every lease write takes its rows in the
    codes' order: both wait at AAAAAA, the first takes both, the other neither."""
    a = PostgresStore(pg_url, shared=True)
    b = PostgresStore(pg_url, shared=True)
    got: dict[str, set[str] | BaseException] = {}

    def take(store: PostgresStore, holder: str, codes: list[str]) -> None:
        try:
            got[holder] = store.take_leases(holder, codes, 30.0)
        except BaseException as e:
            got[holder] = e

    try:
        assert a.take_leases("C", ["AAAAAA", "BBBBBB"], 30.0) == {"AAAAAA", "BBBBBB"}
        a.release_leases("C", ["AAAAAA", "BBBBBB"])  # lapsed: free for A and B
        with psycopg.connect(pg_url) as third:
            third.execute("SELECT 1 FROM leases WHERE code = 'AAAAAA' FOR UPDATE")
            ta = threading.Thread(target=take, args=(a, "A", ["AAAAAA", "BBBBBB"]))
            ta.start()
            _lock_waiters(pg_url, 1, "A's take")
            tb = threading.Thread(target=take, args=(b, "B", ["BBBBBB", "AAAAAA"]))
            tb.start()
            _lock_waiters(pg_url, 2, "B's take")
        # the third session's transaction ends here: A and B go on
        ta.join(30.0)
        tb.join(30.0)
        assert not ta.is_alive() and not tb.is_alive(), "a lease take never returned"
        assert not any(isinstance(v, BaseException) for v in got.values()), got
        assert sorted([got["A"], got["B"]], key=len) == [set(), {"AAAAAA", "BBBBBB"}]
        assert "deadlock" not in caplog.text
    finally:
        a.close()
        b.close()


def test_a_deadlock_postgresql_breaks_is_logged_and_refused_in_one_line(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """D5's second half: should a deadlock happen anyway (here a session outside
    unokit locks the rows in the other order), the store's call is refused with a
    ``StoreError`` and the server's log says a deadlock was broken."""
    a = PostgresStore(pg_url, shared=True)
    err: list[BaseException] = []
    try:
        assert a.take_leases("A", ["AAAAAA", "BBBBBB"], 30.0) == {"AAAAAA", "BBBBBB"}
        with psycopg.connect(pg_url) as other:
            # the outside session waits 30 s before it looks for a deadlock, A's session
            # 1 s (PostgreSQL's default): A's renewal finds it and is the one ended
            other.execute("SET deadlock_timeout = '30s'")
            other.execute("SELECT 1 FROM leases WHERE code = 'BBBBBB' FOR UPDATE")

            def renew() -> None:
                try:
                    a.take_leases("A", ["AAAAAA", "BBBBBB"], 30.0)
                except BaseException as e:
                    err.append(e)

            t = threading.Thread(target=renew)
            t.start()
            _lock_waiters(pg_url, 1, "A's renewal")  # A holds AAAAAA, waits for BBBBBB
            with contextlib.suppress(psycopg.errors.DeadlockDetected):
                other.execute("SELECT 1 FROM leases WHERE code = 'AAAAAA' FOR UPDATE")
            other.rollback()
            t.join(30.0)
        assert not t.is_alive()
        # A's renewal was ended: refused in one line, and logged
        assert err and isinstance(err[0], StoreError), err
        assert "deadlock" in str(err[0])
        assert "broke a deadlock" in caplog.text
        assert a.take_leases("A", ["AAAAAA"], 30.0) == {"AAAAAA"}  # and it goes on
    finally:
        a.close()


def _lease_lapsed(url: str, code: str) -> None:
    deadline = time.monotonic() + 30.0
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute(
                "SELECT expires < now() FROM leases WHERE code = %s", (code,)
            ).fetchone()
            if row is not None and row[0]:
                return
            assert time.monotonic() < deadline, f"the lease of {code} never lapsed"
            time.sleep(0.02)


def test_a_driver_write_is_stored_only_under_its_servers_lease(pg_url: str) -> None:
    """Issue 48, D2: a process that woke from a pause longer than its lease wrote bot
    moves for rooms another process held (the log's unique key refused most; one was
    stored 3 ms after its writer had released the lease).  A driver's write names its
    lease holder and is stored only while that lease runs, checked in the same
    transaction: A's lapsed lease refuses A's bot move (None), B's lease stores B's, and
    a person's move through A (no lease needed) is stored as before."""
    a = PostgresStore(pg_url, shared=True)
    b = PostgresStore(pg_url, shared=True)
    try:
        # long enough that a loaded machine stores the first row in time (0.2 s could
        # lapse between two round trips); the test waits for the lapse, not a pause
        assert a.take_leases("A", ["AAAAAA"], 2.0) == {"AAAAAA"}
        row0 = ("AAAAAA", 1, 0, {"t": "act", "by": "A"})
        assert a.append_at([row0], ["A"]) == [True]  # A's lease runs: stored
        _lease_lapsed(pg_url, "AAAAAA")  # A paused longer than its lease
        stale = ("AAAAAA", 1, 1, {"t": "act", "by": "A"})
        assert a.append_at([stale], ["A"]) == [None]  # lapsed: not stored
        assert b.take_leases("B", ["AAAAAA"], 30.0) == {"AAAAAA"}
        assert a.append_at([stale], ["A"]) == [None]  # another's now
        other = ("BBBBBB", 1, 0, {"t": "act", "by": "A"})
        # one group commit: a person's move of another room (no lease) goes through
        assert a.append_at([stale, other], ["A", None]) == [None, True]
        assert b.append_at([("AAAAAA", 1, 1, {"t": "act", "by": "B"})], ["B"]) == [True]
        assert _by(pg_url) == [(0, "A"), (0, "A"), (1, "B")]
    finally:
        a.close()
        b.close()


def test_a_lease_taken_over_waits_for_the_old_holders_commit_under_way(pg_url: str) -> None:
    """The check and the write are one transaction with the lease row locked: A's
    commit checked its lease and then waits (another session holds the log position);
    meanwhile A's lease lapses and B asks for it.  B's take waits until A's commit is
    over, so no write of A's lands after B took the room; then B has it, token raised."""
    a = PostgresStore(pg_url, shared=True)
    b = PostgresStore(pg_url, shared=True)
    stored: list[bool | None] = []
    took: list[set[str]] = []
    try:
        assert a.take_leases("A", ["AAAAAA"], 3.0) == {"AAAAAA"}  # runs past A's check
        with psycopg.connect(pg_url) as blocker:
            blocker.execute(
                "INSERT INTO log (code, game, idx, entry) "
                "VALUES ('AAAAAA', 1, 0, '{\"by\": \"C\"}')"
            )  # uncommitted: A's insert at index 0 waits for it
            ta = threading.Thread(
                target=lambda: stored.extend(a.append_at([("AAAAAA", 1, 0, {"by": "A"})], ["A"]))
            )
            ta.start()
            _lock_waiters(pg_url, 1, "A's commit")
            _lease_lapsed(pg_url, "AAAAAA")
            tb = threading.Thread(target=lambda: took.append(b.take_leases("B", ["AAAAAA"], 30.0)))
            tb.start()
            _lock_waiters(pg_url, 2, "B's take (the lease row is not locked by A's commit)")
            assert not took
            blocker.rollback()  # A's insert goes on, A commits, then B's take
        ta.join(30.0)
        tb.join(30.0)
        assert stored == [True] and took == [{"AAAAAA"}]
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SELECT holder, token FROM leases").fetchone()
        assert row == ("B", 2)
        assert _by(pg_url) == [(0, "A")]
    finally:
        a.close()
        b.close()


def test_the_public_room_list_reads_public_lobbies_newest_first(pg_url: str) -> None:
    """Issue 49 item 3: every server of a cluster lists the same public rooms, from the
    store; private rooms and started games are not listed."""
    store = PostgresStore(pg_url)
    rows = {
        "AAAAAA": {"status": "lobby", "public": True, "created": 10.0},
        "BBBBBB": {"status": "lobby", "public": True, "created": 30.0},
        "CCCCCC": {"status": "lobby", "public": False, "created": 40.0},
        "DDDDDD": {"status": "playing", "public": True, "created": 50.0},
        "EEEEEE": {"status": "lobby", "created": 60.0},  # stored before rooms had the flag
    }
    for code, data in rows.items():
        store.save_room(RoomRow(code, data))
    assert [r.code for r in store.public_rooms()] == ["BBBBBB", "AAAAAA"]
    assert [r.code for r in store.public_rooms(limit=1)] == ["BBBBBB"]
    store.close()


def test_profiles_count_a_game_once_and_rank_the_listed(pg_url: str) -> None:
    """Issue 49 item 4 on PostgreSQL: a game's end saved by two servers counts once;
    the leaderboard lists the listed profiles with a rated game, best first."""
    from unokit.server import profiles

    one, two = PostgresStore(pg_url, shared=True), PostgresStore(pg_url, shared=True)
    for pid, listed in (("AAAAAAAAAA", True), ("BBBBBBBBBB", True), ("CCCCCCCCCC", False)):
        assert one.create_profile("hash-" + pid, profiles.new_row(pid, pid[:3], "red", listed, 0.0))
    assert not two.create_profile(
        "hash-other", profiles.new_row("AAAAAAAAAA", "x", "red", True, 0.0)
    )
    assert two.profile_by_token("hash-BBBBBBBBBB")["id"] == "BBBBBBBBBB"
    results = [
        {"profile": "BBBBBBBBBB", "seat": 0, "won": True, "points": 50},
        {"profile": "AAAAAAAAAA", "seat": 1, "won": False, "points": 0},
        {"profile": "CCCCCCCCCC", "seat": 2, "won": False, "points": 0},
    ]
    for r in results:
        r.update(rated=True, players=3, at=1.0)
    assert one.count_game("ROOM01", 1, results)
    assert not two.count_game("ROOM01", 1, results)  # the other server saves the same end
    b = two.load_profile("BBBBBBBBBB")
    assert b is not None and (b["games"], b["wins"], b["points"], b["rated"]) == (1, 1, 50, 1)
    assert [h["code"] for h in b["history"]] == ["ROOM01"]
    assert [p["id"] for p in two.leaderboard()] == ["BBBBBBBBBB", "AAAAAAAAAA"]
    changed = one.update_profile("CCCCCCCCCC", {"listed": True, "name": "Cy"})
    assert changed is not None and changed["name"] == "Cy" and changed["games"] == 1
    assert len(two.leaderboard()) == 3
    assert one.update_profile("ZZZZZZZZZZ", {"name": "x"}) is None
    one.close()
    two.close()
