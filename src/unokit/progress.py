"""One progress bar on stderr, shared by ``unokit sim`` and ``unokit tournament``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(
    total: int, enabled: bool, label: str, rate: str | None = None
) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(k)``; a Rich bar on stderr when ``enabled``, else a no-op.

    ``rate``: the unit of a speed column (for example ``"games/s"``), none if None.
    Rich is imported only when a bar is shown, so quiet runs do not pay for it.
    """
    if not enabled:
        yield lambda k: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} {rate}" if speed else f"- {rate}", style="cyan")

    columns: list[ProgressColumn] = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
    ]
    if rate is not None:
        columns.append(RateColumn())
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=Console(file=sys.stderr), transient=False) as bar:
        task = bar.add_task(label, total=total)
        yield lambda k: bar.advance(task, k)
