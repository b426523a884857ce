"""Redis pub/sub against PostgreSQL ``LISTEN/NOTIFY`` as the cluster's bus (issue 35
item 3): which to use when.

    python benchmarks/bus_compare.py                       # 20,000 messages each
    python benchmarks/bus_compare.py --messages 5000 --rate 1000 --size 300

scripts/cluster.py's PostgreSQL (fsync on) and redis-server on 127.0.0.1 (and one
``unokit serve`` behind nginx, idle).  For each transport, in this process: one
listener thread, one publisher.  Two tests:

* **paced**: ``--messages`` messages of ``--size`` bytes (a room's announcement with
  one or two entries is 300-900 bytes), one call each, at ``--rate`` a second: the
  delivery latency (publish call to the listener's hand, one clock) p50/p99/max, and
  the CPU the server used per message (redis-server's process; every PostgreSQL
  process: the publisher's and the listener's backends, the WAL writer...).
* **burst**: the same messages as fast as they go, in batches of 100 (a Redis pipeline;
  100 ``pg_notify`` calls in one transaction, delivered at its commit): messages a
  second until the last one is heard.

NOTIFY's payload is at most 7,999 bytes: a bus on it sends room codes and versions,
and every listener then reads the entries from the store (not measured here: this
compares the transports).  Prints one table; ``--json`` writes the figures.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
CHANNEL = "unokit_rooms"


def cluster_module() -> Any:
    name = "unokit_cluster"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts/cluster.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def cpu_of(pids: Callable[[], list[int]]) -> float:
    total = 0.0
    for pid in pids():
        try:
            t = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


def payload(i: int, size: int) -> bytes:
    head = json.dumps({"i": i, "t": time.perf_counter()}, separators=(",", ":")).encode()
    return head + b" " * max(0, size - len(head))


class Heard:
    def __init__(self, n: int) -> None:
        self.n = n
        self.lat: list[float] = []
        self.done = threading.Event()
        self.ready = threading.Event()

    def got(self, data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data
        msg = json.loads(raw.split(b" ", 1)[0])
        self.lat.append(time.perf_counter() - msg["t"])
        if len(self.lat) >= self.n:
            self.done.set()


def redis_listener(port: int, heard: Heard) -> None:
    r = redis.Redis(port=port)
    ps = r.pubsub(ignore_subscribe_messages=True)
    ps.subscribe(CHANNEL)
    heard.ready.set()
    while not heard.done.is_set():
        m = ps.get_message(timeout=1.0)
        if m is not None:
            heard.got(m["data"])
    ps.close()


def pg_listener(url: str, heard: Heard) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        heard.ready.set()
        while not heard.done.is_set():
            for note in conn.notifies(timeout=1.0):
                heard.got(note.payload)
                if heard.done.is_set():
                    break


def run(
    kind: str, c: Any, n: int, rate: float, size: int, burst: bool
) -> dict[str, float | int | str]:
    heard = Heard(n)
    if kind == "redis":
        assert c.redis is not None
        port = c.redis.port
        target = threading.Thread(target=redis_listener, args=(port, heard), daemon=True)
        r = redis.Redis(port=port)

        def pids() -> list[int]:
            return [c.redis.pid]

        def send_one(i: int) -> None:
            r.publish(CHANNEL, payload(i, size))

        def send_batch(first: int, k: int) -> None:
            with r.pipeline(transaction=False) as pipe:
                for i in range(first, first + k):
                    pipe.publish(CHANNEL, payload(i, size))
                pipe.execute()
    else:
        target = threading.Thread(target=pg_listener, args=(c.pg.url, heard), daemon=True)
        conn = psycopg.connect(c.pg.url, autocommit=True)
        root = c.pg.pid()

        def pids() -> list[int]:
            try:
                p = psutil.Process(root)
                return [root, *(x.pid for x in p.children(recursive=True))]
            except psutil.Error:
                return []

        def send_one(i: int) -> None:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload(i, size).decode()))

        def send_batch(first: int, k: int) -> None:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(
                    "SELECT pg_notify(%s, %s)",
                    [(CHANNEL, payload(i, size).decode()) for i in range(first, first + k)],
                )

    target.start()
    heard.ready.wait(10)
    cpu0, t0 = cpu_of(pids), time.perf_counter()
    if burst:
        for first in range(0, n, 100):
            send_batch(first, min(100, n - first))
    else:
        for i in range(n):
            due = t0 + i / rate
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            send_one(i)
    heard.done.wait(60)
    took = time.perf_counter() - t0
    cpu = cpu_of(pids) - cpu0
    lat = sorted(heard.lat)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [0.0] * 99
    return {
        "transport": kind,
        "test": "burst" if burst else "paced",
        "heard": len(lat),
        "per_s": len(lat) / took,
        "p50_ms": q[49] * 1000,
        "p99_ms": q[98] * 1000,
        "max_ms": (lat[-1] if lat else 0.0) * 1000,
        "server_cpu_us_per_msg": cpu / max(1, len(lat)) * 1e6,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=20_000)
    ap.add_argument("--rate", type=float, default=2_000.0, help="paced test: messages/s")
    ap.add_argument("--size", type=int, default=700, help="bytes a message")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if not 1 <= args.messages <= 1_000_000 or not 0 < args.size <= 7_999:
        ap.error("--messages 1..1,000,000 and --size 1..7,999 (NOTIFY's limit)")
    cl = cluster_module()
    c = cl.start(1)
    rows = []
    try:
        for burst in (False, True):
            for kind in ("redis", "pg-notify"):
                rows.append(run(kind, c, args.messages, args.rate, args.size, burst))
    finally:
        c.stop()
    print(f"{args.messages} messages of {args.size} bytes; paced at {args.rate:g}/s\n")
    print(
        "| transport | test | heard | messages/s | p50 / p99 / max ms | server CPU µs a message |"
    )
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['transport']} | {r['test']} | {r['heard']} | {r['per_s']:,.0f} | "
            f"{r['p50_ms']:.2f} / {r['p99_ms']:.2f} / {r['max_ms']:.1f} | "
            f"{r['server_cpu_us_per_msg']:.1f} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
