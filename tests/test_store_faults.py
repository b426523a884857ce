"""The store's files changing under a running server (issue 33, items 5-7).

* The database, its ``-wal`` and ``-shm`` made unwritable during play (``chattr +i``;
  without it, a read-only mode or an injected fault): moves are refused with
  ``storage_unavailable``, nothing changes, the process lives (it used to die of
  SIGBUS: the ``-shm`` is memory-mapped), and play resumes once the files are
  writable again.
* A second ``unokit serve`` on the same ``--db`` refuses to start, in one line.
* The database (or its ``-wal``) deleted or replaced while the server runs: moves are
  refused instead of being acknowledged into a file that a restart will not read.

Servers bind to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import server_helpers
from server_helpers import Subprocess, free_port
from unokit.match import Timing
from unokit.server.limits import Limits
from unokit.server.store import SQLiteStore, StoreError, StoreLocked, StoreOpenError

SRC = Path(__file__).resolve().parent.parent / "src"
# no bots: nothing acts unless a test says so; a refused move is easy to see
FAST = Timing(bot_delay=0.0, catch_window=0.0, autopilot_after=600.0, next_round=0.02)
RETRY = 0.2  # Limits.store_retry in the in-process servers


# --------------------------------------------------------------- clients -----------
class Tab:
    """A synchronous websocket client: acts, then pings; what came before the pong is
    the answer (an error, or the new view)."""

    def __init__(self, port: int, code: str, token: str) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=5
        ).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.token = token
        self.state: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.sync()

    def sync(self) -> None:
        self.ws.send('{"type":"ping"}')
        while True:
            msg = json.loads(self.ws.recv(timeout=10))
            if msg["type"] == "pong":
                return
            if msg["type"] == "state":
                self.state = msg
            elif msg["type"] == "error":
                self.errors.append(msg["code"])

    def my_turn(self) -> bool:
        view = self.state["view"] if self.state else None
        return bool(view and view["legal"] and view["current"] == view["seat"])

    def act(self) -> list[str]:
        assert self.state is not None
        legal = self.state["view"]["legal"]
        plays = [a for a in legal if "play" in a or "cards" in a]
        turn = [a for a in legal if "catch" not in a and list(a) != ["uno"]]
        action = ([a for a in plays if a.get("uno")] or plays or turn or legal)[0]
        before = len(self.errors)
        self.ws.send(
            json.dumps({"type": "act", "version": self.state["version"], "action": action})
        )
        self.sync()
        return self.errors[before:]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def post(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    r = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=10)
    return r.status_code, r.json()


def start_room(port: int) -> tuple[str, list[Tab]]:
    """Two people, no bots, a game nobody finishes."""
    body = {"name": "P0", "seats": 2, "bots": [None], "options": {"target_score": 10**6}}
    status, made = post(port, "/api/rooms", body)
    assert status == 200, made
    status, joined = post(port, f"/api/rooms/{made['code']}/join", {"name": "P1"})
    assert status == 200, joined
    tabs = [Tab(port, made["code"], t) for t in (made["token"], joined["token"])]
    tabs[0].ws.send('{"type":"start"}')
    for tab in tabs:
        tab.sync()
    return made["code"], tabs


def move(tabs: list[Tab]) -> tuple[list[str], int]:
    """The seat whose turn it is acts: (the errors it got, the version it acted on)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        for tab in tabs:
            tab.sync()
        for tab in tabs:
            if tab.my_turn():
                assert tab.state is not None
                version = tab.state["version"]
                errors = tab.act()
                if errors != ["stale_version"]:
                    return errors, version
        time.sleep(0.05)  # between rounds
    raise AssertionError("nobody could act")


def version(tabs: list[Tab]) -> int:
    for tab in tabs:
        tab.sync()
    versions = {tab.state["version"] for tab in tabs if tab.state is not None}
    assert len(versions) == 1, versions
    return versions.pop()


# --------------------------------------------------------------- servers -----------
class Live(server_helpers.Live):
    """The app with a SQLite store on a real port, in a thread of this process."""

    def __init__(self, db: Path) -> None:
        limits = Limits(messages_per_second=10_000, store_retry=RETRY)
        super().__init__(SQLiteStore(db), limits, FAST)


def snapshot(server: Any, code: str) -> tuple[Any, ...]:
    from unokit.record import dumps

    room = server.rooms[code]
    return (room.match.version, dumps(room.match.game), json.dumps(room.to_row().data))


def files(db: Path) -> list[Path]:
    return [db, Path(f"{db}-wal"), Path(f"{db}-shm")]


# --------------------------------------------------------------- unwritable files --
def _chattr_works(tmp: Path) -> bool:
    """``chattr +i`` needs root (CAP_LINUX_IMMUTABLE) and a file system that has it."""
    probe = tmp / "probe"
    probe.write_bytes(b"x")
    if shutil.which("chattr") is None:
        return False
    if subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode:
        return False
    try:
        with open(probe, "ab"):
            return False
    except OSError:
        return True
    finally:
        subprocess.run(["chattr", "-i", str(probe)], capture_output=True)
        probe.unlink()


@contextlib.contextmanager
def immutable(paths: list[Path]) -> Iterator[None]:
    subprocess.run(["chattr", "+i", *map(str, paths)], check=True)
    try:
        os.sync()  # written back: the next write to a mapped page faults
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True)


@contextlib.contextmanager
def died(proc: Subprocess) -> Iterator[None]:
    """Say so when the server process is gone, and of what (-7: SIGBUS)."""
    try:
        yield
    except ConnectionClosed:
        assert proc.proc is not None
        raise AssertionError(f"the server died: returncode {proc.proc.wait(10)}") from None


@pytest.mark.services
def test_immutable_database_files_refuse_moves_and_the_server_lives(tmp_path: Path) -> None:
    """The audit's case: db, -wal and -shm made immutable in the middle of a game.  The
    server used to die of SIGBUS (SQLite writes to the memory-mapped -shm)."""
    if not _chattr_works(tmp_path):
        pytest.skip("chattr +i is not available here (needs root and ext4/xfs/btrfs)")
    db = tmp_path / "games.sqlite3"
    proc = Subprocess(db)
    proc.start()
    try:
        code, tabs = start_room(proc.port)
        for _ in range(4):
            assert move(tabs)[0] == []
        acked = version(tabs)
        with immutable(files(db)), died(proc):
            for _ in range(2):
                errors, seen = move(tabs)
                assert errors == ["storage_unavailable"]
                assert seen == acked and version(tabs) == acked  # nothing changed
            status, body = post(proc.port, "/api/rooms", {"name": "New", "seats": 2, "bots": []})
            assert (status, body["code"]) == (503, "storage_unavailable")
            assert proc.proc is not None and proc.proc.poll() is None, "the server died"
        time.sleep(1.1)  # Limits.store_retry: then the next move tries the store again
        for _ in range(3):
            assert move(tabs)[0] == []
        acked = version(tabs)
        # stopped while the files are immutable: closing must not touch them either
        with immutable(files(db)):
            for tab in tabs:
                tab.close()
            err = proc.stop()
            # a clean stop (uvicorn ends by re-raising the SIGTERM it handled), not SIGBUS
            assert proc.proc.returncode in (0, -signal.SIGTERM), (proc.proc.returncode, err)
        assert "Traceback" not in err, err
        proc.start()  # everything acknowledged is there after a restart
        again = [Tab(proc.port, code, tab.token) for tab in tabs]
        assert version(again) == acked
        for tab in again:
            tab.close()
    finally:
        proc.stop()


def test_a_store_refuses_while_a_file_is_not_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store itself, each file in turn: refused before SQLite touches anything
    (reads too: a read writes to the -shm), and back to normal once writable."""
    db = tmp_path / "s.sqlite3"
    store = SQLiteStore(db)
    store.append("ROOM01", 1, {"i": 0})
    real_access = os.access
    for blocked in files(db):

        def access(path: Any, mode: int, *a: Any, blocked: Path = blocked, **k: Any) -> bool:
            if Path(path) == blocked and mode & os.W_OK:
                return False  # as access(2) says of an immutable or read-only file
            return real_access(path, mode, *a, **k)

        monkeypatch.setattr(os, "access", access)
        with pytest.raises(StoreError, match="is not writable"):
            store.append("ROOM01", 1, {"i": 1})
        with pytest.raises(StoreError, match="is not writable"):
            store.log("ROOM01", 1)
        monkeypatch.setattr(os, "access", real_access)
        assert store.log("ROOM01", 1) == [{"i": 0}]
    assert store.append("ROOM01", 1, {"i": 1}) == 1
    store.close()


# --------------------------------------------------------------- two servers -------
@pytest.mark.services
def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    link = tmp_path / "link.sqlite3"  # another name for the same file
    link.symlink_to(db)
    first = Subprocess(db)
    first.start()
    try:
        for path in (db, link):
            second = subprocess.Popen(
                [sys.executable, "-m", "unokit.cli", "serve", "--port", str(free_port()),
                 "--db", str(path)],
                env={**os.environ, "PYTHONPATH": str(SRC)},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )  # fmt: skip
            try:
                out, err = second.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                second.send_signal(signal.SIGKILL)
                second.communicate()
                raise AssertionError("a second server started on the same database") from None
            lines = err.decode().strip().splitlines()
            assert second.returncode == 2, (second.returncode, lines)
            assert len(lines) == 1 and "Traceback" not in lines[0], lines
            assert "in use by another unokit server" in lines[0], lines
            assert first.proc is not None and str(first.proc.pid) in lines[0], lines
            assert out == b""
        # the first one never noticed
        assert httpx.get(f"http://127.0.0.1:{first.port}/healthz", timeout=5).status_code == 200
    finally:
        first.stop()
    # the lock ends with the process: the database opens again
    first.start()
    first.stop()


def test_a_store_holds_its_database_until_closed(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = SQLiteStore(db)
    with pytest.raises(StoreLocked, match="in use by another unokit server"):
        SQLiteStore(db)
    store.close()
    SQLiteStore(db).close()
    # what the command line prints for any database it cannot open, in one line
    (tmp_path / "text.sqlite3").write_text("not a database\n" * 100)
    for _ in range(2):  # the failure released the lock: the second says the same
        with pytest.raises(StoreOpenError, match=r"cannot open the database .*not a database"):
            SQLiteStore(tmp_path / "text.sqlite3")


# --------------------------------------------------------------- deleted files -----
def _replace_with_a_copy(db: Path) -> None:
    """What restoring a backup under a running server does: a consistent copy renamed
    over the database (a new file, a new inode)."""
    copy = db.with_name("copy.sqlite3")
    with (
        contextlib.closing(sqlite3.connect(str(db))) as src,
        contextlib.closing(sqlite3.connect(str(copy))) as dst,
    ):
        src.backup(dst)
    os.replace(copy, db)


@pytest.mark.parametrize("how", ["delete the database", "delete its -wal", "replace it"])
def test_a_deleted_or_replaced_database_refuses_moves(tmp_path: Path, how: str) -> None:
    """The audit's case: the file deleted during play, and the server went on
    acknowledging actions that a restart did not have (77 of them)."""
    db = tmp_path / "games.sqlite3"
    with Live(db) as live:
        code, tabs = start_room(live.port)
        for _ in range(4):
            assert move(tabs)[0] == []
        acked = version(tabs)
        if how == "delete the database":
            db.unlink()
        elif how == "delete its -wal":
            Path(f"{db}-wal").unlink()
        else:
            _replace_with_a_copy(db)
        before = snapshot(live.server, code)
        for _ in range(3):  # refused, and again after the retry delay: until a restart
            errors, seen = move(tabs)
            assert (errors, seen) == (["storage_unavailable"], acked)
            time.sleep(RETRY + 0.05)
        assert snapshot(live.server, code) == before
        assert version(tabs) == acked
        status, body = post(live.port, "/api/rooms", {"name": "New", "seats": 2, "bots": []})
        assert (status, body["code"]) == (503, "storage_unavailable")
        assert live.server.errors == 0
        for tab in tabs:
            tab.close()
    # what a restart finds: no acknowledged action missing, no refused one added, and
    # never this run's WAL applied to another file (a copy, or a new empty database)
    from unokit.server.room import Room

    store = SQLiteStore(db)
    rows = store.load_rooms()
    if how == "delete the database":
        assert rows == []  # a new database: the deleted one took the game with it
    else:  # the copy; or the database, completed from the deleted -wal
        (row,) = rows
        room = Room.restore(row, store, FAST)
        assert room.match is not None and room.match.version == acked
    store.close()


def test_a_store_whose_file_was_replaced_refuses_until_restarted(tmp_path: Path) -> None:
    """Checked once more after the commit: a file replaced between the check before a
    transaction and its commit is caught before the commit is reported."""
    db = tmp_path / "s.sqlite3"
    store = SQLiteStore(db)
    store.append("ROOM01", 1, {"i": 0})
    commit = store._db

    class Replacing:  # the file is replaced in the middle of the transaction
        def execute(self, sql: str, *args: Any) -> Any:
            if sql == "COMMIT":
                _replace_with_a_copy(db)
            return commit.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(commit, name)

    store._db = Replacing()  # type: ignore[assignment]
    with pytest.raises(StoreError, match="deleted or replaced"):
        store.append("ROOM01", 1, {"i": 1})
    store._db = commit
    with pytest.raises(StoreError, match="deleted or replaced"):
        store.log("ROOM01", 1)  # and every later call, without touching the files
    store.close()
    again = SQLiteStore(db)
    assert again.log("ROOM01", 1) == [{"i": 0}]
    again.close()


def test_a_deleted_lock_file_or_a_hard_link_does_not_let_a_second_store_in(
    tmp_path: Path,
) -> None:
    """Item 6, found by review: deleting the "stale" lock file, or opening the database
    through a hard link, let a second server run on the same database."""
    db = tmp_path / "s.sqlite3"
    first = SQLiteStore(db)
    try:
        (tmp_path / "s.sqlite3.lock").unlink()
        with pytest.raises(StoreLocked):
            SQLiteStore(db)
        os.link(db, tmp_path / "h.sqlite3")
        with pytest.raises(StoreLocked):
            SQLiteStore(tmp_path / "h.sqlite3")
    finally:
        first.close()
    SQLiteStore(db).close()  # free again once the first is closed
