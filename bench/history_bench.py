"""What keeping every save costs a count change (issue 30, « Every save kept »;
docs/history.md), measured inside the save rather than around it.

Runs editor_bench.py's count changes (each system's first example repeated to 50 entries,
Infinity 45, in a carnet; the counts and the version posted to /r/{id}/nombres as the page
does, in-process, SQLite file) and times, at each save, the three parts the history adds
or changes: RosterService.kept (what changed, in words: the two documents compared), the
store's `keep` (the document compressed, the previous version read, the merged version
written) and the whole `update_roster` (the compare-and-swap, `keep` inside it). Prints the
median of each in microseconds with the save's own server CPU (editor_bench's `Timed`): a
share of a save less sensitive to the machine's load than two runs of the whole save.
`--spaced` makes every save a version of its own (the previous version aged past the
merging window first: an INSERT rather than an UPDATE). Prints figures; it is not a test.

    .venv/bin/python bench/history_bench.py [--saves 60] [--system dcsystem] [--spaced]
"""

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import editor_bench as bench  # bench/ is on the path: this script's folder
from fastapi.testclient import TestClient
from sqlalchemy import text

from app import roster_service
from app.cli import migrate
from app.main import create_app, settle_heap
from app.settings import Settings
from app.store import history, rosters

TIMES: dict[str, list[float]] = {"kept": [], "keep": [], "update_roster": []}


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            TIMES[name].append(time.perf_counter() - start)

    return run


def instrument() -> None:
    roster_service.RosterService.kept = timed("kept", roster_service.RosterService.kept)  # type: ignore[method-assign]
    rosters.keep = timed("keep", rosters.keep)
    roster_service.store.update_roster = timed("update_roster", rosters.update_roster)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=60)
    parser.add_argument("--system", choices=sorted(bench.SIZES), action="append")
    parser.add_argument("--spaced", action="store_true", help="no merging: one version a save")
    args = parser.parse_args()
    instrument()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        migrate(url)
        app = create_app(Settings(database_url=url, rate_limit_create="", rate_limit_write=""))
        app.openapi()
        settle_heap()
        with TestClient(app) as client:
            for system_id in args.system or list(bench.SIZES):
                path, headers, fields = bench.seed(client, app, system_id, bench.SIZES[system_id])
                bench.saves(client, path, headers, fields, 3)
                for found in TIMES.values():
                    found.clear()
                timed_app = bench.Timed(app)

                def aged() -> None:
                    """The list's versions saved long ago: the next save keeps its own."""
                    with app.state.engine.begin() as connection:
                        connection.execute(
                            text("UPDATE roster_version SET saved_at = :old"),
                            {"old": "2000-01-01 00:00:00"},
                        )

                with bench.inline_routes():
                    bench.saves(
                        TestClient(timed_app),
                        path,
                        headers,
                        fields,
                        args.saves,
                        aged if args.spaced else None,
                    )
                medians = {k: statistics.median(v) * 1e6 for k, v in TIMES.items()}
                print(
                    f"{system_id:<13} {bench.SIZES[system_id]} entries: kept "
                    f"{medians['kept']:4.0f} us, keep {medians['keep']:4.0f} us, "
                    f"update_roster {medians['update_roster']:5.0f} us, a save's server CPU "
                    f"{timed_app.cpu / args.saves * 1000:5.1f} ms "
                    f"({'a version each' if args.spaced else 'merged count changes'}; "
                    f"{history.COALESCE_SECONDS} s window)"
                )
        app.state.engine.dispose()


if __name__ == "__main__":
    sys.exit(main())
