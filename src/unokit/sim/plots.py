"""PNG plots of simulation results, drawn with matplotlib (no display needed).

* ``game_length.png``: the distribution of turns per game (and rounds per game for
  whole games), one curve per rule set;
* ``win_rate_by_seat.png``: win rate by seat relative to the dealer, with 95% intervals;
* ``compare.png`` (when several rule sets are compared): the headline numbers side by side.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from unokit.files import write_bytes_atomic
from unokit.stats import Hist

DPI = 110


def _save(fig: Figure, path: Path) -> None:
    """Draw the PNG in memory, then write it atomically (as every other output)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    write_bytes_atomic(path, buf.getvalue())


def _hist(summary: dict[str, Any], key: str) -> Hist:
    return Hist.from_json(summary["counts"][key])


def _binned(h: Hist, width: int) -> tuple[list[float], list[float]]:
    """Bin left edges and the share of games in each bin."""
    n = h.n or 1
    bins: dict[int, int] = {}
    for v, k in h.counts.items():
        b = v // width * width
        bins[b] = bins.get(b, 0) + k
    xs = sorted(bins)
    return [float(x) for x in xs], [bins[x] / n for x in xs]


def _errorbar(
    ax: Axes,
    xs: Sequence[float],
    ys: Sequence[float],
    lo: Sequence[float],
    hi: Sequence[float],
    **kw: Any,
) -> None:
    """Points with their 95% intervals (the axis is not forced to start at 0)."""
    err = [
        [max(0.0, y - a) if not math.isnan(a) else 0.0 for y, a in zip(ys, lo, strict=True)],
        [max(0.0, b - y) if not math.isnan(b) else 0.0 for y, b in zip(ys, hi, strict=True)],
    ]
    ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=5, markersize=6, **kw)


def plot_game_length(summaries: Sequence[dict[str, Any]], path: Path) -> None:
    whole = any(s["config"]["mode"] == "games" for s in summaries)
    fig = Figure(figsize=(11 if whole else 7, 4.5), dpi=DPI)
    axes = fig.subplots(1, 2 if whole else 1, squeeze=False)[0]
    ax = axes[0]
    top = max(_hist(s, "turns").quantile(0.99) for s in summaries)
    width = max(1, math.ceil(top / 60))
    for s in summaries:
        h = _hist(s, "turns")
        xs, ys = _binned(h, width)
        med = h.quantile(0.5)
        ax.step(xs, ys, where="post", label=f"{s['config']['label']} (median {med:g})")
    ax.set_xlim(0, top * 1.05)
    ax.set_xlabel(f"turns per game (bins of {width})")
    ax.set_ylabel("share of games")
    ax.set_title("Game length in turns")
    ax.legend(fontsize="small")
    if whole:
        ax = axes[1]
        k = len(summaries)
        for i, s in enumerate(summaries):
            h = _hist(s, "rounds_per_game")
            xs, ys = _binned(h, 1)
            ax.bar([x + (i - (k - 1) / 2) * 0.8 / k for x in xs], ys, width=0.8 / k,
                   label=s["config"]["label"])  # fmt: skip
        ax.set_xlabel("rounds per game")
        ax.set_ylabel("share of games")
        ax.set_title("Game length in rounds")
        ax.legend(fontsize="small")
    fig.tight_layout()
    _save(fig, path)


def plot_win_rate_by_seat(summaries: Sequence[dict[str, Any]], path: Path) -> None:
    first = summaries[0]
    labels = [r["seat"] for r in first["win_rate_by_position"]]
    n = len(labels)
    k = len(summaries)
    fig = Figure(figsize=(max(6.0, 1.2 * n * max(1, k) ** 0.5 + 2), 4.5), dpi=DPI)
    ax = fig.subplots()
    w = 0.8 / k
    for i, s in enumerate(summaries):
        rs = s["win_rate_by_position"]
        xs = [j + (i - (k - 1) / 2) * w for j in range(n)]
        _errorbar(ax, xs, [r["rate"] for r in rs], [r["ci_low"] for r in rs],
                  [r["ci_high"] for r in rs], label=s["config"]["label"])  # fmt: skip
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"1/{n}")
    ax.set_xticks(range(n))
    ax.set_xticklabels(labels)
    ax.set_ylabel("win rate (95% interval)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(f"Win rate by seat, {n} players (in playing order)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    _save(fig, path)


def plot_compare(summaries: Sequence[dict[str, Any]], path: Path) -> None:
    names = [s["config"]["label"] for s in summaries]
    xs = list(range(len(names)))
    whole = any(s["config"]["mode"] == "games" for s in summaries)

    def mean_of(key: str) -> tuple[list[float], list[float], list[float]]:
        return (
            [s[key]["mean"] for s in summaries],
            [s[key]["ci_low"] for s in summaries],
            [s[key]["ci_high"] for s in summaries],
        )

    first = [s["win_rate_by_position"][0] for s in summaries]
    first_rates = (
        [r["rate"] for r in first],
        [r["ci_low"] for r in first],
        [r["ci_high"] for r in first],
    )
    panels: list[tuple[str, tuple[list[float], list[float], list[float]]]] = [
        ("win rate, seat left of the dealer", first_rates),
        ("turns per game (mean)", mean_of("turns_per_game")),
        (
            ("rounds per game (mean)", mean_of("rounds_per_game"))
            if whole
            else ("points per round (mean)", mean_of("points_per_round"))
        ),
        ("reshuffles per game (mean)", mean_of("reshuffles_per_game")),
    ]
    fig = Figure(figsize=(max(8.0, 2.2 * len(names) + 3), 7), dpi=DPI)
    axes = fig.subplots(2, 2).ravel()
    for ax, (title, (ys, lo, hi)) in zip(axes, panels, strict=True):
        for i in xs:
            _errorbar(ax, [i], [ys[i]], [lo[i]], [hi[i]], color=f"C{i}")
        ax.margins(x=0.25)
        ax.set_xticks(xs)
        ax.set_xticklabels(names, rotation=15, ha="right", fontsize="small")
        ax.set_title(title)
    axes[0].yaxis.set_major_formatter(PercentFormatter(1.0))
    axes[0].axhline(1 / summaries[0]["config"]["players"], color="grey", linestyle="--")
    fig.suptitle(f"Rule sets compared ({summaries[0]['games']:,} games each, 95% intervals)")
    fig.tight_layout()
    _save(fig, path)


def write_plots(summaries: Sequence[dict[str, Any]], out_dir: Path) -> list[Path]:
    """Write the PNGs into ``out_dir`` (created if needed); return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / "game_length.png", out_dir / "win_rate_by_seat.png"]
    plot_game_length(summaries, paths[0])
    plot_win_rate_by_seat(summaries, paths[1])
    if len(summaries) > 1:
        paths.append(out_dir / "compare.png")
        plot_compare(summaries, paths[2])
    return paths
