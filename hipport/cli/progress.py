"""The progress bar of a run (check, translate, shim, verify): drawn on standard error,
only when asked for or when standard error is a terminal outside CI (--progress /
--no-progress), and gone when the run ends (the report or the diff owns the output)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Update = Callable[[int, int], None]


@contextmanager
def progress_bar(wanted: bool | None, description: str) -> Iterator[Update | None]:
    """Yields the runner's on_progress callback (done, total), or None when no bar is
    drawn (then the run pays nothing for it)."""
    from hipport.runner import progress_wanted

    if not progress_wanted(wanted):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    console = Console(stderr=True, emoji=False, highlight=False)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
