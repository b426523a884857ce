"""Writing results: a terminal table (rich), JSON and CSV files."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from unokit.sim.summary import Row, fmt, rows


def table(summaries: Sequence[dict[str, Any]]) -> Any:
    """One rich Table: a row per metric, a column per configuration."""
    from rich.table import Table

    first = summaries[0]["config"]
    mode = "single rounds" if first["mode"] == "rounds" else "whole games"
    seats = ",".join(first["seats"])
    title = f"{summaries[0]['games']:,} {mode} per rule set · players {seats}"
    t = Table(title=title, title_justify="left", show_lines=False)
    t.add_column("", style="bold", no_wrap=True)
    for s in summaries:
        t.add_column(s["config"]["label"], justify="right", no_wrap=True)
    per_config = [rows(s, shares=False) for s in summaries]
    # Align rows by (section, metric): rule sets may differ in which cards exist.
    keys: list[tuple[str, str]] = []
    for rs in per_config:
        for r in rs:
            if (r.section, r.metric) not in keys:
                keys.append((r.section, r.metric))
    lookup = [{(r.section, r.metric): r for r in rs} for rs in per_config]
    section = None
    for sec, metric in keys:
        if sec != section:
            if section is not None:
                t.add_section()
            t.add_row(f"[underline]{sec}[/underline]", *([""] * len(summaries)))
            section = sec
        cells = [fmt(lk[(sec, metric)]) if (sec, metric) in lk else "-" for lk in lookup]
        t.add_row(f"  {metric}", *cells)
    return t


def caption(summaries: Sequence[dict[str, Any]]) -> str:
    timing = summaries[0]["timing"]
    speed = ", ".join(f"{s['timing']['games_per_core_s']:,.0f}" for s in summaries)
    workers = timing["workers"]
    compiling = timing.get("compile_seconds", 0.0)  # files written before it had none
    first = (
        f", after {compiling:.0f} s compiling the compiled engine (once per machine)"
        if compiling
        else ""
    )
    return (
        "95% intervals: [Wilson] for rates, ± normal approximation for means.\n"
        f"Speed: {speed} games/s per core; {timing['wall_seconds']:.1f} s in all on "
        f"{workers} {'worker' if workers == 1 else 'workers'} ({timing['backend']}){first}."
    )


def print_table(summaries: Sequence[dict[str, Any]], file: IO[str] | None = None) -> None:
    from rich.console import Console

    console = Console(file=file, width=max(100, 40 + 30 * len(summaries)))
    console.print(table(summaries))
    console.print(caption(summaries), style="dim", highlight=False)


def _clean(x: Any) -> Any:
    """NaN is not JSON: write null instead."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def write_json(path: Path, summaries: Sequence[dict[str, Any]]) -> None:
    doc = {"format": "unokit-sim", "version": 1, "runs": _clean(list(summaries))}
    from unokit.files import write_text_atomic

    write_text_atomic(path, json.dumps(doc, indent=2) + "\n")


CSV_FIELDS = ("rules", "section", "metric", "value", "ci_low", "ci_high")


def write_csv(path: Path, summaries: Sequence[dict[str, Any]]) -> None:
    """Long format: one line per (rule set, metric), ready for a spreadsheet or pandas."""
    from unokit.files import write_text_atomic

    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(CSV_FIELDS)
    for s in summaries:
        for r in rows(s):
            w.writerow([s["config"]["label"], r.section, r.metric, *_nums(r)])
    write_text_atomic(path, f.getvalue())


def _nums(r: Row) -> list[str]:
    return ["" if math.isnan(x) else repr(float(x)) for x in (r.value, r.ci_low, r.ci_high)]
