"""``make soak``: a long run at human pace; memory, descriptors and tasks must stay flat.

    python benchmarks/soak.py                     # 30 minutes, sampled each minute
    python benchmarks/soak.py --minutes 5 --rooms 100

One server process (the real app, SQLite in WAL mode, 127.0.0.1) and one load process:
``--rooms`` 4-seat rooms, each with 2 scripted clients and 2 bots, play at human pace
(loadtest.py's clients), rematch when a game ends, and every 10 seconds 5% of the
clients hang up and resume with their token and last sequence number (churn: the
leaks a long-lived server shows come from connections that come and go).  Each
sample: the server's RSS, open file descriptors, threads, asyncio tasks, live
connections, rooms and gc objects.  Games are short (``--target`` 50 points) so they
end and rematch many times: a game's events are kept until it ends, so memory grows
during a game by design.  Passes when, from a third of the run on, RSS grows less
than 10% and descriptors and tasks stay at their level (within the churn).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadtest import Client, RoomPlay, Stats, create_app_room, start_server, stop_server


async def churn_and_play(base: str, rooms: int, seconds: float, seed: int, target: int) -> Stats:
    import httpx

    rng = random.Random(seed)
    stats = Stats()
    plays: list[RoomPlay] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(rooms):
            code, seats = await create_app_room(http, 2, options={"target_score": target})
            plays.append(RoomPlay(base, code, seats, stats, "human", random.Random(rng.random())))
    loop = asyncio.get_running_loop()

    async def open_client(c: Client) -> None:
        try:
            await c.connect()
        except Exception as e:
            stats.error(f"connect:{type(e).__name__}")
            return
        c.closed = False
        c.task = loop.create_task(c.run())

    for room in plays:
        await asyncio.gather(*(open_client(c) for c in room.clients))
        with contextlib.suppress(Exception):
            await room.clients[0].ws.send(json.dumps({"type": "start"}))
        await asyncio.sleep(0.01)
    end = time.monotonic() + seconds
    clients = [c for r in plays for c in r.clients]
    while time.monotonic() < end:
        await asyncio.sleep(10)
        for c in rng.sample(clients, max(1, len(clients) // 20)):
            await c.close()
            if c.task is not None:
                c.task.cancel()
                with contextlib.suppress(BaseException):
                    await c.task
            c.outstanding = None
            await open_client(c)
    for c in clients:
        await c.close()
        if c.task is not None:
            c.task.cancel()
            with contextlib.suppress(BaseException):
                await c.task
    stats.rooms_held = rooms
    return stats


def main(argv: list[str] | None = None) -> int:
    import psutil

    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--target", type=int, default=50, help="points that end a game (games must cycle)"
    )
    p.add_argument(
        "--gc",
        choices=("serve", "python"),
        default="serve",
        help="serve: as unokit serve runs; python: Python's default collector",
    )
    p.add_argument("--full-every", type=float, default=None,
                   help="seconds between the server's timed full collections (default: "
                        "unokit serve's; 0: none)")  # fmt: skip
    args = p.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="unokit-soak-"))
    stats_file = tmp / "stats.jsonl"
    server = start_server(
        str(tmp / "soak.sqlite3"),
        stats=str(stats_file),
        stats_every=args.every,
        gc=args.gc,
        full_every=args.full_every,
    )
    proc = psutil.Process(server.proc.pid)
    samples: list[dict[str, Any]] = []

    async def run() -> Stats:
        async def sampler() -> None:
            while True:
                await asyncio.sleep(args.every)
                samples.append(
                    {
                        "minute": round(len(samples) * args.every / 60 + args.every / 60, 1),
                        "rss_mb": proc.memory_info().rss / 2**20,
                        "fds": proc.num_fds(),
                        "threads": proc.num_threads(),
                    }
                )
                print(json.dumps(samples[-1]), flush=True)

        task = asyncio.get_running_loop().create_task(sampler())
        try:
            return await churn_and_play(
                server.url, args.rooms, args.minutes * 60, args.seed, args.target
            )
        finally:
            task.cancel()

    t0 = time.monotonic()
    stats = asyncio.run(run())
    time.sleep(2)
    after = {"rss_mb": proc.memory_info().rss / 2**20, "fds": proc.num_fds()}
    stop_server(server)
    inner = (
        [json.loads(x) for x in stats_file.read_text().splitlines()] if stats_file.exists() else []
    )
    for s, row in zip(samples, inner, strict=False):
        s.update({k: row[k] for k in ("tasks", "conns", "rooms", "gc_objects", "errors")})
    if inner:
        print(
            f"timed full collections: {inner[-1]['full_collections']}, mean "
            f"{inner[-1]['full_collection_mean_ms']} ms, longest "
            f"{inner[-1]['full_collection_max_ms']} ms"
        )
    print(
        f"\nsoak: {args.rooms} rooms, {(time.monotonic() - t0) / 60:.1f} minutes, "
        f"errors {dict(stats.errors)}, after the clients left: {after}"
    )
    print("| minute | RSS MB | fds | threads | tasks | connections | gc objects |")
    print("|---|---|---|---|---|---|---|")
    for s in samples:
        print(
            f"| {s['minute']:.0f} | {s['rss_mb']:.1f} | {s['fds']} | {s['threads']} "
            f"| {s.get('tasks', '?')} | {s.get('conns', '?')} | {s.get('gc_objects', '?')} |"
        )
    ok = True
    if len(samples) >= 3:
        # from a third of the run on: games have ended and restarted by then
        k = len(samples) // 3
        base, last = samples[k], samples[-1]
        growth = (last["rss_mb"] - base["rss_mb"]) / base["rss_mb"]
        print(f"RSS from sample {k + 1} to the last: {100 * growth:+.1f}%")
        ok &= growth < 0.10
        ok &= last["fds"] <= base["fds"] + max(10, args.rooms // 10)
        if "tasks" in last and "tasks" in base:
            ok &= last["tasks"] <= base["tasks"] + max(10, args.rooms // 10)
    fatal = {k: v for k, v in stats.errors.items() if not k.startswith("lost:")}
    ok &= not fatal and log_tracebacks(server.log) == 0
    print("soak:", "flat" if ok else "NOT flat / errors")
    return 0 if ok else 1


def log_tracebacks(path: Path) -> int:
    return path.read_text(errors="replace").count("Traceback") if path.exists() else 0


if __name__ == "__main__":
    raise SystemExit(main())
