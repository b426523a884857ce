"""``make chaos-cluster``: faults in a cluster under load (issue 35, the goals).

    python benchmarks/chaos_cluster.py                   # 40 rooms, 10 x kill -9, a rolling restart
    python benchmarks/chaos_cluster.py --rooms 60 --kills 3 --no-rolling

scripts/cluster.py's cluster on 127.0.0.1: a throwaway PostgreSQL (fsync on), redis-server,
three ``unokit serve --store postgresql://... --bus redis://...`` and nginx in front.
Rooms of 4 seats, 2 scripted clients and 2 bots each, play through the proxy; each
client has its own source address (127.0.x.y: nginx passes it on, so the per-address
limits of a real ``unokit serve`` apply as to people), reconnects by itself as the web
client does (its token and last sequence number; 0.3 s, then doubling) and keeps every
frame.  The clients are tests/test_cluster_live.py's ``Player``.

1. ``--kills`` times: ``kill -9`` of one process (in turn), under load.  Measured: how
   long until every client of the dead process is back in its seat (a state after a
   new welcome, through the proxy on another process), and, for the rooms whose lease
   the dead process held (found in the store's ``leases`` table: the holder that
   stopped renewing), until their bots (or next round) move again.  Then the process
   is started again and play goes on ``--between`` seconds before the next kill.
2. A rolling restart: SIGTERM to each process in turn, started again once it has
   stopped, the next once it answers ``/healthz``.  Every error code a client is sent
   is counted, except ``restarting`` (the notice before the reconnect) and
   ``stale_version`` (a race lost; the web client redraws and shows nothing).
3. At the end, against the store: every acknowledged action (an act followed by a
   ping: no error before the pong) in the log at the version it made; every state
   frame every client got equal to its seat's view of the store's replay at that
   version; every room as every server has it (a spectator on each) equal to the
   store's replay.

Exits 1 if an acknowledged action was lost, a view was wrong, a room diverged or a
server wrote a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from test_cluster_live import (  # noqa: E402
    TIMING,
    Player,
    check_acks,
    check_views,
    cluster_module,
    make_room,
    pg_query,
    replay_of,
    store_log,
)

PEOPLE_SEATS = (0, 1)
BOT_SEATS = (2, 3)


def address(i: int) -> str:
    """The source address of client ``i``: 127.0.x.y, never 127.0.0.1."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


class Watch:
    """Polls the store every 0.1 s: new log entries of every room (with when they were
    seen) and the leases table."""

    def __init__(self, c: Any, codes: list[str]) -> None:
        self.c = c
        self.codes = codes
        self.next = dict.fromkeys(codes, 0)
        # (when seen, index) of each bot move or new round
        self.driven: dict[str, list[tuple[float, int]]] = {code: [] for code in codes}
        self.leases: list[tuple[float, dict[str, tuple[str, Any]]]] = []
        self.stop = False
        self.failures = 0

    def poll(self) -> None:
        import psycopg

        with psycopg.connect(self.c.pg.url, autocommit=True, connect_timeout=2) as conn:
            while not self.stop:
                t = time.monotonic()
                rows = conn.execute(
                    "SELECT l.code, l.idx, l.entry->>'t', l.entry->'a'->>'seat' FROM log l "
                    "JOIN unnest(%s::text[], %s::int[]) AS k(code, idx) "
                    "ON l.code = k.code AND l.idx >= k.idx WHERE l.game = 1",
                    (self.codes, [self.next[c] for c in self.codes]),
                ).fetchall()
                for code, idx, kind, seat in rows:
                    self.next[code] = max(self.next[code], idx + 1)
                    if kind == "round" or (kind == "act" and int(seat) in BOT_SEATS):
                        self.driven[code].append((t, idx))
                leases = conn.execute("SELECT code, holder, expires FROM leases").fetchall()
                self.leases.append((t, {r[0]: (r[1], r[2]) for r in leases}))
                time.sleep(max(0.0, 0.1 - (time.monotonic() - t)))

    def run(self) -> None:
        while not self.stop:
            try:
                self.poll()
            except Exception:
                self.failures += 1
                time.sleep(0.2)

    def lease_at(self, t: float) -> dict[str, tuple[str, Any]]:
        before = [s for when, s in self.leases if when <= t]
        return before[-1] if before else {}

    def dead_holder(self, killed: float, after: float) -> str | None:
        """The holder whose leases stopped being renewed at ``killed``: its latest
        expiry seen by ``after`` is the one it had just after the kill (the table
        as polled 0.3 s later: a renewal in the last poll period before the kill would
        otherwise look like a living holder's)."""
        at = self.lease_at(killed + 0.3)
        later = self.lease_at(after)
        last: dict[str, Any] = {}
        for holder, expires in at.values():
            last[holder] = max(last.get(holder, expires), expires)
        for holder, old in last.items():
            renewed = [e for h, e in later.values() if h == holder and e > old]
            if not renewed:
                return holder
        return None


async def run(args: argparse.Namespace) -> dict[str, Any]:
    cl = cluster_module()
    timing = {**TIMING, "bot_delay": args.bot_delay}
    env = {"UNOKIT_TIMING": json.dumps(timing)}
    c = await asyncio.to_thread(cl.start, 3, None, env, True)
    load: list[float] = []
    out: dict[str, Any] = {"kills": [], "rolling": []}
    try:
        made = []
        for r in range(args.rooms):
            host, guest = address(2 * r), address(2 * r + 1)
            code, tokens = await make_room(c.url, 4, [None, "normal", "normal"], 1, local=host)
            # the second person joins from their own address
            import httpx

            transport = httpx.AsyncHTTPTransport(local_address=guest)
            async with httpx.AsyncClient(base_url=c.url, timeout=10, transport=transport) as h:
                j = await h.post(f"/api/rooms/{code}/join", json={"name": "P1"})
                assert j.status_code == 200, j.text
                tokens.append(j.json()["token"])
            made.append((code, tokens, host, guest))
        players: list[Player] = []
        for code, tokens, host, guest in made:
            for seat, (token, local) in enumerate(zip(tokens, (host, guest), strict=True)):
                players.append(Player([c.ws], code, seat, token, local=local, think=args.think))
        tasks = [asyncio.create_task(p.run()) for p in players]
        hosts = [p for p in players if p.seat == 0]
        t0 = time.monotonic()
        while not all(h.ws is not None and h.welcomed for h in hosts):
            assert time.monotonic() - t0 < 30, "the hosts did not connect"
            await asyncio.sleep(0.05)
        for h in hosts:
            await h.ws.send('{"type":"start"}')
        while not all(p.state is not None for p in players):
            assert time.monotonic() - t0 < 60, "not every client got its first view"
            await asyncio.sleep(0.05)
        codes = [m[0] for m in made]
        watch = Watch(c, codes)
        watcher = asyncio.get_running_loop().run_in_executor(None, watch.run)

        async def sample_load() -> None:
            while True:
                load.append(os.getloadavg()[0])
                await asyncio.sleep(1.0)

        loader = asyncio.create_task(sample_load())
        await asyncio.sleep(args.warmup)
        started = time.monotonic()
        acks_before = sum(len(p.acks) for p in players)

        # ---------------------------------------------------------- kill -9 ------
        for k in range(args.kills):
            i = k % 3
            acks_at = sum(len(p.acks) for p in players)
            killed = time.monotonic()
            await asyncio.to_thread(c.apps[i].kill)
            # the log as the dead process left it: its last entries may be seen by the
            # watch only after the kill, and are not moves made again
            await asyncio.sleep(0.3)
            rows = await asyncio.to_thread(
                pg_query, c, "SELECT code, count(*) FROM log WHERE game = 1 GROUP BY code"
            )
            left = {code: n for code, n in rows}
            await asyncio.sleep(2.2)
            affected = [p for p in players if any(killed <= t <= killed + 2.0 for t in p.lost)]
            dead = watch.dead_holder(killed, time.monotonic())
            orphaned = [
                code for code, (h, _) in watch.lease_at(killed + 0.3).items() if h == dead and dead
            ]
            end = killed + args.recover
            while time.monotonic() < end:
                back = all(any(t > killed for t in p.seated) for p in affected)
                moved = all(
                    any(x >= left.get(code, 0) for _, x in watch.driven[code]) for code in orphaned
                )
                if back and moved:
                    break
                await asyncio.sleep(0.1)
            back_s = [
                min((t for t in p.seated if t > killed), default=float("inf")) - killed
                for p in affected
            ]
            bots_s = [
                min(
                    (t for t, x in watch.driven[code] if x >= left.get(code, 0)),
                    default=float("inf"),
                )
                - killed
                for code in orphaned
            ]
            takeover = []
            for code in orphaned:
                later = [
                    when
                    for when, s in watch.leases
                    if when > killed and code in s and s[code][0] != dead
                ]
                takeover.append((min(later) if later else float("inf")) - killed)
            stuck = []  # rooms whose bots did not move again in time: what they wait on
            for code, b in zip(orphaned, bots_s, strict=True):
                if b == float("inf"):
                    rows = await asyncio.to_thread(
                        pg_query,
                        c,
                        "SELECT r.data->>'status', l.holder, count(g.idx), "
                        "max(g.idx) FILTER (WHERE g.entry->>'t' = 'act') FROM rooms r "
                        "LEFT JOIN leases l ON l.code = r.code LEFT JOIN log g ON "
                        "g.code = r.code AND g.game = 1 WHERE r.code = %s "
                        "GROUP BY r.data, l.holder",
                        (code,),
                    )
                    stuck.append({"code": code, "left": left.get(code, 0), "store": rows})
            out["kills"].append(
                {
                    "process": i,
                    "acks_before": acks_at,
                    "clients_cut": len(affected),
                    "back_s": back_s,
                    "rooms_orphaned": len(orphaned),
                    "bots_s": bots_s,
                    "lease_s": takeover,
                    "stuck": stuck,
                }
            )
            print(
                f"kill {k + 1}: process {i}, {len(affected)} clients cut, back in "
                f"max {max(back_s, default=0):.2f} s; {len(orphaned)} rooms' bots moved "
                f"again in max {max(bots_s, default=0):.2f} s (lease taken in max "
                f"{max(takeover, default=0):.2f} s)" + (f"; not moving: {stuck}" if stuck else ""),
                flush=True,
            )
            await asyncio.to_thread(c.restart, i)
            await asyncio.sleep(args.between)
        kill_errors: dict[str, int] = {}
        for p in players:
            for t, e in p.errors:
                if started <= t:
                    kill_errors[e] = kill_errors.get(e, 0) + 1
        out["kill_errors"] = kill_errors
        out["kill_seconds"] = time.monotonic() - started

        # ---------------------------------------------------------- rolling ------
        rolling_from = time.monotonic()
        if args.rolling:
            # from the process after the last one killed: the clients it sent away are
            # on the other two, so every process has clients when its turn comes
            for i in [(args.kills + j) % 3 for j in range(3)]:
                t = time.monotonic()
                await asyncio.to_thread(c.apps[i].terminate, 15.0)
                stopped = time.monotonic() - t
                await asyncio.to_thread(c.restart, i)
                affected = [p for p in players if any(t <= x <= t + stopped + 1 for x in p.lost)]
                await asyncio.sleep(args.between)
                back_s = [
                    min((x for x in p.seated if x > t), default=float("inf")) - t for p in affected
                ]
                out["rolling"].append(
                    {
                        "process": i,
                        "stop_s": stopped,
                        "clients_cut": len(affected),
                        "back_s": back_s,
                    }
                )
                print(
                    f"rolling: process {i} stopped in {stopped:.2f} s, {len(affected)} "
                    f"clients moved, back in max {max(back_s, default=0):.2f} s",
                    flush=True,
                )
        rolling_errors: dict[str, int] = {}
        for p in players:
            for t, e in p.errors:
                if t >= rolling_from:
                    rolling_errors[e] = rolling_errors.get(e, 0) + 1
        out["rolling_errors"] = rolling_errors

        # ---------------------------------------------------------- the end ------
        for p in players:
            p.stop = True
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        loader.cancel()
        await asyncio.sleep(1.5)  # the bots play up to a person's turn
        watch.stop = True
        await watcher
        out["acks"] = sum(len(p.acks) for p in players)
        out["acks_in_faults"] = out["acks"] - acks_before
        out["reconnects"] = sum(p.connects - 1 for p in players)
        out["client_failures"] = [f for p in players for f in p.failures][:10]
        lost: list[str] = []
        wrong: list[str] = []
        frames = 0
        rng = random.Random(1)
        for code in codes:
            entries = await asyncio.to_thread(store_log, c, code)
            replay = await asyncio.to_thread(replay_of, c, code)
            mine = [p for p in players if p.code == code]
            lost += check_acks(entries, [a for p in mine for a in p.acks])
            for p in mine:
                frames += sum(1 for f in p.frames if f["type"] == "state")
                try:
                    wrong += check_views(p, replay, rng)
                except AssertionError as e:
                    wrong.append(f"{code} seat {p.seat}: {e}")
        out["lost"] = lost
        out["wrong_views"] = wrong
        out["frames_checked"] = frames
        out["diverged"] = await diverged(c, codes)
        out["tracebacks"] = sum(
            Path(a.log).read_text(errors="replace").count("Traceback") for a in c.apps
        )
        out["log_errors"] = [
            f"{a.name}: {line[:240]}"
            for a in c.apps
            for line in Path(a.log).read_text(errors="replace").splitlines()
            if " ERROR" in line or "Traceback" in line
        ][:10]
        out["watch_failures"] = watch.failures
        out["load"] = (min(load, default=0), max(load, default=0))
        return out
    finally:
        await asyncio.to_thread(c.stop)


async def diverged(c: Any, codes: list[str]) -> list[str]:
    """Rooms some server holds otherwise than the store's replay.  A spectator on each
    server (its own address) must reach the store's version of the moment it connected,
    and the last view each was sent (the rooms still move: their persons are away, so
    the autopilot plays) must be the store's replay at that view's version."""
    bad: list[str] = []
    for n, code in enumerate(codes):
        before = await asyncio.to_thread(replay_of, c, code)
        watchers = [
            Player(
                [f"ws://127.0.0.1:{a.port}/ws"],
                code,
                None,
                None,
                plays=False,
                local=f"127.1.{n // 250}.{1 + n % 250}",
            )
            for a in c.apps
        ]
        tasks = [asyncio.create_task(w.run()) for w in watchers]
        end = time.monotonic() + 10
        while time.monotonic() < end and not all(w.version >= before.version for w in watchers):
            await asyncio.sleep(0.05)
        seen = [w.state for w in watchers]  # then the store, which has every version shown
        replay = await asyncio.to_thread(replay_of, c, code)
        for i, st in enumerate(seen):
            if st is None or st["version"] < before.version:
                got = st["version"] if st else None
                bad.append(f"{code} on server {i}: at {got}, the store at {before.version}")
                continue
            views = replay.views.get(st["version"])
            if views is None or st["view"] != views[-1][None]:
                bad.append(f"{code} on server {i}: the view at {st['version']} is not the store's")
        for w in watchers:
            w.stop = True
        await asyncio.gather(*tasks)
    return bad


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rooms", type=int, default=40, help="rooms (2 clients, 2 bots each)")
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--between", type=float, default=3.0, help="seconds of play between faults")
    p.add_argument("--recover", type=float, default=15.0, help="seconds a kill may take to heal")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--think", type=float, default=0.3, help="a client's think time, up to (s)")
    p.add_argument("--bot-delay", type=float, default=0.1)
    p.add_argument("--no-rolling", dest="rolling", action="store_false")
    p.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = p.parse_args(argv)
    t0 = time.monotonic()
    r = asyncio.run(run(args))
    back = [x for k in r["kills"] for x in k["back_s"]]
    bots = [x for k in r["kills"] for x in k["bots_s"]]
    lease = [x for k in r["kills"] for x in k["lease_s"]]
    rback = [x for k in r["rolling"] for x in k["back_s"]]
    print(
        f"chaos-cluster: 3 processes, {args.rooms} rooms x 2 clients + 2 bots, "
        f"{len(r['kills'])} x kill -9 and {'a' if r['rolling'] else 'no'} rolling restart in "
        f"{time.monotonic() - t0:.0f} s (load average {r['load'][0]:.1f}-{r['load'][1]:.1f}):\n"
        f"  acknowledged actions {r['acks']} ({r['acks_in_faults']} during the faults), "
        f"lost {len(r['lost'])}; state frames checked {r['frames_checked']}, wrong "
        f"{len(r['wrong_views'])}; rooms diverged {len(r['diverged'])}\n"
        f"  kill -9: clients cut {len(back)}, back in their seat p50 {pct(back, 50):.2f} / "
        f"p99 {pct(back, 99):.2f} / max {max(back, default=0):.2f} s; rooms orphaned "
        f"{len(bots)}, bots moving again p50 {pct(bots, 50):.2f} / p99 {pct(bots, 99):.2f} / max "
        f"{max(bots, default=0):.2f} s, lease taken over max {max(lease, default=0):.2f} s "
        f"(lease 5 s); errors sent {r['kill_errors']}\n"
        f"  rolling restart: clients moved {len(rback)}, back in their seat p50 "
        f"{pct(rback, 50):.2f} / p99 {pct(rback, 99):.2f} / max "
        f"{max(rback, default=0):.2f} s; errors sent {r['rolling_errors']}\n"
        f"  reconnects {r['reconnects']}, client failures {len(r['client_failures'])}, "
        f"server tracebacks {r['tracebacks']}, store polls failed {r['watch_failures']}"
    )
    for x in (r["lost"] + r["wrong_views"] + r["diverged"] + r["client_failures"])[:10]:
        print("  ", x)
    for x in r["log_errors"]:
        print("  ", x)
    if args.json:
        args.json.write_text(json.dumps(r, indent=1, default=str))
    shown = {
        k: v for k, v in r["rolling_errors"].items() if k not in ("restarting", "stale_version")
    }
    met = {
        "0 acknowledged actions lost": not r["lost"],
        "0 rooms diverged": not r["diverged"],
        "every client back in its seat within 5 s": max(back, default=0) <= 5,
        "bots moving again within the lease (5 s)": max(bots, default=0) <= 5,
        "bots moving again within 10 s": max(bots, default=0) <= 10,
        "rolling restart: 0 errors shown": not shown,
    }
    for goal, ok in met.items():
        print(f"  goal {goal}: {'met' if ok else 'NOT met'}")
    bad = r["lost"] or r["wrong_views"] or r["diverged"] or r["tracebacks"] or shown
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
