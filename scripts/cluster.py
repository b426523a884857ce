"""The cluster of docker-compose.yml from Debian's packages, on 127.0.0.1 only.

A throwaway PostgreSQL (``initdb`` in a temporary folder, a free port), ``redis-server``
(a free port, nothing written to disk), N ``unokit serve`` processes on free ports
sharing both (``--store postgresql://... --bus redis://...``), and nginx proxying one
public port to them: websocket upgrade, room affinity (a room's code hashed), forwarded
headers overwritten, and the processes told to believe them from 127.0.0.1 only.

    make cluster                      # python scripts/cluster.py start
    make cluster ARGS="--n 2"         # two processes
    make cluster-stop                 # python scripts/cluster.py stop

``start`` prints the public URL, writes a state file (pids, ports, the temporary
folder) and leaves everything running; ``stop`` reads it, stops every process and
removes the folder.  Tests use the same as a context manager::

    with cluster(n=3) as c:
        httpx.post(c.url + "/api/rooms", json=...)
        c.apps[1].kill()        # SIGKILL, as a crash
        c.restart(1)

``--bus`` is passed when ``unokit serve --help`` lists it (``bus=None``, the
default), always with ``--bus``, never with ``--no-bus``.  Without a bus several
processes cannot share one database (each would refuse the second): use ``--n 1``.
As root (CI), PostgreSQL runs as Debian's ``postgres`` user (else ``nobody``):
``initdb`` refuses root.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATE = Path(tempfile.gettempdir()) / f"unokit-cluster-{os.getuid()}.json"
START_SECONDS = 30.0  # a piece that is not answering by then failed to start


class ClusterError(RuntimeError):
    """A piece could not be found or did not start; the message says which and why."""


# ------------------------------------------------------------------ helpers --------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, chars: int = 1500) -> str:
    try:
        return path.read_text(errors="replace")[-chars:]
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """``pid`` runs and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _stop_pid(pid: int, marker: str, seconds: float = 10.0) -> None:
    """SIGTERM ``pid`` (if its command line still holds ``marker``: never another
    program that got the number since), then SIGKILL after ``seconds``."""
    if not pid or not _alive(pid) or marker not in _cmdline(pid):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
        time.sleep(0.05)
    if _alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _wait(what: str, ok: Any, log: Path, pid: int | None = None) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if ok():
            return
        if pid is not None and not _alive(pid):
            raise ClusterError(f"{what} exited at once:\n{_tail(log)}")
        time.sleep(0.05)
    raise ClusterError(f"{what} did not answer within {START_SECONDS:g} s:\n{_tail(log)}")


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return bool(r.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _spawn(cmd: list[str], log: Path, env: Mapping[str, str] | None = None) -> int:
    """Start ``cmd`` in a session of its own (a terminal's Ctrl-C does not reach it),
    its output appended to ``log``; returns its pid."""
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
            start_new_session=True,
            cwd=ROOT,
        )
    return proc.pid


# ------------------------------------------------------------------ the pieces -----
def pg_binaries() -> Path:
    """The folder of initdb, pg_ctl and createdb: PATH first, then Debian's folders."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        here = Path(os.path.realpath(found)).parent
        if (here / "createdb").exists():
            return here
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(Path(folder) / "initdb", os.X_OK):
            return Path(folder)
    raise ClusterError(
        "PostgreSQL's initdb and pg_ctl are not on PATH nor in /usr/lib/postgresql/*/bin: "
        "apt-get install postgresql (.ci/run does)"
    )


def program(name: str) -> str:
    """``redis-server`` or ``nginx``: on PATH or in /usr/sbin, /usr/bin."""
    for found in (shutil.which(name) or "", f"/usr/sbin/{name}", f"/usr/bin/{name}"):
        if found and os.access(found, os.X_OK):
            return found
    raise ClusterError(f"{name} is not installed: apt-get install {name} (.ci/run does)")


def pg_user() -> str | None:
    """Who runs PostgreSQL: ourselves, or as root Debian's ``postgres``, else ``nobody``."""
    if os.getuid() != 0:
        return None
    for user in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            return user
    raise ClusterError("running as root, but there is no postgres or nobody user to run it")


def serve_has_bus() -> bool:
    """Does this unokit's ``serve`` take ``--bus``?"""
    done = subprocess.run(
        [sys.executable, "-m", "unokit.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    return "--bus" in done.stdout


@dataclass
class Postgres:
    bin: str
    base: str
    port: int
    user: str | None
    fsync: bool = True

    @property
    def data(self) -> Path:
        return Path(self.base) / "data"

    @property
    def log(self) -> Path:
        return Path(self.base) / "postgres.log"

    @property
    def url(self) -> str:
        return f"postgresql://unokit@127.0.0.1:{self.port}/unokit"

    def _run(self, *args: str) -> None:
        cmd = [str(Path(self.bin) / args[0]), *args[1:]]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd="/")
        if done.returncode != 0:
            raise ClusterError(
                f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}{_tail(self.log)}"
            )

    def init(self) -> None:
        base = Path(self.base)
        (base / "sock").mkdir(parents=True)
        if self.user is not None:
            ids = pwd.getpwnam(self.user)
            for p in (base, base / "sock"):
                os.chown(p, ids.pw_uid, ids.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "unokit",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "unokit", "unokit")

    def start(self) -> None:
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} "
            f"-c unix_socket_directories={Path(self.base) / 'sock'} "
            f"-c fsync={'on' if self.fsync else 'off'}"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m fast`` (``immediate``: as a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None


@dataclass
class Proc:
    """A process of the cluster that we started: redis-server, nginx or unokit serve."""

    name: str
    cmd: list[str]
    port: int
    log: str
    marker: str  # in its command line, so a stop never hits a recycled pid
    pid: int = 0
    env: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.pid = _spawn(self.cmd, Path(self.log), self.env)

    def alive(self) -> bool:
        return bool(self.pid) and _alive(self.pid) and self.marker in _cmdline(self.pid)

    def kill(self) -> None:
        """SIGKILL, as a crash; reaped here when it is our child."""
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)

    def terminate(self, seconds: float = 10.0) -> None:
        """SIGTERM (a graceful stop), SIGKILL after ``seconds``."""
        _stop_pid(self.pid, self.marker, seconds)


def _redis_ok(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


NGINX_CONF = """\
# generated by scripts/cluster.py; the same proxy as deploy/nginx.conf, on 127.0.0.1
worker_processes 1;
pid {base}/nginx.pid;
error_log {base}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {base}/nginx-tmp/body;
    proxy_temp_path {base}/nginx-tmp/proxy;
    fastcgi_temp_path {base}/nginx-tmp/fastcgi;
    uwsgi_temp_path {base}/nginx-tmp/uwsgi;
    scgi_temp_path {base}/nginx-tmp/scgi;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    # room affinity, as deploy/nginx.conf: a room's requests to one process (its code
    # hashed, consistently), any other request spread; any process serves any room
    map $uri $unokit_room {{
        "~^/(?:ws|r|api/rooms)/(?<code>[A-Za-z0-9]{{6}})(?:/|$)" $code;
        default $arg_room;
    }}
    map $unokit_room $unokit_key {{
        ""      $request_id;
        default $unokit_room;
    }}
    upstream unokit {{
        hash $unokit_key consistent;
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        # each process is scraped by itself (docs/deploy.md): not through the proxy
        location = /metrics {{ return 404; }}
        location / {{
            proxy_pass http://unokit;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            # overwritten, never appended to: a client cannot choose its address
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-ID $request_id;
            proxy_read_timeout 3600s;
            proxy_send_timeout 3600s;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries 3;
        }}
    }}
}}
"""


# ------------------------------------------------------------------ the cluster ----
@dataclass
class Cluster:
    base: str
    pg: Postgres
    redis: Proc | None
    apps: list[Proc]
    nginx: Proc

    @property
    def url(self) -> str:
        """The public address: nginx."""
        return self.nginx.url

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.nginx.port}/ws"

    @property
    def procs(self) -> list[Proc]:
        """The ``unokit serve`` processes (``apps``)."""
        return self.apps

    def restart(self, i: int) -> None:
        """Start process ``i`` again (after ``kill`` or ``terminate``) on its port."""
        app = self.apps[i]
        app.terminate()
        app.start()
        _wait(f"unokit serve #{i}", lambda: _http_ok(app.url + "/healthz"), Path(app.log), app.pid)

    def state(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Cluster:
        return cls(
            base=state["base"],
            pg=Postgres(**state["pg"]),
            redis=Proc(**state["redis"]) if state.get("redis") else None,
            apps=[Proc(**a) for a in state["apps"]],
            nginx=Proc(**state["nginx"]),
        )

    def stop(self) -> None:
        """Stop everything (the proxy first, PostgreSQL last) and remove the folder."""
        self.nginx.terminate()
        for app in self.apps:
            app.terminate()
        if self.redis is not None:
            self.redis.terminate()
        if self.pg.pid() is not None:
            with contextlib.suppress(ClusterError, subprocess.TimeoutExpired):
                self.pg.stop("fast")
            pid = self.pg.pid()
            if pid is not None:  # pg_ctl failed: the postmaster by its pid
                _stop_pid(pid, "postgres")
        shutil.rmtree(self.base, ignore_errors=True)

    def logs(self, chars: int = 3000) -> str:
        """The end of every piece's log, for a failure's message."""
        pieces = [(a.name, Path(a.log)) for a in self.apps]
        pieces += [("nginx", Path(self.nginx.log)), ("postgres", self.pg.log)]
        if self.redis is not None:
            pieces.append(("redis", Path(self.redis.log)))
        return "\n".join(f"--- {name} ({path}):\n{_tail(path, chars)}" for name, path in pieces)

    def running(self) -> list[str]:
        """What of it still runs (names), for a test that checks nothing was left."""
        left = [p.name for p in (self.nginx, *self.apps) if p.alive()]
        if self.redis is not None and self.redis.alive():
            left.append(self.redis.name)
        pid = self.pg.pid()
        if pid is not None and _alive(pid):
            left.append("postgres")
        return left


def start(
    n: int = 3,
    bus: bool | None = None,
    env: Mapping[str, str] | None = None,
    fsync: bool = True,
    port: int | None = None,
) -> Cluster:
    """Start a cluster of ``n`` processes; on any failure, stop what started and raise
    ``ClusterError``.  ``bus``: None passes ``--bus`` when ``serve`` takes it.  ``env``:
    more environment for ``unokit serve`` (``UNOKIT_TIMING`` for tests).  ``fsync``:
    off makes a test's PostgreSQL faster and a crash of the machine lose it.  ``port``:
    the public port (default: a free one)."""
    if not 1 <= n <= 32:
        raise ClusterError(f"--n is from 1 to 32, not {n}")
    if bus is None:
        bus = serve_has_bus()
    redis_server = program("redis-server") if bus else None
    nginx = program("nginx")
    base = Path(tempfile.mkdtemp(prefix="unokit-cluster-"))
    base.chmod(0o755)  # PostgreSQL's user and nginx's workers reach their files in it
    public = port or free_port()
    pg = Postgres(str(pg_binaries()), str(base / "pg"), free_port(), pg_user(), fsync)
    redis = None
    if redis_server is not None:
        rport = free_port()
        (base / "redis").mkdir()
        redis = Proc(
            "redis",
            [
                redis_server,
                "--bind",
                "127.0.0.1",
                "--port",
                str(rport),
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
                "--dir",
                str(base / "redis"),
                "--daemonize",
                "no",
            ],
            rport,
            str(base / "redis.log"),
            marker=f":{rport}",
        )
    apps = []
    for i in range(n):
        aport = free_port()
        cmd = [
            sys.executable,
            "-m",
            "unokit.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(aport),
            "--store",
            pg.url,
            "--forwarded-allow-ips",
            "127.0.0.1",
            "--origin",
            f"http://127.0.0.1:{public}",
            "--origin",
            f"http://localhost:{public}",
        ]
        if redis is not None:
            cmd += ["--bus", f"redis://127.0.0.1:{redis.port}/0"]
        apps.append(
            Proc(
                f"unokit serve #{i}",
                cmd,
                aport,
                str(base / f"serve-{i}.log"),
                marker=f"--port {aport}",
                env=dict(env or {}),
            )
        )
    conf = base / "nginx.conf"
    # max_fails=0: a websocket counts as a success only when it ends, so with max_fails=1
    # a process that failed once (a kill) was given one new connection per fail_timeout
    # for as long as its websockets lived: "no live upstreams" for everyone else.  A dead
    # process refuses at once on 127.0.0.1 and proxy_next_upstream tries the next.
    servers = "\n".join(f"        server 127.0.0.1:{a.port} max_fails=0;" for a in apps)
    conf.write_text(NGINX_CONF.format(base=base, servers=servers, port=public))
    (base / "nginx-tmp").mkdir()
    proxy = Proc(
        "nginx",
        [
            nginx,
            "-p",
            str(base),
            "-c",
            str(conf),
            "-e",
            str(base / "nginx-error.log"),
            "-g",
            "daemon off;",
        ],
        public,
        str(base / "nginx-error.log"),
        marker=str(conf),
    )
    c = Cluster(str(base), pg, redis, apps, proxy)
    try:
        pg.init()
        if redis is not None:
            redis.start()
            _wait("redis-server", lambda: _redis_ok(redis.port), Path(redis.log), redis.pid)
        for app in apps:
            app.start()
        for i, app in enumerate(apps):
            _wait(
                f"unokit serve #{i}",
                lambda a=app: _http_ok(a.url + "/healthz"),
                Path(app.log),
                app.pid,
            )
        proxy.start()
        _wait("nginx", lambda: _http_ok(proxy.url + "/healthz"), Path(proxy.log), proxy.pid)
    except BaseException:
        c.stop()
        raise
    return c


@contextlib.contextmanager
def cluster(
    n: int = 3,
    bus: bool | None = None,
    env: Mapping[str, str] | None = None,
    fsync: bool = False,
) -> Iterator[Cluster]:
    """``start`` for a test (PostgreSQL without fsync by default); stopped at the end."""
    c = start(n, bus, env, fsync)
    try:
        yield c
    finally:
        c.stop()


# ------------------------------------------------------------------ command line ---
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scripts/cluster.py", description=__doc__.split("\n")[0])
    p.add_argument("--state", type=Path, default=STATE, help="state file (default %(default)s)")
    sub = p.add_subparsers(dest="command", required=True)
    st = sub.add_parser("start", help="start the cluster and leave it running")
    st.add_argument("--n", type=int, default=3, help="unokit serve processes (default 3)")
    st.add_argument("--port", type=int, default=None, help="nginx's public port (default: free)")
    group = st.add_mutually_exclusive_group()
    group.add_argument(
        "--bus",
        dest="bus",
        action="store_true",
        default=None,
        help="pass --bus redis://... (default: when serve takes it)",
    )
    group.add_argument(
        "--no-bus", dest="bus", action="store_false", help="no Redis, no --bus (one process: --n 1)"
    )
    st.add_argument("--no-fsync", action="store_true", help="PostgreSQL with fsync=off")
    sub.add_parser("stop", help="stop the cluster the state file names and remove its folder")
    sub.add_parser("status", help="print the state file and what of it runs")
    args = p.parse_args(argv)
    state: Path = args.state
    if args.command == "start":
        if state.exists():
            old = Cluster.from_state(json.loads(state.read_text()))
            if old.running():
                print(
                    f"cluster: one is running already ({old.url}); make cluster-stop first",
                    file=sys.stderr,
                )
                return 2
            old.stop()  # a cluster that died: its folder goes
        try:
            c = start(args.n, args.bus, fsync=not args.no_fsync, port=args.port)
        except ClusterError as e:
            print(f"cluster: {e}", file=sys.stderr)
            return 1
        state.write_text(json.dumps(c.state(), indent=2) + "\n")
        print(
            f"cluster: {c.url}  ({len(c.apps)} x unokit serve on ports "
            f"{', '.join(str(a.port) for a in c.apps)}; {c.pg.url}"
            f"{f'; redis://127.0.0.1:{c.redis.port}/0' if c.redis else ', no bus'}; "
            f"logs in {c.base}; state {state})"
        )
        return 0
    if not state.exists():
        print(f"cluster: no state file at {state}: nothing to {args.command}", file=sys.stderr)
        return 0 if args.command == "stop" else 1
    c = Cluster.from_state(json.loads(state.read_text()))
    if args.command == "status":
        print(json.dumps(c.state(), indent=2))
        print(f"running: {', '.join(c.running()) or 'nothing'}")
        return 0
    c.stop()
    left = c.running()
    if left:
        print(f"cluster: still running: {', '.join(left)}", file=sys.stderr)
        return 1
    state.unlink()
    print(f"cluster: stopped; removed {c.base}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
