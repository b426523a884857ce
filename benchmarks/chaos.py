"""``make chaos``: kill -9 the server again and again under load; nothing acknowledged
may be lost and every game must play to its end.

    python benchmarks/chaos.py                       # 8 rooms, 6 kills
    python benchmarks/chaos.py --rooms 20 --kills 10 --every-acks 1000

The harness is tests/test_server_faults.py's: a real server process on 127.0.0.1 with
a SQLite file, rooms of 2-3 scripted clients and bots playing at full speed, each
client keeping the list of its actions the server acknowledged (no error before the
pong that follows the action, the resulting view received).  The server is killed
with SIGKILL every ``--every-acks`` acknowledged actions (or ``--every`` seconds) and
started again on the same database; the
clients reconnect by themselves with their tokens and last sequence numbers.  After
every kill and at the end, each acknowledged action must be in the log at the version
it made.  Exits 1 on any loss, client error or server traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from test_server_faults import kill_and_resume  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rooms", type=int, default=8)
    p.add_argument("--people", type=int, default=3, help="scripted clients a room (1-4)")
    p.add_argument("--kills", type=int, default=6)
    p.add_argument(
        "--every-acks",
        type=int,
        default=700,
        help="acknowledged actions between kills (0: use --every seconds)",
    )
    p.add_argument("--every", type=float, default=4.0, help="seconds of play between kills")
    p.add_argument("--deadline", type=float, default=300.0, help="seconds for it all")
    p.add_argument("--target", type=int, default=2000, help="points that end a game")
    args = p.parse_args(argv)
    t0 = time.monotonic()
    r = asyncio.run(
        kill_and_resume(
            Path(tempfile.mkdtemp(prefix="unokit-chaos-")),
            rooms=args.rooms,
            people=args.people,
            before_kill=args.every,
            kills=args.kills,
            deadline_s=args.deadline,
            target=args.target,
            every_acks=args.every_acks,
        )
    )
    print(
        f"chaos: {args.rooms} rooms x {args.people} clients, {args.kills} x kill -9 every "
        + (f"{args.every_acks} acknowledged actions" if args.every_acks else f"{args.every:.0f} s")
        + f", {time.monotonic() - t0:.0f} s: "
        f"{r['acks']} acknowledged actions (at each kill: {r['acks_at_kill']}), "
        f"lost {len(r['lost'])}, games finished {r['rooms_over']}/{r['rooms']}, "
        f"client reconnects {r['reconnects']}, client errors {len(r['client_errors'])}, "
        f"server tracebacks {r['tracebacks']}"
    )
    for x in r["lost"][:10] + r["client_errors"][:10]:
        print("  ", x)
    bad = r["lost"] or r["client_errors"] or r["tracebacks"] or r["rooms_over"] != r["rooms"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
