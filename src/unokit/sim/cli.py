"""``unokit sim``: from parsed arguments to a run and its outputs."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from unokit.rules import parse_option
from unokit.sim.config import REFERENCE_OPTIONS, SimConfig, parse_rules_spec, parse_seats
from unokit.sim.report import print_table, write_csv, write_json
from unokit.sim.runner import RAY_CONNECT_SECONDS, simulate
from unokit.sim.summary import summarize
from unokit.simbase import SimError


def _check(every: int | None) -> int:
    """``--check N``: N from 1 up (every N-th game); left out, no game is replayed."""
    if every is None:
        return 0
    if every < 1:
        raise SimError(
            f"--check N replays every N-th game, so N is 1 or more, not {every} "
            "(leave --check out to replay none)"
        )
    return every


def configs_from_args(args: argparse.Namespace) -> list[SimConfig]:
    """Every configuration the arguments ask for (one, or one per ``--compare`` entry)."""
    options: list[tuple[str, Any]] = [parse_option(o) for o in args.option]
    if args.reference:
        if args.bots:
            raise SimError("--reference sets every seat to the reference player; drop --bots")
        seats = ("reference",) * (args.players or 2)
        options = [*REFERENCE_OPTIONS, *options]
    else:
        seats = parse_seats(args.bots, args.players)
    rounds_only = bool(args.rounds_only or args.reference)
    specs = args.compare or [args.rules]
    configs = []
    for spec in specs:
        preset, own = parse_rules_spec(spec)
        configs.append(
            SimConfig(
                preset=preset,
                options=(*options, *own),
                seats=seats,
                games=args.games,
                seed=args.seed,
                rounds_only=rounds_only,
                dealer=args.dealer,
                label=spec if args.compare else "",
                engine=getattr(args, "engine", "python"),
                check=_check(getattr(args, "check", None)),
            )
        )
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        raise SimError("--compare names the same rule set twice")
    return configs


def run(args: argparse.Namespace) -> int:
    from unokit.files import check_output_dir, check_output_file

    configs = configs_from_args(args)
    # Every output path is checked before the games start; --plot's folder is created
    # first, so --plot out/ --csv out/c.csv works in a fresh checkout.
    plot_dir = check_output_dir(args.plot, "--plot")
    json_path = check_output_file(args.json, "--json")
    csv_path = check_output_file(args.csv, "--csv")
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    results = simulate(
        configs,
        workers=args.workers,
        backend=args.backend,
        address=args.address,
        progress=progress,
    )
    summaries = [summarize(r) for r in results]
    if not args.quiet:
        if sys.stdout.isatty():
            print_table(summaries)
        else:  # rich ends the process itself (exit 1) on a closed pipe: write it here
            text = io.StringIO()
            print_table(summaries, file=text)
            sys.stdout.write(text.getvalue())
    try:
        if json_path:
            write_json(json_path, summaries)
            print(f"wrote {json_path}", file=sys.stderr)
        if csv_path:
            write_csv(csv_path, summaries)
            print(f"wrote {csv_path}", file=sys.stderr)
        if plot_dir is not None:
            from unokit.sim.plots import write_plots

            for p in write_plots(summaries, plot_dir):
                print(f"wrote {p}", file=sys.stderr)
    except OSError as e:
        raise SimError(f"cannot write the output: {e}") from None
    return 0


def add_arguments(sp: argparse.ArgumentParser) -> None:
    """The ``sim`` sub-command's options (``unokit.cli`` adds the parser)."""
    sp.add_argument("--rules", default="classic", help="a preset (see `unokit rules`)")
    sp.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one rule option, for every rule set (repeatable)",
    )
    sp.add_argument("--players", type=int, default=None, help="2 to 10 (default 2, or --bots)")
    sp.add_argument(
        "--bots",
        default=None,
        metavar="NAMES",
        help="the player in each seat, comma-separated, or one name for all: random "
        "(fast, default), careless (random that forgets UNO half of the time), reference "
        "(fast, the published check's player), greedy, "
        "heuristic, learned (the PPO policy, docs/rl.md), bot:random (the RandomBot through "
        "views)",
    )
    sp.add_argument("--games", type=int, default=10_000, help="games per rule set (1 to 10^12)")
    sp.add_argument("--seed", type=int, default=0, help="same seed, same numbers")
    sp.add_argument(
        "--rounds-only",
        action="store_true",
        help="each game is a single round won by the first player out (default: whole "
        "games to the target score)",
    )
    sp.add_argument(
        "--dealer", type=int, default=None, help="first dealer's seat (default: random)"
    )
    sp.add_argument(
        "--reference",
        action="store_true",
        help="the published-numbers check: reference players, wd4_bluffing=false, "
        "uno_penalty=0, single rounds (docs/simulations.md)",
    )
    sp.add_argument(
        "--compare",
        nargs="+",
        metavar="RULES",
        help="compare rule sets: presets, or PRESET:KEY=VALUE[:KEY=VALUE...]",
    )
    sp.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    sp.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the games run: local processes, or Ray (an optional extra)",
    )
    sp.add_argument(
        "--address",
        default=None,
        metavar="HOST:PORT",
        help="an existing Ray cluster to join, or auto (with --backend ray); unokit gives up "
        f"after {RAY_CONNECT_SECONDS:g} s if nothing answers there",
    )
    sp.add_argument("--json", metavar="FILE", help="write every number as JSON")
    sp.add_argument("--csv", metavar="FILE", help="write the table as CSV (long format)")
    sp.add_argument("--plot", metavar="DIR", help="write PNG plots into DIR (created if needed)")
    sp.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    sp.add_argument("--quiet", action="store_true", help="no table on stdout")
    # the compiled engine (unokit.compiled, docs/simulations.md)
    sp.add_argument(
        "--engine",
        choices=("python", "compiled"),
        default="python",
        help="python: the reference engine (default); compiled: numba, 40 to 180 times "
        "faster (docs/benchmarks.md), every game (classic, flip, no-mercy), fast players "
        "only (pip install 'unokit[fast]')",
    )
    sp.add_argument(
        "--check",
        type=int,
        default=None,
        metavar="N",
        help="with --engine compiled: replay every N-th game (N from 1 up) through the "
        "reference engine and stop if it does not reach the identical final state "
        "(default: replay none)",
    )
