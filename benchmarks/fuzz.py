"""``make fuzz``: 100,000+ hostile messages against the server, with 0 errors allowed.

    python benchmarks/fuzz.py                    # 100,000 websocket messages + HTTP
    python benchmarks/fuzz.py --messages 20000 --seed 7

The harness is tests/test_server_fuzz.py's (an in-process server, memory store):
games in progress under every preset are attacked with random message shapes,
byte mutations of captured traffic, special cases, replays on other seats, rooms and
finished games, stale and future versions; after each batch the game must play to
its end.  Exits 1 on any server error, HTTP 500, leak or state change by a refusal.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from starlette.testclient import TestClient  # noqa: E402

from test_server_fuzz import FUZZ_LIMITS, FUZZ_TIMING, Harness, fuzz_http, run_fuzz  # noqa: E402
from unokit.rules import PRESETS  # noqa: E402
from unokit.server.app import create_app  # noqa: E402
from unokit.server.store import MemoryStore  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--messages", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=2_500, help="messages per attacked game")
    p.add_argument("--http", type=int, default=5_000, help="hostile HTTP requests")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    presets = list(PRESETS)
    t0 = time.monotonic()
    total = errors = games = finished = 0
    leaks: list[str] = []
    changed: list[str] = []
    app = create_app(MemoryStore(), timing=FUZZ_TIMING, limits=FUZZ_LIMITS)
    with TestClient(app) as client:
        h = Harness(client)
        i = 0
        while total < args.messages:
            preset = presets[i % len(presets)]
            seats = 2 + i % 4
            if preset == "two-player":
                seats = 2
            elif preset == "teams":
                seats = 4
            n = min(args.batch, args.messages - total)
            try:
                r = run_fuzz(h, n, seed=args.seed * 1000 + i, preset=preset, seats=seats)
            except AssertionError as e:  # a game that could not play on: a failure
                print(f"FAILED ({preset}): {e}"[:2000], flush=True)
                total += n
                games += 1
                i += 1
                continue
            total += r.messages
            games += r.games
            finished += r.games_finished
            i += 1
            print(
                f"{total:7d} messages  games {finished}/{games} finished  "
                f"server errors {h.server.errors}  leaks {len(h.leaks)}  "
                f"changed by refusals {len(h.changed_on_refusal)}  "
                f"({preset}, {seats} seats, {time.monotonic() - t0:.0f} s)",
                flush=True,
            )
        http_500 = fuzz_http(h, args.http, seed=args.seed)
        errors = h.server.errors
        leaks = h.leaks
        changed = h.changed_on_refusal
    elapsed = time.monotonic() - t0
    print(
        f"\nfuzz: {total} hostile websocket messages and {args.http} HTTP requests in "
        f"{elapsed:.0f} s: server errors {errors}, HTTP 500 {http_500}, leaks {len(leaks)}, "
        f"state changes by refused messages {len(changed)}, games finished {finished}/{games}"
    )
    for x in (leaks + changed)[:10]:
        print("  ", x)
    bad = errors or http_500 or leaks or changed or finished != games
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
