"""``unokit``: one command with sub-commands.  Thin: parse, call the library, print.

No traceback ever reaches a user for bad input: the package's own errors
(``unokit.errors.UnoError`` and the simulator's and tournament's errors) print one line
and exit 2.  Every output path is checked before the work starts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unokit import __version__
from unokit.engine.family import new_game, plays
from unokit.errors import UnoError
from unokit.files import OutputError, check_output_file, write_text_atomic
from unokit.rules import (
    CUSTOM_RULE_TEXT,
    CUSTOM_RULES,
    MODERN_CHOICES,
    MODERN_DECKS,
    MODERN_OPTION_HELP,
    MODERN_PRESETS,
    OPTION_HELP,
    PRESET_PLAYERS,
    PRESETS,
    SCORINGS,
    STACKINGS,
    WD4_GUILTY,
    RulesError,
    RuleSet,
    from_preset,
    parse_option,
)


def allowed_values(key: str) -> str:
    """The values option ``key`` takes, as `unokit rules` prints them."""
    from unokit.cards import DECKS

    choices: dict[str, Sequence[str]] = {
        **MODERN_CHOICES,
        "deck": DECKS + MODERN_DECKS,
        "custom_rule": CUSTOM_RULES,
        "scoring": SCORINGS,
        "stacking": STACKINGS,
        "wd4_guilty": WD4_GUILTY,
    }
    ranges = {
        "custom_cards": (0, 3),
        "hand_size": (1, 20),
        "target_score": (1, 1_000_000),
        "wild_points": (0, 1000),
        "uno_penalty": (0, 20),
        "false_uno_penalty": (0, 20),
        "mercy_limit": (0, 200),
    }
    if key in choices:
        return ", ".join(choices[key])
    if key in ranges:
        lo, hi = ranges[key]
        return f"a whole number from {lo} to {hi}"
    if key == "launcher_weights":
        return "13 comma-separated whole numbers, for 0..12 cards"
    if isinstance(getattr(RuleSet(), key), bool):
        return "true or false"
    return "see docs/rules.md"


# ----------------------------------------------------------------- sub-commands ----
def _rules_from_args(preset: str, options: Sequence[str]) -> RuleSet:
    opts: dict[str, Any] = {}
    for text in options:
        key, value = parse_option(text)
        opts[key] = value
    return from_preset(preset, opts)


# the games the commands that take ``_classic_rules`` play so far (declared, as bots do)
CLASSIC_COMMAND_GAMES = frozenset({"classic"})


def _classic_rules(rules: RuleSet, command: str) -> RuleSet:
    """Refuse the games a front end does not draw or play yet."""
    if not plays(CLASSIC_COMMAND_GAMES, rules):
        raise RulesError(
            f"unokit {command} plays the classic decks only so far: deck={rules.deck!r} "
            "(UNO Flip!, No Mercy) plays in the engine, `unokit demo` and `unokit replay` "
            "(issue 38)"
        )
    return rules


def _players(args: argparse.Namespace, default: int) -> int:
    """``--players``, or what the preset is made for, or the command's default."""
    fixed = PRESET_PLAYERS.get(args.rules)
    if args.players is None:
        return fixed if fixed is not None else default
    if fixed is not None and args.players != fixed:
        raise RulesError(
            f"the {args.rules} preset is for {fixed} players, not {args.players}; "
            "use --rules classic for other tables",
            code="bad_player_count",
        )
    return int(args.players)


def _json_quoted(message: str, doc: Any) -> str:
    """``message`` with every action object of the record quoted as JSON, not Python."""
    rounds = doc.get("rounds") if isinstance(doc, dict) else None
    if not isinstance(rounds, list):
        return message
    try:
        for r in rounds:
            acts = r.get("actions") if isinstance(r, dict) else None
            for a in acts if isinstance(acts, list) else ():
                if isinstance(a, dict):
                    message = message.replace(str(a), json.dumps(a))
    except (RecursionError, ValueError):  # an action nested too deeply to print
        pass
    return message


def _write(path: Path, text: str, flag: str) -> None:
    """Write an output file checked before the work; a late failure is one line too."""
    try:
        write_text_atomic(path, text)
    except OSError as e:
        raise OutputError(f"{flag} {path}: cannot write it ({e.strerror or e})") from None


# A whole game's record is tens of kilobytes; a thousand games' worth is still far
# below this.  More is not a record, and reading it all would exhaust memory.
MAX_RECORD_BYTES = 64 * 2**20


def cmd_replay(args: argparse.Namespace) -> int:
    from unokit.record import replay_text

    def fail(message: str) -> int:
        print(f"unokit replay: {message}", file=sys.stderr)
        print(json.dumps({"ok": False, "error": {"message": message}}))
        return 2

    limit = MAX_RECORD_BYTES
    try:
        if args.file == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(args.file, "rb") as f:  # /dev/zero or a huge file: read a bound
                data = f.read(limit + 1)
        if len(data) > limit:
            return fail(f"{args.file} is over {limit // 2**20} MiB: not a game record")
    except FileNotFoundError:
        return fail(f"cannot read {args.file}: no such file")
    except IsADirectoryError:
        return fail(f"cannot read {args.file}: it is a folder, not a record file")
    except OSError as e:
        return fail(f"cannot read {args.file}: {e.strerror or e}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return fail(f"{args.file} is not UTF-8 text (byte {e.start}); a record is JSON")
    status, out = replay_text(text)
    if isinstance(out, str):
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):  # the library said why; no second error
            doc = None
        return fail(_json_quoted(out, doc))
    print(json.dumps(out, indent=None if args.compact else 2))
    return status


def cmd_rules(args: argparse.Namespace) -> int:
    print("Presets (use --rules NAME):")
    for name, (desc, opts) in PRESETS.items():
        extra = ", ".join(f"{k}={v}" for k, v in opts.items())
        print(f"  {name:<16} {desc}" + (f"  [{extra}]" if extra else ""))
    print("\nThe modern games (RULES-MODERN.md; the engine, records and replay so far):")
    for name, (desc, opts) in MODERN_PRESETS.items():
        extra = ", ".join(f"{k}={v}" for k, v in opts.items())
        print(f"  {name:<16} {desc}" + (f"  [{extra}]" if extra else ""))
    print("\nOptions (use --option KEY=VALUE), with their values and defaults:")
    defaults = RuleSet().options()
    for key, text in OPTION_HELP.items():
        print(f"  {key:<22} {text}")
        print(f"  {'':<22}   values: {allowed_values(key)}; default {json.dumps(defaults[key])}")
        if key == "custom_rule":
            for rule in CUSTOM_RULES:
                print(f"  {'':<22}     {rule:<21} {CUSTOM_RULE_TEXT[rule]}")
    print("\nThe modern games' options (with --rules flip or --rules no-mercy):")
    fields = RuleSet.__dataclass_fields__
    for key, text in MODERN_OPTION_HELP.items():
        print(f"  {key:<22} {text}")
        default = json.dumps(fields[key].default)
        print(f"  {'':<22}   choices: {allowed_values(key)}; default {default}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from unokit.bots import RandomBot, play_game
    from unokit.engine import view_of
    from unokit.record import dumps

    record = check_output_file(args.record, "--record")
    rules = _rules_from_args(args.rules, args.option)
    players = _players(args, 3)
    names = [f"Bot{i}" for i in range(players)]
    game = new_game(rules, names, seed=args.seed)
    bots = [RandomBot(seed=args.seed * 100 + i) for i in range(players)]
    play_game(game, bots)
    text = dumps(game)
    if record is not None:
        _write(record, text, "--record")
        print(f"wrote {record}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    end = view_of(game, None)  # what a spectator sees: the scores, the rounds played
    teams = end.rules.scoring == "teams"
    winner = " and ".join(end.names[s] for s in game.outcome().winning_seats)
    labels = ["team 0", "team 1"] if teams else end.names
    rounds = end.round_index + 1  # people count rounds from 1; JSON indexes them from 0
    print(
        f"{winner} win{'' if teams else 's'} after {rounds} round{'s' if rounds != 1 else ''}"
        "; scores " + ", ".join(f"{n} {s}" for n, s in zip(labels, end.scores, strict=True)),
        file=sys.stderr,
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from unokit.tui.app import run_play

    args.players = _players(args, 4)
    if args.record is not None:
        check_output_file(args.record, "--record")
    rules = _rules_from_args(args.rules, args.option)  # UNO Flip! and No Mercy too
    status: int = run_play(args, rules)
    return status


def cmd_sim(args: argparse.Namespace) -> int:
    from unokit.sim.cli import run

    return run(args)


def cmd_train(args: argparse.Namespace) -> int:
    from unokit.rl.train import main as train

    return train(list(args.options))


def cmd_tournament(args: argparse.Namespace) -> int:
    from unokit import tournament as t

    json_path = check_output_file(args.json, "--json")
    spec = t.Spec(
        tuple(t.parse_entrants(args.bots)),
        _players(args, 2),
        _rules_from_args(args.rules, args.option),
        args.seed,
        full_games=args.full_games,
    )
    workers = t.default_workers() if args.workers is None else args.workers
    tally, wall = t.run(spec, args.games, workers, progress=sys.stderr.isatty())
    doc = t.report(spec, tally, wall, workers)
    print(t.format_table(doc))
    if json_path is not None:
        _write(json_path, json.dumps(doc, indent=2) + "\n", "--json")
        print(f"wrote {json_path}", file=sys.stderr)
    return 0


# ----------------------------------------------------------------- the parser ------
class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Shows each option's default, when it has a meaningful one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            "%(default)" in text
            or "default" in text
            or default in (None, False, [], argparse.SUPPRESS)
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


LEVEL_HELP = (
    "how strong the bots are: easy (random moves), normal (greedy) or hard (learned: the "
    "trained policy; heuristic in UNO Flip! and No Mercy). "
    "Bots forget to call UNO now and then, so you can catch them: easy 40%%, normal 15%%, "
    "hard 5%% of the time; and they let a forgotten UNO of yours pass: easy 50%%, normal "
    "25%%, hard never"
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unokit",
        description="UNO: play, replay and study it.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"unokit {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def parser(name: str, help: str) -> argparse.ArgumentParser:
        # ``help`` is %-formatted in the list of commands; the description is printed as is
        description = help.replace("%%", "%")
        return sub.add_parser(
            name, help=help, description=description, formatter_class=HelpFormatter
        )

    r = parser("replay", "replay a game record and print the result as JSON")
    r.add_argument("file", help="record file (JSON), or - for standard input")
    r.add_argument("--compact", action="store_true", help="print the JSON on one line")
    r.set_defaults(func=cmd_replay)

    ru = parser("rules", "list every preset and option, with the values they take")
    ru.set_defaults(func=cmd_rules)

    def table_args(sp: argparse.ArgumentParser, players: int) -> None:
        sp.add_argument(
            "--players",
            type=int,
            default=None,
            help=f"2 to 10 players (default: {players}, or what the preset is for)",
        )
        sp.add_argument("--rules", default="classic", help="a preset (see `unokit rules`)")
        sp.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="override one rule option (repeatable)",
        )

    d = parser("demo", "play a whole game between random bots and print its record")
    table_args(d, 3)
    d.add_argument("--seed", type=int, default=0, help="seed of the game")
    d.add_argument("--record", metavar="FILE", help="write the record to FILE, not stdout")
    d.set_defaults(func=cmd_demo)

    pl = parser("play", "play UNO in the terminal against bots")
    table_args(pl, 4)
    pl.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    pl.add_argument(
        "--record",
        metavar="FILE",
        help="where to save the game record (default: a new file in the data folder, "
        "$XDG_DATA_HOME/unokit/games or ~/.local/share/unokit/games); an existing file "
        "is never overwritten: FILE-2.json, FILE-3.json ... are used instead",
    )
    pl.add_argument("--name", default="You", help="your name at the table")
    pl.add_argument(
        "--bots",
        default=None,
        metavar="KIND",
        help="bot kind for every opponent (random, greedy, heuristic, ...; default: the "
        "level's kind)",
    )
    pl.add_argument(
        "--level", choices=("easy", "normal", "hard"), default="normal", help=LEVEL_HELP
    )
    pl.add_argument(
        "--speed", type=float, default=0.6, help="seconds between bot moves (0 = instant)"
    )
    pl.set_defaults(func=cmd_play)

    from unokit.sim.cli import add_arguments

    si = parser("sim", "simulate many games and report statistics with 95%% CIs")
    add_arguments(si)
    si.set_defaults(func=cmd_sim)

    to = parser("tournament", "rank bots over duplicated deals with rotated seats")
    to.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help="bot names, optionally with options: ismcts:iterations=200,time_budget=0.05",
    )
    to.add_argument(
        "--players", type=int, default=None, help="seats per table, 2 to 10 (default: 2)"
    )
    to.add_argument("--games", type=int, default=1000, help="games (rounded up to whole deals)")
    to.add_argument("--rules", default="classic", help="a preset (see `unokit rules`)")
    to.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="rule option"
    )
    to.add_argument("--seed", type=int, default=1, help="seed (results reproduce from it)")
    to.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    mode = to.add_mutually_exclusive_group()
    mode.add_argument(
        "--rounds-only",
        dest="full_games",
        action="store_false",
        help="each game is a single round won by the first player out (the default)",
    )
    mode.add_argument(
        "--full-games",
        dest="full_games",
        action="store_true",
        help="each game is a whole game, played to the rules' target score",
    )
    to.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    to.set_defaults(func=cmd_tournament, full_games=False)

    # Its options are parsed by unokit.rl.train (imported only when it runs: torch, the
    # vector env), so this parser takes them as they come ('+' is no option prefix).
    tr = sub.add_parser(
        "train",
        help="train the learned bot: PPO on the vector env (unokit train --help)",
        add_help=False,
        prefix_chars="+",
    )
    tr.add_argument("options", nargs="*")
    tr.set_defaults(func=cmd_train)

    se = parser("serve", "start the web table: play with friends in a browser")
    se.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    se.add_argument("--port", type=_port, default=8000, help="port, 1-65535 (default %(default)s)")
    se.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file that keeps rooms and games (default: unokit/server.sqlite3 "
        "under $XDG_DATA_HOME, else ~/.local/share)",
    )
    se.add_argument(
        "--store",
        default=None,
        metavar="URL",
        help="keep rooms and games in PostgreSQL instead of SQLite: a URL such as "
        "postgresql://user@host:5432/dbname (one server per database, unless --bus)",
    )
    se.add_argument(
        "--bus",
        default=None,
        metavar="URL",
        help="run as one of several servers on the same --store: tell the others of every "
        "change through Redis, redis://host:6379/0 (docs/deploy.md)",
    )
    se.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="json: one JSON object a line, with room and request ids, for a log "
        "collector (default %(default)s)",
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
        help="a page origin allowed to open websockets, as scheme://host[:port] (repeat it "
        "for several; the server's own address, http://HOST:PORT, and "
        "http://localhost:PORT are always allowed)",
    )
    se.add_argument(
        "--forwarded-allow-ips",
        type=_proxies,
        default=None,
        metavar="IPS",
        help="believe X-Forwarded-For/-Proto only from these reverse proxies (addresses or "
        "networks, comma-separated; '*' for any): the client address every limit counts "
        "(default: believe no one)",
    )
    se.set_defaults(func=cmd_serve)
    return p


def _port(text: str) -> int:
    """``serve --port``: a TCP port, 1-65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {port}")
    return port


def _proxies(text: str) -> str:
    """``serve --forwarded-allow-ips``: addresses or networks, checked here."""
    from unokit.server.guard import parse_proxies

    try:
        parse_proxies(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def serve_origins(values: list[str], host: str, port: int) -> tuple[str, ...]:
    """The origins a page may come from besides the address a connection reached:
    ``--origin``s, and, when serving on every address, the address ``serve`` prints
    (a browser on this machine may open http://0.0.0.0:PORT as it is; found by review:
    its websocket was refused as a foreign origin)."""
    origins = _origins(values)
    if host in ("0.0.0.0", "::"):
        origins = (*origins, f"http://{'0.0.0.0' if host == '0.0.0.0' else '[::]'}:{port}")
    return origins


def _origins(values: list[str]) -> tuple[str, ...]:
    from unokit.server.session import normal_origin

    for value in values:
        if normal_origin(value) is None:
            raise RulesError(f"--origin {value!r} is not an origin such as https://uno.example.org")
    return tuple(values)


def default_db() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "unokit" / "server.sqlite3"


def cmd_serve(args: argparse.Namespace) -> int:
    from unokit.server.app import create_app
    from unokit.server.limits import Limits
    from unokit.server.runtime import FULL_COLLECTION_SECONDS, serve, serve_options, tune_gc
    from unokit.server.store import SQLiteStore, Store

    if args.bus is not None and args.store is None:
        raise RulesError("--bus is for several servers on one PostgreSQL --store; give --store")
    if args.store is not None and (args.db is not None or args.sync != "normal"):
        what = "--db" if args.db is not None else "--sync"
        raise RulesError(f"{what} is for SQLite; --store keeps games in PostgreSQL: give one")
    db = Path(args.db) if args.db else default_db()
    if args.store is None:
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

        try:
            timing = Timing(**json_.loads(os.environ["UNOKIT_TIMING"]))
        except (ValueError, TypeError) as e:
            raise RulesError(f"UNOKIT_TIMING is not a Timing as JSON: {e}") from None
    origins = serve_origins(args.origin, args.host, args.port)
    store: Store
    if args.store is not None:  # StoreOpenError (one line, exit 2) if it cannot be used
        try:
            from unokit.server.pgstore import PostgresStore
        except ModuleNotFoundError as e:
            if not (e.name or "").startswith("psycopg"):
                raise
            raise RulesError("--store needs psycopg: pip install 'unokit[postgres]'") from None
        store = PostgresStore(args.store, shared=args.bus is not None)
        kept = f"PostgreSQL at {store.where}"
    else:
        store = SQLiteStore(db, sync=args.sync)
        kept = str(db)
    bus = None
    if args.bus is not None:
        from unokit.server.bus import open_bus

        try:
            bus = open_bus(args.bus)
        except ModuleNotFoundError as e:
            raise RulesError("--bus needs redis: pip install 'unokit[redis]'") from e
        except ValueError as e:
            raise RulesError(str(e)) from None
        # the member's name is the lease holder in the store's leases table
        kept += f", told to the cluster through {args.bus.split('@')[-1]} as {bus.origin}"
    app = create_app(
        store,
        allowed_origins=origins,
        timing=timing,
        full_collection_seconds=FULL_COLLECTION_SECONDS,
        bus=bus,
    )
    if os.environ.get("UNOKIT_SEED"):
        print(
            "unokit: WARNING: UNOKIT_SEED is set, so every shuffle is predictable; "
            "it is for tests only, never for real games",
            file=sys.stderr,
        )
    print(f"unokit: the table is at http://{args.host}:{args.port}  (games kept in {kept})")
    tune_gc()
    options = serve_options(Limits(), args.forwarded_allow_ips)
    if args.log_format == "json":
        from unokit.server.ops import install_json_logging

        install_json_logging()
        options["log_config"] = None  # uvicorn's own would put its text handlers back
    serve(app, host=args.host, port=args.port, **options)
    return 0


def _own_errors() -> tuple[type[Exception], ...]:
    """The errors unokit raises on purpose for bad input (never a bare ValueError)."""
    from unokit.simbase import SimError
    from unokit.tournament import TournamentError

    return (UnoError, SimError, TournamentError)


def _quiet_stdout() -> None:
    """Point standard output at /dev/null: Python's flush at exit meets no closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file behind sys.stdout (a test's capture)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """The command; a Ctrl-C at any moment of it is ``interrupted`` and exit 130.

    Building the parser imports most of unokit (a second under load): a Ctrl-C then
    printed a traceback before this took charge (issue 51).
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    from unokit.workers import stage

    stage("parsing")  # a test's Ctrl-C while the parser imports the sub-commands
    parser = build_parser()
    args = parser.parse_args(argv)
    own = _own_errors()
    try:
        players = getattr(args, "players", None)
        if players is not None and not 2 <= players <= 10:
            raise RulesError(f"--players must be from 2 to 10, not {players}")
        result: int = args.func(args)
        sys.stdout.flush()  # here, so that a closed pipe is met inside the try
        return result
    except own as e:
        print(f"unokit {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `unokit sim | head -1`: the reader has what it wanted
        _quiet_stdout()
        return 0


if __name__ == "__main__":
    sys.exit(main())
