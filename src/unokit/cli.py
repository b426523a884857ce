"""``unokit``: one command with sub-commands.  Thin: parse, call the library, print.

No traceback ever reaches a user: known errors print one line and exit non-zero.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unokit.rules import OPTION_HELP, PRESETS, RulesError, RuleSet, from_preset, parse_option


def _rules_from_args(preset: str, options: Sequence[str]) -> RuleSet:
    opts: dict[str, Any] = {}
    for text in options:
        key, value = parse_option(text)
        opts[key] = value
    return from_preset(preset, opts)


def cmd_replay(args: argparse.Namespace) -> int:
    from unokit.record import replay_text

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"unokit replay: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    status, out = replay_text(text)
    if isinstance(out, str):
        print(f"unokit replay: {out}", file=sys.stderr)
        print(json.dumps({"ok": False, "error": {"message": out}}))
    else:
        print(json.dumps(out, indent=None if args.compact else 2))
    return status


def cmd_rules(args: argparse.Namespace) -> int:
    print("Presets (use --rules NAME):")
    for name, (desc, opts) in PRESETS.items():
        extra = ", ".join(f"{k}={v}" for k, v in opts.items())
        print(f"  {name:<16} {desc}" + (f"  [{extra}]" if extra else ""))
    print("\nOptions (use --option KEY=VALUE), with defaults:")
    defaults = RuleSet().options()
    for key, text in OPTION_HELP.items():
        print(f"  {key:<22} {text} (default {json.dumps(defaults[key])})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from unokit.bots import RandomBot, play_game
    from unokit.engine import Game
    from unokit.record import dumps

    rules = _rules_from_args(args.rules, args.option)
    names = [f"Bot{i}" for i in range(args.players)]
    game = Game(rules, names, seed=args.seed)
    bots = [RandomBot(seed=args.seed * 100 + i) for i in range(args.players)]
    play_game(game, bots)
    text = dumps(game)
    if args.record:
        Path(args.record).write_text(text, "utf-8")
    else:
        sys.stdout.write(text)
    if game.teams:
        winner = " and ".join(game.names[s] for s in range(game.n) if s % 2 == game.game_winner)
    else:
        winner = game.names[game.game_winner]
    labels = ["team 0", "team 1"] if game.teams else game.names
    print(
        f"{winner} win{'' if game.teams else 's'} after {game.round_index + 1} rounds; scores "
        + ", ".join(f"{n} {s}" for n, s in zip(labels, game.scores, strict=True)),
        file=sys.stderr,
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from unokit.tui.app import run_play

    rules = _rules_from_args(args.rules, args.option)
    status: int = run_play(args, rules)
    return status


def cmd_sim(args: argparse.Namespace) -> int:
    from unokit.sim.cli import run

    return run(args)


def cmd_tournament(args: argparse.Namespace) -> int:
    from unokit import tournament as t

    spec = t.Spec(
        tuple(t.parse_entrants(args.bots)),
        args.players,
        _rules_from_args(args.rules, args.option),
        args.seed,
        full_games=args.full_games,
    )
    workers = t.default_workers() if args.workers is None else args.workers
    tally, wall = t.run(spec, args.games, workers, progress=sys.stderr.isatty())
    doc = t.report(spec, tally, wall, workers)
    print(t.format_table(doc))
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="unokit", description="UNO: play, replay and study it.")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("replay", help="replay a game record and print the result as JSON")
    r.add_argument("file", help="record file (JSON), or - for standard input")
    r.add_argument("--compact", action="store_true", help="print the JSON on one line")
    r.set_defaults(func=cmd_replay)

    ru = sub.add_parser("rules", help="list every preset and option")
    ru.set_defaults(func=cmd_rules)

    def table_args(sp: argparse.ArgumentParser, players: int) -> None:
        sp.add_argument("--players", type=int, default=players, help="2 to 10 players")
        sp.add_argument("--rules", default="classic", help="a preset (see `unokit rules`)")
        sp.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="override one rule option (repeatable)",
        )
        sp.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
        sp.add_argument("--record", metavar="FILE", help="save the game record to FILE")

    d = sub.add_parser("demo", help="play a whole game between random bots and print its record")
    table_args(d, 3)
    d.set_defaults(func=cmd_demo)

    pl = sub.add_parser("play", help="play UNO in the terminal against bots")
    table_args(pl, 4)
    pl.add_argument("--name", default="You", help="your name at the table")
    pl.add_argument(
        "--bots", default=None, help="bot kind for every opponent (random, greedy, ...)"
    )
    pl.add_argument("--level", choices=("easy", "normal", "hard"), default="normal")
    pl.add_argument(
        "--speed", type=float, default=0.6, help="seconds between bot moves (0 = instant)"
    )
    pl.set_defaults(func=cmd_play)

    from unokit.sim.cli import add_arguments

    si = sub.add_parser("sim", help="simulate many games and report statistics with 95% CIs")
    add_arguments(si)
    si.set_defaults(func=cmd_sim)

    to = sub.add_parser("tournament", help="rank bots over duplicated deals with rotated seats")
    to.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help="bot names, optionally with options: ismcts:iterations=200,time_budget=0.05",
    )
    to.add_argument("--players", type=int, default=2, help="seats per table, 2 to 10")
    to.add_argument("--games", type=int, default=1000, help="games (rounded up to whole deals)")
    to.add_argument("--rules", default="classic", help="a preset (see `unokit rules`)")
    to.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="rule option"
    )
    to.add_argument("--seed", type=int, default=1, help="seed (results reproduce from it)")
    to.add_argument("--workers", type=int, default=None, help="processes (default all cores)")
    mode = to.add_mutually_exclusive_group()
    mode.add_argument(
        "--rounds-only",
        dest="full_games",
        action="store_false",
        help="each game is a single round (default)",
    )
    mode.add_argument("--full-games", dest="full_games", action="store_true")
    to.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    to.set_defaults(func=cmd_tournament, full_games=False)

    se = sub.add_parser("serve", help="start the web table: play with friends in a browser")
    se.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    se.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    se.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file that keeps rooms and games (default: unokit/server.sqlite3 "
        "under $XDG_DATA_HOME, else ~/.local/share)",
    )
    se.add_argument(
        "--sync",
        choices=("normal", "full"),
        default="normal",
        help="normal: every action survives a crash of the server; full: also a power "
        "loss, at an fsync per commit (default %(default)s)",
    )
    se.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="another page origin allowed to open websockets (behind a proxy)",
    )
    se.set_defaults(func=cmd_serve)
    return p


def default_db() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "unokit" / "server.sqlite3"


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from unokit.server.app import sqlite_app

    db = Path(args.db) if args.db else default_db()
    if db.is_dir():
        raise RulesError(f"--db {db} is a folder; give a file name")
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RulesError(f"cannot create the folder for --db {db}: {e.strerror}") from None
    timing = None
    if os.environ.get("UNOKIT_TIMING"):  # for tests and load runs: bot pacing, JSON
        import json as json_

        from unokit.match import Timing

        timing = Timing(**json_.loads(os.environ["UNOKIT_TIMING"]))
    app = sqlite_app(db, sync=args.sync, allowed_origins=tuple(args.origin), timing=timing)
    print(f"unokit: the table is at http://{args.host}:{args.port}  (games kept in {db})")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "seed", 0) is None and args.command == "demo":
        args.seed = 0
    try:
        players = getattr(args, "players", None)
        if players is not None and not 2 <= players <= 10:
            raise RulesError(f"--players must be from 2 to 10, not {players}")
        result: int = args.func(args)
        return result
    except (RulesError, ValueError) as e:
        print(f"unokit {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
